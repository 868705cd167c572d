"""The ``volley`` command line: the parser and the one-shot rules commands (``program``), the server's
commands (``commands``: serve, sessions, show, replay), reading journals back for people (``sessions``,
``replay`` with ``differences``, ``replay_report`` and ``replay_wire``; ``progress``'s bar), cards and
results as terminal text (``card_text``) and text a terminal shows but cannot act on (``inert``).
``main`` is the ``volley`` program's entry point (``pyproject.toml``)."""

from __future__ import annotations

from bridge.cli.program import main

__all__ = ["main"]
