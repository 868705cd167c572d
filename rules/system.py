"""What a rule system plugs into the core: its request union and two pure functions.

Each system package (``rules.gurps``, ``rules.megatraveller``, ``rules.d100``) exposes one ``SYSTEM``.
Its ``request_type`` is a union of ``msgspec.Struct`` types tagged on ``action``; a request that names
no action gets ``default_action``. ``title`` is the name English error messages use; players see the
system under its localised title (``common.system.<name>``, see ``bridge/card.py``). ``messages`` is
every message the system can emit (``rules.messages``), so the catalogues can be checked against it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rules.dice import Dice
from rules.messages import Vocabulary
from rules.results import Odds, Result

__all__ = ["RuleSystem"]


@dataclass(frozen=True)
class RuleSystem:
    name: str
    title: str
    request_type: Any
    result_types: tuple[type[Result], ...]
    default_action: str
    resolve: Callable[[Any, Dice], Result]
    odds: Callable[[Any], Odds]
    #: Fill the system's caches for typical requests, so the first live preview of a session is as fast
    #: as the rest. Optional; the bridge calls it in the background when it starts.
    warm_up: Callable[[], None] | None = None
    #: Every message key the system can put in a result (log lines, roll purposes, card words).
    messages: Vocabulary | None = None
