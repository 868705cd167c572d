"""``volley`` run in the test's own process: the same ``main`` the command runs, without a new
interpreter per call, its standard input given as text and its output read from ``capsys``."""

from __future__ import annotations

import io
import sys

import pytest

from bridge.cli import main

__all__ = ["run_volley"]


def run_volley(args: list[str], capsys: pytest.CaptureFixture[str], stdin: str = "") -> tuple[int, str, str]:
    """``volley ARGS < stdin``: (exit code, stdout, stderr)."""
    old = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin.encode()))
    try:
        code = main(args)
    finally:
        sys.stdin = old
    out, err = capsys.readouterr()
    return code, out, err
