"""``volley sandbox``: try Volley without Foundry.

One command starts a bridge with a throwaway access token and data directory (both gone when it
stops) and serves, next to its websocket, a page at ``/sandbox``: the real Foundry module, loaded
unmodified over a small stand-in for the Foundry client (``vtt_module/sandbox/``), with a demo scene
per rule system, a chat log and a switch between the referee's and a player's view. It prints one
line, ``Sandbox: http://127.0.0.1:PORT/sandbox``, once it listens, and opens that page in a browser
unless ``--no-open``.

The page is also the module's end-to-end test harness (tests/browser). Two sandbox-only endpoints
serve it: ``/sandbox/config.json`` hands the page its throwaway token, and ``/sandbox/bridge/stop``
and ``/start`` take the websocket service down and up again, so the page can show a referee what the
table sees while the bridge is away. ``volley serve`` registers none of these routes.

Imports stay inside functions (``volley odds`` starts without aiohttp).
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from aiohttp import web

__all__ = ["add_sandbox_routes", "register"]

HOST = "127.0.0.1"
#: Host names the sandbox answers to (a page on another name is refused: no DNS rebinding).
LOCAL_NAMES = ("127.0.0.1", "localhost", "[::1]")


#: What the page's address takes (vtt_module/sandbox/boot.js reads them), for ``volley sandbox --help``.
PAGE_PARAMETERS = """\
the page's address takes (e.g. http://127.0.0.1:PORT/sandbox?lang=ru&scene=d100&view=player):
  ?lang=en|ru                        the page's language (default en)
  ?scene=gurps|megatraveller|d100    the demo scene, and so the rule system (default gurps)
  ?view=referee|player               the referee's page, or the player's view (default referee)
  ?theme=light|dark                  Foundry's interface theme (default light)
  ?foundry=13|14                     the Foundry version the stand-in plays (default 14)
  ?as=coreferee|assistant            the page as a second game master, or an assistant
  ?tab=N                             another browser of the same user (2, 3, ...)
The page's header switches scene, view and language too, and its Configure Settings opens the
module's settings menus (the table rules)."""


def register(commands: Any) -> None:
    """Add ``sandbox`` to ``volley``'s subcommands."""
    from bridge.cli.commands import port_number

    parser = commands.add_parser(
        "sandbox",
        help="try the Foundry module in a browser page with a throwaway bridge (no Foundry needed)",
        description=(
            "Try the Foundry module in a browser page with a throwaway bridge (no Foundry needed): the real"
            " module over a stand-in for the Foundry client, a demo scene per rule system, a chat log, and"
            " the referee's and a player's view."
        ),
        epilog=PAGE_PARAMETERS,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--port", type=port_number, default=0, help="port to listen on (default: any free one)"
    )
    parser.add_argument("--no-open", action="store_true", help="do not open the page in a browser")
    parser.add_argument(
        "--seed-base",
        type=int,
        default=None,
        help="draw seeds N, N+1, ... instead of random ones (the browser tests use it: same rolls every run)",
    )
    parser.add_argument(
        "--no-warm-up",
        action="store_true",
        help="start the rules worker cold, on the first attack (the browser tests: most never fire one)",
    )
    parser.add_argument("--log-level", default="warning", choices=["debug", "info", "warning", "error"])
    parser.set_defaults(run=cmd_sandbox)


def cmd_sandbox(args: argparse.Namespace) -> int:
    import asyncio
    import secrets
    import sys
    import tempfile
    import webbrowser
    from pathlib import Path

    from bridge.cli.commands import configure_logging
    from bridge.server.app import BridgeSettings, create_app, run_server

    configure_logging(args.log_level)
    token = secrets.token_urlsafe(32)
    with tempfile.TemporaryDirectory(prefix="volley-sandbox-") as data:
        # Scripted dice are on: the page lets you choose the next roll's faces, to see a jam on purpose.
        settings = BridgeSettings(
            token=token,
            data_dir=Path(data),
            allow_scripted_dice=True,
            seed_base=args.seed_base,
            warm_up=not args.no_warm_up,
        )
        app = create_app(settings)
        add_sandbox_routes(app, token)

        def ready(url: str) -> None:
            port = url.rsplit(":", 1)[1].split("/", 1)[0]
            page = f"http://{HOST}:{port}/sandbox"
            print(f"Sandbox: {page}", flush=True)
            if not args.no_open:
                webbrowser.open(page)

        try:
            return asyncio.run(run_server(settings, HOST, args.port, ready, app=app))
        except OSError as error:
            print(f"volley sandbox: {error}", file=sys.stderr)
            return 1


def add_sandbox_routes(app: web.Application, token: str) -> None:
    """The sandbox page, the module's files where Foundry serves them, and the sandbox's endpoints."""
    import secrets

    from aiohttp import web

    from bridge.module.assets import module_dir
    from bridge.module.release import RUNTIME_FOLDERS
    from bridge.server.app import CONNECTIONS, close_connections

    module = module_dir()
    page_dir = module / "sandbox"
    state: dict[str, bool] = {"stopped": False}

    def local_only(request: web.Request) -> None:
        """Refuse a page on another host name, or another origin (no DNS rebinding, no cross-site)."""
        name = request.host or ""
        host = "[::1]" if name.startswith("[") else name.rsplit(":", 1)[0]
        origin = request.headers.get("Origin")
        same_origin = origin is None or origin == f"http://{request.host}"
        if host not in LOCAL_NAMES or not same_origin:
            raise web.HTTPForbidden(text="the sandbox answers on 127.0.0.1 only")

    async def page(request: web.Request) -> web.StreamResponse:
        local_only(request)
        return web.FileResponse(page_dir / "index.html", headers={"Cache-Control": "no-store"})

    async def manifest(request: web.Request) -> web.StreamResponse:
        return web.FileResponse(module / "module.json", headers={"Cache-Control": "no-store"})

    async def config(request: web.Request) -> web.Response:
        local_only(request)
        return web.json_response({"token": token}, headers={"Cache-Control": "no-store"})

    # The world every page of this run shares (the page keeps it in the browser under this name), so a
    # new run starts a new table and a reload keeps the one it has. No token in it: players read it too.
    world = secrets.token_hex(8)

    async def world_id(request: web.Request) -> web.Response:
        local_only(request)
        return web.json_response({"world": world}, headers={"Cache-Control": "no-store"})

    async def stop(request: web.Request) -> web.Response:
        local_only(request)
        state["stopped"] = True
        closed = len(request.app[CONNECTIONS])
        await close_connections(request.app)
        return web.json_response({"bridge": "stopped", "closed": closed})

    async def start(request: web.Request) -> web.Response:
        local_only(request)
        state["stopped"] = False
        return web.json_response({"bridge": "running"})

    @web.middleware
    async def outage(request: web.Request, handler: Any) -> web.StreamResponse:
        if state["stopped"] and request.path == "/ws":
            raise web.HTTPServiceUnavailable(text="the sandbox's bridge is stopped")
        response: web.StreamResponse = await handler(request)
        return response

    app.middlewares.append(outage)
    app.router.add_get("/sandbox", page)
    app.router.add_get("/sandbox/", page)
    app.router.add_get("/sandbox/config.json", config)
    app.router.add_get("/sandbox/world.json", world_id)
    app.router.add_post("/sandbox/bridge/stop", stop)
    app.router.add_post("/sandbox/bridge/start", start)
    app.router.add_static("/sandbox/", page_dir)
    app.router.add_get("/modules/volley/module.json", manifest)
    for part in RUNTIME_FOLDERS:  # the module's folders, where Foundry serves them
        app.router.add_static(f"/modules/volley/{part}/", module / part)
