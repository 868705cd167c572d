"""``GET /report/current``: the running session's report, for the module's "Session report" button.

The referee's browser fetches the page with the bridge's access token in the ``Authorization``
header (``Bearer <token>``) and shows it from a Blob URL. The token never goes in the URL, where it
would end up in histories and logs: a ``token`` query parameter is refused outright. Without the
right token the answer is 401 and nothing else.

The Foundry page and the bridge are different origins, so the route answers the browser's CORS
preflight and marks its responses readable by any origin: the token, not the origin, is what lets
someone in (the same rule as the websocket).

**Out of the serving process.** Reading a long session, pricing every attack and drawing the charts
takes seconds to minutes of CPU and, however flat its memory, a few hundred megabytes of the rules'
caches and matplotlib. None of it may reach the table: the page is built by a child process
(``python -m bridge.report.route JOURNAL LANGUAGE``, the same interpreter), at a lower scheduling
priority (``CHILD_NICENESS``), one at a time. The serving process only waits for its bytes, so an
attack made meanwhile is answered as fast as ever (``scripts/bench_report.py`` measures it), and the
memory the report took goes back to the system when the child exits. A browser that gives up takes
the child with it.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from aiohttp import web

from bridge.i18n import LANGUAGES
from bridge.server.access import token_matches

__all__ = ["CHILD_NICENESS", "REPORT_PATH", "add_report_route", "build_in_child"]

REPORT_PATH = "/report/current"
#: How much nicer than the bridge the child building a report runs (``os.nice``): on a busy machine
#: the bridge's attacks come first.
CHILD_NICENESS = 10
#: The child's exit code when matplotlib or SciPy is missing.
EXIT_EXTRA_MISSING = 3
#: The most of the child's error output the route passes on.
_ERROR_BYTES = 2000
_CORS = {
    "Access-Control-Allow-Origin": "*",
    "Access-Control-Allow-Methods": "GET, OPTIONS",
    "Access-Control-Allow-Headers": "Authorization",
    "Access-Control-Max-Age": "600",
}
_PAGE_HEADERS = {
    **_CORS,
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    # The page has inline styles and inline SVG, and nothing else: no scripts, no fetches.
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; img-src data:",
}


def _bearer(request: web.Request) -> str | None:
    scheme, _, value = request.headers.get("Authorization", "").partition(" ")
    return value.strip() if scheme.lower() == "bearer" and value.strip() else None


def _language(request: web.Request) -> str:
    """``?lang=ru``, else the browser's ``Accept-Language``, else English."""
    asked = request.query.get("lang", "")
    if asked in LANGUAGES:
        return asked
    for part in request.headers.get("Accept-Language", "").split(","):
        code = part.split(";")[0].strip().split("-")[0].lower()
        if code in LANGUAGES:
            return code
    return LANGUAGES[0]


class ReportFailed(Exception):
    """The child could not build the page; ``status`` is the HTTP answer it calls for."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


async def build_in_child(journal: Path, language: str) -> str:
    """The live session's page, built by a child process (``main``) and read from its output."""
    child = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bridge.report.route",
        str(journal),
        language,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        page, errors = await child.communicate()
    finally:
        if child.returncode is None:  # the request was cancelled: the browser gave up, or the bridge stops
            with contextlib.suppress(ProcessLookupError):
                child.kill()
            await child.wait()
    if child.returncode == EXIT_EXTRA_MISSING:
        raise ReportFailed(503, "matplotlib or SciPy is missing: reinstall Volley, which brings them")
    if child.returncode != 0:
        said = errors.decode("utf-8", "replace").strip().splitlines()
        raise ReportFailed(
            500, f"the report could not be built ({said[-1][:_ERROR_BYTES] if said else child.returncode})"
        )
    return page.decode("utf-8")


def main(argv: Sequence[str]) -> int:
    """The child: ``JOURNAL LANGUAGE`` in, the page on standard output."""
    journal, language = argv
    if hasattr(os, "nice"):
        with contextlib.suppress(OSError):
            os.nice(CHILD_NICENESS)
    try:
        from bridge.report.build import report_html
        from bridge.report.record import read_record
    except ImportError:
        return EXIT_EXTRA_MISSING
    html = report_html([read_record(Path(journal), live=True)], language)
    sys.stdout.buffer.write(html.encode("utf-8"))
    sys.stdout.buffer.flush()
    return 0


def _text(status: int, message: str, **headers: str) -> web.Response:
    return web.Response(status=status, text=message + "\n", headers={**_CORS, **headers})


def add_report_route(app: web.Application, *, token: str, journal: Callable[[], Path]) -> None:
    """Serve the report of the session ``journal()`` names, to holders of ``token``."""
    one_at_a_time = asyncio.Lock()

    async def preflight(_: web.Request) -> web.Response:
        return web.Response(status=204, headers=_CORS)

    async def current(request: web.Request) -> web.Response:
        if "token" in request.query:
            return _text(400, "send the access token in the Authorization header, never in the URL")
        if not token_matches(token, _bearer(request)):
            return _text(
                401, "missing or wrong access token", **{"WWW-Authenticate": 'Bearer realm="volley"'}
            )
        async with one_at_a_time:
            try:
                html = await build_in_child(journal(), _language(request))
            except ReportFailed as failed:
                return _text(failed.status, str(failed))
        return web.Response(text=html, content_type="text/html", charset="utf-8", headers=_PAGE_HEADERS)

    app.router.add_route("OPTIONS", REPORT_PATH, preflight)
    app.router.add_get(REPORT_PATH, current)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
