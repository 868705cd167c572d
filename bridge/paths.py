"""Where the bridge keeps its access token and its session journals (XDG base directories).

The token is configuration (``$XDG_CONFIG_HOME/volley/token``); the journals are data the referee may
want to keep for years (``$XDG_DATA_HOME/volley/sessions/``). Both roots can be overridden on the
command line, which is how the tests keep to temporary directories.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["config_dir", "data_dir", "sessions_dir"]

APP = "volley"


def _xdg(variable: str, fallback: str) -> Path:
    value = os.environ.get(variable, "")
    # The XDG spec says a relative value is invalid and must be ignored.
    if value and os.path.isabs(value):
        return Path(value)
    return Path.home() / fallback


def config_dir(override: str | os.PathLike[str] | None = None) -> Path:
    """The directory holding ``token`` (``--config-dir`` wins over ``$XDG_CONFIG_HOME/volley``)."""
    if override is not None:
        return Path(override)
    return _xdg("XDG_CONFIG_HOME", ".config") / APP


def data_dir(override: str | os.PathLike[str] | None = None) -> Path:
    """The bridge's data root (``--data-dir`` wins over ``$XDG_DATA_HOME/volley``)."""
    if override is not None:
        return Path(override)
    return _xdg("XDG_DATA_HOME", ".local/share") / APP


def sessions_dir(root: Path) -> Path:
    """One journal file per session lives here."""
    return root / "sessions"
