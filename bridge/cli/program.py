"""The ``volley`` command line.

``roll``, ``odds`` and ``schema`` are a contract other test-suites rely on:

* ``volley roll [FILE] [--seed N] [--repeat K]`` — one request as JSON from FILE (stdin when FILE is
  absent or ``-``), one result as JSON per line;
  with ``--repeat K`` the seeds run N, N+1, ..., N+K-1. Scripted dice come in the request (``"dice"``).
  ``--text [--lang en|ru]`` prints each result for people instead: the chat card and every die, in
  the language asked for (default: the locale's).
* ``volley odds [FILE]`` — one request from FILE (stdin when absent or ``-``),
  ``{"targets": [{"id", "hits": [p0, p1, ...]}], "jam": p}``.
* ``volley schema`` — the JSON Schema of every request and result.

Bad JSON or an invalid request exits with code 2 and one line on stderr naming the field and the rule.

Start-up time matters here (``volley odds`` runs once per request in scripts), so this module imports
almost nothing at the top: each command imports what it needs, the rules engine loads just the
request's system, and a command given without options runs without building the argument parser.
Run as the ``volley`` program, a one-shot command (``odds``, ``schema``, ``roll``) also skips what only
a long-lived process needs: the cyclic garbage collector while it imports and answers (its few
thousand objects are freed with the process), and the interpreter's teardown, which spends longer
taking msgspec and ``typing`` apart than ``volley odds`` spends computing (output is flushed first).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    import argparse

    from rules.errors import RuleError

__all__ = ["main"]

EXIT_USAGE = 2

Command = Callable[["argparse.Namespace"], int]


def _read_request(source: str | None = None) -> Any:
    """The request in ``source`` (a file's path; stdin when it is None or ``-``)."""
    import rules
    from rules import errors
    from rules.errors import RuleError

    data = sys.stdin.buffer.read() if source in (None, "-") else _read_file(str(source))
    if not data.strip():
        raise RuleError("$", errors.NO_REQUEST(), code="json")
    return rules.decode_request(data)


def _read_file(path: str) -> bytes:
    """A request file's bytes; one that cannot be read (missing, a folder, no access) is refused as a
    bad request is, naming the file, and nothing is rolled."""
    from rules import errors
    from rules.errors import RuleError

    try:
        with open(path, "rb") as stream:
            return stream.read()
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise RuleError("$", errors.UNREADABLE_FILE(file=path, reason=reason), code="json") from None


def _write_json(obj: object) -> None:
    import msgspec

    sys.stdout.buffer.write(msgspec.json.encode(obj) + b"\n")
    sys.stdout.flush()


def cmd_roll(args: argparse.Namespace) -> int:
    import secrets

    import rules

    request = _read_request(args.file)
    seed: int = args.seed if args.seed is not None else secrets.randbits(63)
    # Resolve every repetition before printing any: a rule error on one roll must not leave half the output.
    results = [rules.resolve(request, rules.dice_for(request, seed + k)) for k in range(args.repeat)]
    if args.text:
        _write_text(request, results, args.lang)
        return 0
    for result in results:
        _write_json(result)
    return 0


def _write_text(request: object, results: Sequence[object], language: str) -> None:
    """Each result as the chat card would say it, then its dice; a blank line between repetitions."""
    import msgspec

    import rules
    from bridge.card import build_card
    from bridge.cli.card_text import card_lines, dice_lines
    from bridge.cli.inert import inert_catalogue, inert_output
    from bridge.i18n import Catalogue

    catalogue = inert_catalogue(Catalogue.load(language))  # names from the request are shown escaped
    sent = msgspec.to_builtins(request)
    system = rules.SYSTEMS[str(getattr(request, "system", ""))]
    blocks = []
    for result in results:
        card = msgspec.to_builtins(build_card(sent, result, default_action=system.default_action))
        lines = card_lines(catalogue, card, [], system=system.name)
        lines += dice_lines(catalogue, getattr(result, "rolls", []))
        blocks.append("\n".join(line.removeprefix("  ") for line in lines))
    out = inert_output(sys.stdout)
    out.write("\n\n".join(blocks) + "\n")
    out.flush()


def cmd_odds(args: argparse.Namespace) -> int:
    import rules

    _write_json(rules.odds(_read_request(getattr(args, "file", None))))
    return 0


def cmd_schema(args: argparse.Namespace) -> int:
    import msgspec

    import rules

    sys.stdout.buffer.write(
        msgspec.json.format(msgspec.json.encode(rules.request_schema()), indent=2) + b"\n"
    )
    return 0


def _positive(text: str) -> int:
    import argparse

    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def _add_file(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "file", nargs="?", default=None, metavar="FILE", help="the request as JSON (default, or -: stdin)"
    )


def build_parser() -> argparse.ArgumentParser:
    import argparse

    from bridge.i18n import add_language

    parser = argparse.ArgumentParser(
        prog="volley", description="Rate-of-fire automation for tabletop shooters."
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    roll = commands.add_parser(
        "roll", help="resolve one request (a file, or stdin); print the result as JSON"
    )
    _add_file(roll)
    roll.add_argument("--seed", type=int, default=None, help="seed for the dice (default: random)")
    roll.add_argument("--repeat", type=_positive, default=1, help="roll K times with seeds N..N+K-1")
    roll.add_argument("--text", action="store_true", help="print the result as readable text, not JSON")
    add_language(roll, "text and of a refusal")
    roll.set_defaults(run=cmd_roll)

    odds = commands.add_parser(
        "odds", help="print the exact odds of every outcome of a request (a file, or stdin)"
    )
    _add_file(odds)
    add_language(odds, "refusal of a bad request")
    odds.set_defaults(run=cmd_odds)

    schema = commands.add_parser("schema", help="print the JSON Schema of every request and result")
    schema.set_defaults(run=cmd_schema)

    _add_bridge_commands(commands)
    _add_module_commands(parser, commands)
    return parser


def _add_bridge_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The server's own commands (serve, sessions, show, replay) live in ``bridge.cli.commands``; the
    session report in ``bridge.report.command``; the sandbox page (``volley sandbox``) in
    ``bridge.module.sandbox``."""
    from bridge.cli import commands as bridge_commands
    from bridge.module import sandbox
    from bridge.report import command as report_command

    bridge_commands.register(commands)
    report_command.register(commands)
    sandbox.register(commands)


def _add_module_commands(
    parser: argparse.ArgumentParser, commands: argparse._SubParsersAction[argparse.ArgumentParser]
) -> None:
    """``--version`` and ``module-path`` live in ``bridge.module.commands``."""
    from bridge.module import commands as module_commands

    module_commands.register(parser, commands)


#: Commands that take no options at all: when one is given alone there is nothing to parse, so it runs
#: without building the parser and its subcommands (about a fifth of ``volley odds``'s start-up).
_WITHOUT_OPTIONS: dict[str, Command] = {"odds": cmd_odds, "schema": cmd_schema}


#: Commands that answer once and end: run as the program, they skip the collector and the teardown.
_ONE_SHOT = frozenset({"odds", "schema", "roll"})


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    one_shot = argv is None and bool(words) and words[0] in _ONE_SHOT
    if one_shot:
        import gc

        gc.disable()
    code = _run(words)
    if one_shot:
        _exit_now(code)
    return code


def _refusal_text(error: RuleError, language: str | None) -> str:
    """A refusal in the language asked for (``--lang``, else the locale): its message through the
    catalogue, or the English ``message`` for English and for a refusal that has no message."""
    from bridge.i18n import Catalogue, default_language

    language = language or default_language()
    if error.msg is None or language == "en":
        return error.message
    return Catalogue.load(language).render(error.msg)


def _run(words: list[str]) -> int:
    from rules.errors import RuleError

    if len(words) == 1 and words[0] in _WITHOUT_OPTIONS:
        args = cast(
            "argparse.Namespace", SimpleNamespace(command=words[0], run=_WITHOUT_OPTIONS[words[0]], file=None)
        )
    else:
        args = build_parser().parse_args(words)
    run: Command = args.run
    try:
        return run(args)
    except RuleError as error:
        refusal = _refusal_text(error, getattr(args, "lang", None))
        print(f"volley {args.command}: {error.path}: {refusal}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130


def _exit_now(code: int) -> None:
    """End the process without the interpreter's teardown, once everything written is flushed.

    Only for one-shot commands run as the program (never when ``main`` is called with arguments, as
    tests do): nothing of theirs waits on ``atexit`` or a finaliser. A flush that fails (stdout closed
    early, as ``volley odds | head -c 10`` does) falls back to the ordinary exit and its message.
    """
    import os

    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        return
    os._exit(code)
