"""Where the bridge keeps its access token and its session journals, on Linux, macOS and Windows.

The token is configuration, the journals are data the referee may want to keep for years. Each
operating system has its own place for both, and ``platformdirs`` knows them:

=========  ==================================================  =====================================
system     token (config)                                      journals (data)
=========  ==================================================  =====================================
Linux      ``$XDG_CONFIG_HOME/volley`` or ``~/.config/volley``  ``$XDG_DATA_HOME/volley/sessions`` or
                                                               ``~/.local/share/volley/sessions``
macOS      ``~/Library/Application Support/volley``             the same folder, ``sessions/``
Windows    ``%LOCALAPPDATA%\\volley``                           the same folder, ``sessions\\``
=========  ==================================================  =====================================

On Linux these are the XDG directories the bridge has always used (a relative ``$XDG_*`` value is
ignored, as the XDG spec asks), so an upgrade finds the journals already written. Not roaming on
Windows: journals stay on the machine that rolled them. ``--config-dir`` and ``--data-dir`` win over
all of this, which is how the tests keep to temporary directories.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

import platformdirs
from platformdirs.api import PlatformDirsABC

if TYPE_CHECKING:
    import argparse

__all__ = [
    "APP",
    "O_BINARY",
    "add_config_dir",
    "add_data_dir",
    "config_dir",
    "data_dir",
    "sessions_dir",
    "user_dirs",
]

APP = "volley"
#: For ``os.open``: binary mode on Windows (else the C runtime writes every newline as CR LF); 0
#: elsewhere. Every file the bridge opens by descriptor (journal, token, lock) is opened with it.
O_BINARY: int = getattr(os, "O_BINARY", 0)


def user_dirs() -> PlatformDirsABC:
    """This operating system's per-user folders for Volley (no vendor folder, no version folder)."""
    return platformdirs.PlatformDirs(APP, appauthor=False, roaming=False)


def config_dir(override: str | os.PathLike[str] | None = None) -> Path:
    """The directory holding ``token`` (``--config-dir`` wins over the system's config folder)."""
    if override is not None:
        return Path(override)
    return Path(user_dirs().user_config_dir)


def data_dir(override: str | os.PathLike[str] | None = None) -> Path:
    """The bridge's data root (``--data-dir`` wins over the system's data folder)."""
    if override is not None:
        return Path(override)
    return Path(user_dirs().user_data_dir)


def sessions_dir(root: Path) -> Path:
    """One journal file per session lives here."""
    return root / "sessions"


def add_data_dir(parser: argparse.ArgumentParser) -> None:
    """The ``--data-dir`` option of every command that reads or writes sessions."""
    shown = _shown(data_dir())
    parser.add_argument("--data-dir", default=None, help=f"where sessions are kept (default: {shown})")


def add_config_dir(parser: argparse.ArgumentParser, help: str = "where the token is kept") -> None:
    """The ``--config-dir`` option of every command that reads the token."""
    parser.add_argument("--config-dir", default=None, help=f"{help} (default: {_shown(config_dir())})")


def _shown(path: Path) -> str:
    """A path in an option's help, which argparse %-formats."""
    return str(path).replace("%", "%%")
