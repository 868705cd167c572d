"""GURPS 4th edition rapid fire: attack (seed 001, B373), reload and unjam (B407).

``SYSTEM`` is what the registry plugs in. Decisions where the seed is silent are in docs/rules/gurps.md.
"""

from __future__ import annotations

from typing import Any

from rules.dice import Dice
from rules.gurps.attack import resolve_attack
from rules.gurps.messages import MESSAGES
from rules.gurps.odds import attack_odds, attack_odds_cost
from rules.gurps.reload import reload_odds, resolve_reload
from rules.gurps.requests import AttackRequest, GurpsRequest, ReloadRequest, UnjamRequest
from rules.gurps.results import AttackResult, ReloadResult, UnjamResult
from rules.gurps.table_rules import TABLE_RULES
from rules.gurps.unjam import resolve_unjam, unjam_odds
from rules.results import Odds, Result
from rules.system import RuleSystem

__all__ = ["SYSTEM"]


def resolve(request: Any, dice: Dice) -> Result:
    match request:
        case AttackRequest():
            return resolve_attack(request, dice)
        case ReloadRequest():
            return resolve_reload(request, dice)
        case UnjamRequest():
            return resolve_unjam(request, dice)
    raise TypeError(f"not a GURPS request: {type(request).__name__}")


def odds(request: Any) -> Odds:
    match request:
        case AttackRequest():
            return attack_odds(request)
        case ReloadRequest():
            return reload_odds(request)
        case UnjamRequest():
            return unjam_odds(request)
    raise TypeError(f"not a GURPS request: {type(request).__name__}")


def odds_cost(request: Any) -> float:
    """Only an attack's preview can be costly (many projectiles, many dodging targets)."""
    return attack_odds_cost(request) if isinstance(request, AttackRequest) else 0.05


SYSTEM = RuleSystem(
    name="gurps",
    title="GURPS 4e rapid fire",
    request_type=GurpsRequest,
    result_types=(AttackResult, ReloadResult, UnjamResult),
    default_action="attack",
    resolve=resolve,
    odds=odds,
    odds_cost=odds_cost,
    messages=MESSAGES,
    table_rules=TABLE_RULES,
)
