"""MegaTraveller under the Rules for Combat System (RCS): targetting and firing, all five fire modes.

``SYSTEM`` plugs it into the registry. Firing actions go through :mod:`.attack` (and :mod:`.odds` for
the odds); the weapon-handling actions (draw, unsling, ready, select_mode, retarget, reload) through
:mod:`.readiness`. Readings where the RCS text is silent are named constants in the modules and are
listed in ``docs/rules/megatraveller.md``.
"""

from __future__ import annotations

from typing import Any

from rules.dice import Dice
from rules.megatraveller.attack import resolve_fire
from rules.megatraveller.messages import MESSAGES
from rules.megatraveller.odds import fire_odds, odds_cost, warm_up
from rules.megatraveller.readiness import handle
from rules.megatraveller.requests import FireFields, HandlingFields, MegaTravellerRequest
from rules.megatraveller.results import MegaTravellerResult
from rules.megatraveller.table_rules import TABLE_RULES
from rules.results import Odds, Result
from rules.system import RuleSystem

__all__ = ["SYSTEM", "odds", "resolve"]


def resolve(request: Any, dice: Dice) -> Result:
    """Resolve one MegaTraveller request with ``dice``."""
    if isinstance(request, FireFields):
        return resolve_fire(request, dice)
    if isinstance(request, HandlingFields):
        return handle(request)
    raise TypeError(f"not a MegaTraveller request: {type(request).__name__}")


def odds(request: Any) -> Odds:
    """Exact hit odds of a firing action; handling actions hit nobody, so their odds are empty.

    A handling action is still checked (it rolls no dice), so ``odds`` refuses what ``roll`` refuses.
    """
    if isinstance(request, FireFields):
        return fire_odds(request)
    if isinstance(request, HandlingFields):
        handle(request)
    return Odds(targets=[], jam=0.0)


def estimated_odds_cost(request: Any) -> float:
    """About how many milliseconds :func:`odds` would take now (a cold automatic-fire split is slow)."""
    return odds_cost(request) if isinstance(request, FireFields) else 0.0


SYSTEM = RuleSystem(
    name="megatraveller",
    title="MegaTraveller (Rules for Combat System)",
    request_type=MegaTravellerRequest,
    result_types=(MegaTravellerResult,),
    default_action="fire",
    resolve=resolve,
    odds=odds,
    warm_up=warm_up,
    odds_cost=estimated_odds_cost,
    messages=MESSAGES,
    table_rules=TABLE_RULES,
)
