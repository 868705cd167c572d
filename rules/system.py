"""What a rule system plugs into the core: its request union and two pure functions.

Each system package (``rules.gurps``, ``rules.megatraveller``, ``rules.d100``) exposes one ``SYSTEM``.
Its ``request_type`` is a union of ``msgspec.Struct`` types tagged on ``action``; a request that names
no action gets ``default_action``. ``title`` is the name English error messages use; players see the
system under its localised title (``common.system.<name>``, see ``bridge/card.py``). ``messages`` is
every message the system can emit (``rules.messages``), so the catalogues can be checked against it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import msgspec

if TYPE_CHECKING:
    from rules.dice import Dice
    from rules.messages import Vocabulary
    from rules.results import Odds, Result

__all__ = ["RuleSystem"]


class RuleSystem(msgspec.Struct, frozen=True, kw_only=True):
    """One rule system as the registry sees it (a Struct, not a dataclass: cheaper to define, and
    every command that loads a system pays for its definition at start-up)."""

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
    #: About how many milliseconds ``odds(request)`` would take in this process now, memoised tables
    #: counted. The bridge computes odds estimated above a millisecond in a worker process, so a cold
    #: preview never stalls other clients. Optional: a system without one is taken to be cheap.
    odds_cost: Callable[[Any], float] | None = None
    #: The readings a table may choose instead of Volley's (``rules.table_rules.Reading``): what the
    #: module's Table rules menu offers and what a card lists when a request changes them.
    table_rules: tuple[Any, ...] = ()
