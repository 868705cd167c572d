"""``GET /report/current``: the running session's report, for the module's "Session report" button.

The referee's browser fetches the page with the bridge's access token in the ``Authorization``
header (``Bearer <token>``) and shows it from a Blob URL. The token never goes in the URL, where it
would end up in histories and logs: a ``token`` query parameter is refused outright. Without the
right token the answer is 401 and nothing else.

The Foundry page and the bridge are different origins, so the route answers the browser's CORS
preflight and marks its responses readable by any origin: the token, not the origin, is what lets
someone in (the same rule as the websocket). The page is built in a worker thread (it reads the whole
journal and draws charts) and one at a time, so a report never stalls the table's attacks.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from aiohttp import web

from bridge.access import token_matches
from bridge.i18n import LANGUAGES

__all__ = ["REPORT_PATH", "add_report_route"]

REPORT_PATH = "/report/current"
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


def _render(journal: Path, language: str) -> str:
    from bridge.report.build import report_html
    from bridge.report.record import read_record

    return report_html([read_record(journal, live=True)], language)


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
                html = await asyncio.to_thread(_render, journal(), _language(request))
            except ImportError:
                return _text(503, "matplotlib or SciPy is missing: reinstall Volley, which brings them")
        return web.Response(text=html, content_type="text/html", charset="utf-8", headers=_PAGE_HEADERS)

    app.router.add_route("OPTIONS", REPORT_PATH, preflight)
    app.router.add_get(REPORT_PATH, current)
