"""The report's tests' sessions: the recorded replays (``tests/replays``, real bridge journals of every
system) and the synthetic skirmishes ``devkit.sessions`` plays out, shared with
``scripts/bench_report.py``."""

from __future__ import annotations

from pathlib import Path

from devkit.sessions import write_session

__all__ = ["REPLAYS", "write_session"]

#: The recorded sessions (``tests/replays``), real bridge journals of every system.
REPLAYS = sorted((Path(__file__).resolve().parents[1] / "replays").glob("*.jsonl"))
