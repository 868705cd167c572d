"""The d100 system of seed 004: Dark Heresy 2e / Only War family with the seed's house rules.

Roll-under d100 tests counted in degrees; single shots, short, long and wide bursts, suppressing fire
and overwatch; jams by reliability, spoiled rounds and their recovery; suppression as real token state;
hit locations, cover that wears down, and blasts that scatter. ``docs/rules/d100.md`` lists every
reading Volley chose where the seed is silent.
"""

from __future__ import annotations

from rules.d100.actions import resolve
from rules.d100.messages import MESSAGES
from rules.d100.odds import d100_odds, d100_odds_cost
from rules.d100.requests import D100Request
from rules.d100.results import D100Result
from rules.d100.table_rules import TABLE_RULES
from rules.system import RuleSystem

__all__ = ["SYSTEM", "D100Request", "D100Result", "resolve"]


SYSTEM = RuleSystem(
    name="d100",
    title="d100 (seed 004: Dark Heresy 2e / Only War family)",
    request_type=D100Request,
    result_types=(D100Result,),
    default_action="attack",
    resolve=resolve,
    odds=d100_odds,
    odds_cost=d100_odds_cost,
    messages=MESSAGES,
    table_rules=TABLE_RULES,
)
