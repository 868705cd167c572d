"""Volley's rules engine: pure functions from a request and dice to a result.

No I/O, no clock, no global random: dice come in as an argument and every face used comes back in the
result. Entry points:

* ``decode_request(data)`` — JSON text, bytes or an already-parsed object to a typed request (a field
  the request type does not declare is refused; ``lenient=True`` drops it, for old journals);
* ``resolve(request, dice)`` — roll it;
* ``odds(request)`` — the exact probability of every outcome (``odds_cost(request)``: about how long
  that would take now, so a server can send expensive ones to a worker process);
* ``dice_for(request, seed)`` — scripted dice when the request carries ``"dice"``, else seeded dice.

``rules.odds`` is the function above; the distribution helpers live in the module of the same name and
are imported by name (``from rules.odds import dice_sum``).
"""

from __future__ import annotations

# The distributions module first: importing a submodule binds it as an attribute of the package, so
# ``rules.odds`` must be imported before the function of the same name is bound below (systems are
# imported lazily, after this file has run).
import rules.odds as _distributions  # noqa: F401
from rules.errors import RuleError
from rules.registry import (
    SYSTEMS,
    decode_request,
    dice_for,
    drop_unknown_fields,
    odds,
    odds_cost,
    request_schema,
    resolve,
    warm_up,
)

__all__ = [
    "SYSTEMS",
    "RuleError",
    "decode_request",
    "dice_for",
    "drop_unknown_fields",
    "odds",
    "odds_cost",
    "request_schema",
    "resolve",
    "warm_up",
]

__version__ = "0.1.0"
