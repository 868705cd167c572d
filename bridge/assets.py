"""Files the bridge serves or reads that are not Python: the Foundry module and its message catalogues.

Every path goes through here so that an installed wheel and a repository checkout find them the same
way. (Stub: resolves to the checkout until the wheel's package data takes over; see issue 13.)
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["module_dir"]


def module_dir() -> Path:
    """The Foundry module's folder (``module.json``, ``scripts/``, ``lang/``, ``templates/``...)."""
    return Path(__file__).resolve().parents[1] / "vtt_module"
