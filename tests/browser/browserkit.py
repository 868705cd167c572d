"""Shared types for the browser tests (a module name of its own, so it never clashes with another
folder's ``conftest``)."""

from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Bridge:
    """A running ``volley serve``: where to connect, with which token, and where it journals."""

    url: str
    token: str
    data_dir: Path
    process: subprocess.Popen[str]
