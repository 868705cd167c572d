"""Shared helpers for the browser tests (a module name of its own, so it never clashes with another
folder's ``conftest``)."""

from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Bridge:
    """A running ``volley serve``: where to connect, with which token, and where it journals."""

    url: str
    token: str
    data_dir: Path
    process: subprocess.Popen[str]


class Pages:
    """Opens pages in one browser context (so harness tabs share their BroadcastChannel socket) and
    collects every uncaught page error, which the tests assert stays empty."""

    def __init__(self, context: Any) -> None:
        self.context = context
        self.errors: list[str] = []

    def new(self) -> Any:
        page = self.context.new_page()
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.set_default_timeout(15_000)
        return page


@dataclass(frozen=True)
class Table:
    """Everything one browser test needs: the bridge, the harness site and a way to open pages."""

    bridge: Bridge
    site: str
    pages: Pages
