"""The bridge as the Foundry module's release server: ``/module/module.json`` and ``/module/volley.zip``,
and the README and CHANGELOG the manifest links to (``/module/README.md``, ``/module/CHANGELOG.md``).

Pasting ``http://127.0.0.1:8765/module/module.json`` into Foundry's *Install Module* screen installs
the module that came with this bridge, and after the bridge is upgraded Foundry's update check sees
the newer version (``bridge.module.release`` says how). Foundry's server fetches both, with no way to
send the access token, so they need none: they hold nothing secret, only the module's public files.
Nothing else is served under ``/module/`` (not the module's scripts one by one: only the zip). The
routes are added to the main application (``add_module_routes`` from ``bridge.server.app.create_app``), so
whatever guards its other routes (the Host checks) guards these too.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable

from aiohttp import hdrs, web

import bridge
from bridge.module.assets import module_dir
from bridge.module.release import DOCUMENTS, DOWNLOAD_PATH, MANIFEST_PATH, Release

__all__ = ["add_module_routes", "bridge_origin"]

Handler = Callable[[web.Request], Awaitable[web.Response]]

#: ``host[:port]`` as a Host header may carry it: a name or IPv4 address, or an IPv6 one in brackets.
_AUTHORITY = re.compile(r"(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(?::(?P<port>[0-9]{1,5}))?")
#: Foundry must see a new version at once after an upgrade, never a cached old one.
_NO_CACHE = {"Cache-Control": "no-cache"}


def add_module_routes(app: web.Application) -> None:
    """Serve the module's manifest and zip from ``app`` (GET and HEAD)."""
    app.router.add_get(MANIFEST_PATH, manifest)
    app.router.add_get(DOWNLOAD_PATH, download)
    for path, name, _ in DOCUMENTS:
        app.router.add_get(path, _document(name))


def bridge_origin(request: web.Request) -> str:
    """``scheme://host:port`` of the bridge as this request reached it (its Host header).

    Foundry will come back to exactly this address for the zip and for update checks, so it is the
    one to hand out, rather than the address the bridge bound (``127.0.0.1`` may have been reached
    as ``localhost``). A Host header that is missing or not a plain ``host[:port]`` gets a 400,
    never an echo (Foundry, like every HTTP/1.1 client, always sends one).
    """
    authority = request.headers.get(hdrs.HOST, "")
    match = _AUTHORITY.fullmatch(authority)
    if match is None or (match["port"] is not None and int(match["port"]) > 65535):
        raise web.HTTPBadRequest(text="the Host header is not host[:port]")
    return f"{request.scheme}://{authority}"


async def manifest(request: web.Request) -> web.Response:
    release = Release(module_dir(), bridge_origin(request))
    body = await asyncio.to_thread(release.manifest)
    return web.Response(body=body, content_type="application/json", charset="utf-8", headers=_NO_CACHE)


async def download(request: web.Request) -> web.Response:
    release = Release(module_dir(), bridge_origin(request))
    body = await asyncio.to_thread(release.zip)
    return web.Response(
        body=body,
        content_type="application/zip",
        headers={
            **_NO_CACHE,
            "Content-Disposition": f'attachment; filename="volley-{bridge.__version__}.zip"',
        },
    )


def _document(name: str) -> Handler:
    """A handler serving the module's ``name`` (README.md, CHANGELOG.md) as UTF-8 Markdown text."""

    async def document(request: web.Request) -> web.Response:
        path = module_dir() / name
        try:
            body = await asyncio.to_thread(path.read_bytes)
        except OSError:
            raise web.HTTPNotFound(text=f"{name} is not in this installation of the module") from None
        return web.Response(body=body, content_type="text/markdown", charset="utf-8", headers=_NO_CACHE)

    return document
