"""The server's subcommands of ``volley``: ``serve``, ``sessions``, ``show`` and ``replay``.

``bridge.cli`` builds the parser and calls ``register``; each subcommand sets ``run`` to a function
returning the exit code.

Registering them must stay cheap (``volley odds`` builds the same parser): the server, the journal
readers and replay are imported inside the command functions.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import bridge
from bridge.cli.inert import inert, inert_catalogue, inert_output
from bridge.expiry import PENDING_EXPIRY
from bridge.i18n import add_language
from bridge.paths import add_config_dir, add_data_dir, config_dir, data_dir, sessions_dir
from bridge.server.ratelimit import BURST, RATE, TABLE_SHARE

if TYPE_CHECKING:
    from bridge.server.door import Door

__all__ = ["register"]

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765
EXIT_MISMATCH = 1
EXIT_USAGE = 2


def _number(text: str, kind: type[int] | type[float]) -> float:
    try:
        return kind(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None


def port_number(text: str) -> int:
    """``--port``: 0 to 65535, 0 for any free one (``volley serve``, ``volley sandbox``)."""
    value = int(_number(text, int))
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 0-65535 (0 = any free one), not {value}")
    return value


def _rate(text: str) -> float:
    value = _number(text, float)
    if not value > 0:  # also refuses nan
        raise argparse.ArgumentTypeError(f"must be more than 0 messages/s, not {text}")
    return value


def _seconds(text: str) -> float:
    value = _number(text, float)
    if not value > 0:  # also refuses nan
        raise argparse.ArgumentTypeError(f"must be more than 0 seconds, not {text}")
    return value


def _burst(text: str) -> int:
    value = int(_number(text, int))
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1 message, not {value}")
    return value


def _origin(text: str) -> str:
    from bridge.server.origins import normal_origin

    try:
        return normal_origin(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(f"{error}; e.g. https://foundry.example.com:30000") from None


def is_loopback(host: str) -> bool:
    import ipaddress

    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def configure_logging(level: str) -> None:
    """``--log-level``: the server's log lines on stderr (``volley serve``, ``volley sandbox``)."""
    import logging

    logging.basicConfig(
        level=getattr(logging, level.upper(), logging.INFO),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )


def _refuse_insecure_remote(args: argparse.Namespace) -> str | None:
    """Why this ``serve`` must not start (remote access in clear text, half a TLS pair), or ``None``."""
    if (args.tls_cert is None) != (args.tls_key is None):
        return "--tls-cert and --tls-key go together (the certificate chain and its private key, PEM)"
    if not is_loopback(args.host) and not args.allow_remote:
        return (
            f"refusing to listen on {args.host}: it is not loopback. The bridge rolls dice for anyone "
            "holding the token; pass --allow-remote if you really mean it."
        )
    if args.allow_remote and args.tls_cert is None and not args.insecure:
        return (
            "--allow-remote without TLS would send the access token across the network in clear text: "
            "give --tls-cert and --tls-key (the module then connects to wss://), or add --insecure if "
            "the network is yours alone"
        )
    return None


def _door(args: argparse.Namespace) -> Door:
    """Who gets in: ``--allow-remote``, ``--allow-origin`` and ``--max-connections`` (of which the
    not-yet-authenticated keep their default share, but always leave a token holder a slot)."""
    from dataclasses import replace

    from bridge.server.door import Door

    door = Door(allow_remote=args.allow_remote, allow_origins=tuple(args.allow_origin))
    if args.max_connections is None:
        return door
    total = max(2, args.max_connections)
    return replace(door, max_connections=total, max_strangers=min(door.max_strangers, total - 1))


def cmd_serve(args: argparse.Namespace) -> int:
    import asyncio
    import errno

    from bridge.server.access import load_or_create_token

    configure_logging(args.log_level)
    refusal = _refuse_insecure_remote(args)
    if refusal is not None:
        print(f"volley serve: {refusal}", file=sys.stderr)
        return EXIT_USAGE
    if args.tls_cert is not None:
        import ssl

        from bridge.server.app import tls_context

        try:
            tls_context(args.tls_cert, args.tls_key)
        except (OSError, ssl.SSLError) as error:
            print(f"volley serve: cannot use --tls-cert/--tls-key: {error}", file=sys.stderr)
            return EXIT_USAGE
    if not is_loopback(args.host):
        print(
            f"WARNING: listening on {args.host}, reachable from other machines. Anyone with the token can "
            "roll at your table; prefer 127.0.0.1 and a tunnel.",
            file=sys.stderr,
        )
    if args.allow_remote and args.tls_cert is None:
        print(
            "WARNING: --insecure: the access token and every roll cross the network unencrypted.",
            file=sys.stderr,
        )
    token = load_or_create_token(config_dir(args.config_dir), args.token)
    if token.warning() is not None:
        print(token.warning(), file=sys.stderr)
    settings_data = data_dir(args.data_dir)
    if args.allow_scripted_dice:
        print("NOTE: scripted dice allowed (--allow-scripted-dice): clients may choose their own rolls.")

    from bridge.server.app import BridgeSettings, run_server

    settings = BridgeSettings(
        token=token.value,
        data_dir=settings_data,
        allow_scripted_dice=args.allow_scripted_dice,
        seed_base=args.seed_base,
        rate=args.rate,
        burst=args.burst,
        pending_expiry=args.pending_expiry,
        door=_door(args),
        tls_cert=args.tls_cert,
        tls_key=args.tls_key,
    )

    def ready(url: str) -> None:
        print(f"Volley bridge {bridge.__version__} listening on {url}")
        if token.created:
            print(f"New access token (saved to {token.path}, readable only by you): {token.value}")
            print("Paste it into Foundry: Game Settings > Configure Settings > Volley > Bridge access token.")
        elif token.path is not None:
            print(f"Access token: the one saved in {token.path}")
        else:
            print(f"Access token: from {token.source}")
        print(f"Journal: {sessions_dir(settings_data)}")
        scheme, _, address = url.partition("://")
        page = "https" if scheme == "wss" else "http"  # the same door, over TLS when the websocket is
        print(
            f"Foundry module: paste {page}://{address.removesuffix('/ws')}/module/module.json into "
            "Add-on Modules > Install Module > Manifest URL",
            flush=True,
        )

    try:
        return asyncio.run(run_server(settings, args.host, args.port, ready))
    except OSError as error:  # port taken, data directory not writable...
        hint = ""
        if error.errno == errno.EADDRINUSE:
            hint = f" (is another volley serve running? pick a free one with --port, now {args.port})"
        print(f"volley serve: {error}{hint}", file=sys.stderr)
        return 1


@contextlib.contextmanager
def _reader_may_leave() -> Iterator[None]:
    """``volley show ... | head``: the reader closing the pipe early is not an error worth a traceback."""
    try:
        yield
        sys.stdout.flush()
    except BrokenPipeError:
        # Point stdout at /dev/null so the interpreter's own flush at exit does not fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def cmd_sessions(args: argparse.Namespace) -> int:
    from bridge.cli.sessions import list_sessions, print_sessions, skipped_files

    directory = sessions_dir(data_dir(args.data_dir))
    for note in skipped_files(directory):
        print(f"volley sessions: {inert(note)}", file=sys.stderr)
    with _reader_may_leave():
        print_sessions(list_sessions(directory), inert_output(sys.stdout))
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    from bridge.cli.sessions import find_session, print_session
    from bridge.store.reader import SessionReader

    try:
        path = find_session(args.session, sessions_dir(data_dir(args.data_dir)))
    except LookupError as error:
        print(f"volley show: {inert(str(error))}", file=sys.stderr)
        return EXIT_USAGE
    log = SessionReader(path)  # read as it is printed: memory stays flat in the journal's size
    if log.header is None and log.empty():
        print(
            f"volley show: {inert(str(path))} is not a Volley session journal (no header line)",
            file=sys.stderr,
        )
        return EXIT_USAGE
    from bridge.cli.card_text import INCOMPLETE
    from bridge.i18n import Catalogue

    # Names and texts from the journal are shown escaped, never acted on by the terminal.
    catalogue = inert_catalogue(Catalogue.load(args.lang))
    incomplete: list[str] = []
    with _reader_may_leave():
        incomplete = print_session(log, inert_output(sys.stdout), catalogue)
    log.close()
    if incomplete:
        shown = catalogue.render(INCOMPLETE(count=len(incomplete), ids=incomplete))
        print(f"volley show: {shown}", file=sys.stderr)
    return EXIT_MISMATCH if incomplete or log.problems else 0


def cmd_replay(args: argparse.Namespace) -> int:
    from bridge.cli.replay import replay_session
    from bridge.cli.replay_report import print_report
    from bridge.cli.replay_wire import replay_against
    from bridge.cli.sessions import find_session

    try:
        path = find_session(args.session, sessions_dir(data_dir(args.data_dir)))
    except LookupError as error:
        print(f"volley replay: {inert(str(error))}", file=sys.stderr)
        return EXIT_USAGE
    progress: bool | None = args.progress
    if args.against:
        import asyncio  # only replay over the wire needs an event loop and the server's token

        from bridge.server.access import find_token

        try:
            found = find_token(config_dir(args.config_dir), args.token)
        except OSError:
            found = None
        if found is None:
            print(
                "volley replay: --against needs the server's token (--token or VOLLEY_TOKEN)", file=sys.stderr
            )
            return EXIT_USAGE
        try:
            report = asyncio.run(
                replay_against(path, args.against, found.value, progress=progress, keep=args.max_differences)
            )
        except (OSError, ConnectionError) as error:
            print(f"volley replay: cannot reach {args.against}: {error}", file=sys.stderr)
            return EXIT_USAGE
    else:
        report = replay_session(path, progress=progress, keep=args.max_differences)
    with _reader_may_leave():
        print_report(report, inert_output(sys.stdout), max_differences=args.max_differences)
    return 0 if report.ok else EXIT_MISMATCH


def register(commands: Any) -> None:
    """Add ``serve``, ``sessions``, ``show`` and ``replay`` to ``volley``'s subcommands."""
    serve = commands.add_parser("serve", help="run the websocket bridge the VTT module talks to")
    serve.add_argument("--host", default=DEFAULT_HOST, help=f"address to listen on (default {DEFAULT_HOST})")
    serve.add_argument(
        "--port", type=port_number, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT}; 0 = any)"
    )
    serve.add_argument(
        "--allow-remote",
        action="store_true",
        help="allow a non-loopback --host and any Host header (needs --tls-cert/--tls-key, or --insecure)",
    )
    serve.add_argument(
        "--tls-cert", type=Path, default=None, metavar="PEM", help="serve wss:// with this certificate chain"
    )
    serve.add_argument(
        "--tls-key", type=Path, default=None, metavar="PEM", help="the private key of --tls-cert"
    )
    serve.add_argument(
        "--insecure",
        action="store_true",
        help="with --allow-remote: serve plain ws:// to the network (the token crosses it in clear text)",
    )
    serve.add_argument(
        "--allow-origin",
        type=_origin,
        action="append",
        default=[],
        metavar="ORIGIN",
        help="only browser pages from this origin may open the websocket, e.g. http://localhost:30000 "
        "(repeatable; default: any origin)",
    )
    serve.add_argument(
        "--max-connections",
        type=int,
        default=None,
        metavar="N",
        help="sockets open at once, at most 64 of them not yet authenticated (default 256)",
    )
    serve.add_argument(
        "--token", default=None, help="access token to require (default: $VOLLEY_TOKEN, else saved)"
    )
    add_config_dir(serve)
    add_data_dir(serve)
    serve.add_argument(
        "--allow-scripted-dice",
        action="store_true",
        help="accept requests that bring their own dice (tests and replays only)",
    )
    serve.add_argument(
        "--seed-base",
        type=int,
        default=None,
        help="draw seeds N, N+1, ... instead of random ones (for recording reproducible sessions)",
    )
    serve.add_argument(
        "--rate",
        type=_rate,
        default=RATE,
        help=f"messages/s allowed per relayed player (default {RATE:g}; a connection: {TABLE_SHARE}x that)",
    )
    serve.add_argument(
        "--burst", type=_burst, default=BURST, help=f"burst allowed per relayed player (default {BURST})"
    )
    serve.add_argument(
        "--pending-expiry",
        type=_seconds,
        default=PENDING_EXPIRY,
        metavar="SECONDS",
        help=f"how long a two-step attack waits for its allocate (default {PENDING_EXPIRY:g} s)",
    )
    serve.add_argument("--log-level", default="info", choices=["debug", "info", "warning", "error"])
    serve.set_defaults(run=cmd_serve)

    sessions = commands.add_parser("sessions", help="list recorded sessions (date, requests, systems)")
    add_data_dir(sessions)
    sessions.set_defaults(run=cmd_sessions)

    show = commands.add_parser(
        "show", help="print a readable log of one session (exit 1 if an entry could not be shown in full)"
    )
    show.add_argument("session", help="session name (or a unique prefix), or a path to its .jsonl")
    add_data_dir(show)
    add_language(show)
    show.set_defaults(run=cmd_show)

    replay = commands.add_parser("replay", help="re-resolve a session and compare every result")
    replay.add_argument("session", help="a .jsonl journal, or a session name in the data directory")
    add_data_dir(replay)
    replay.add_argument(
        "--against", metavar="URL", default=None, help="replay over the wire, e.g. ws://127.0.0.1:8765/ws"
    )
    replay.add_argument(
        "--token", default=None, help="token for --against (default: $VOLLEY_TOKEN, else saved)"
    )
    add_config_dir(replay, "where the saved token is (for --against)")
    replay.add_argument("--max-differences", type=int, default=10, help="how many differences to print")
    replay.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="progress bar on stderr (default: for long logs on a terminal)",
    )
    replay.set_defaults(run=cmd_replay)
