"""The generated dialog walk (issue #31): a system's real attack dialog, on the referee's sandbox page,
driven through seeded random states and clicks by ``dialog_walker.js`` (beside this file).

Used by tests/browser/test_dialog_walk.py (a short seeded run) and ``scripts/bookkeeping_soak.py --walk``
(long ones).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from devkit.browser import BUDGET_S, ms

WALKER = (Path(__file__).parent / "dialog_walker.js").read_text(encoding="utf-8")

#: Per system: the sandbox scene's shooter and the other tokens on it.
SHOOTERS = {
    "gurps": ("tokHale000000001", ["tokRaider0000002", "tokLookout000003", "tokSentry0000004"]),
    "megatraveller": (
        "tokKira000000001",
        ["tokVargr00000002", "tokVargr00000003", "tokVargr00000004", "tokDace000000005"],
    ),
    "d100": ("tokVex0000000001", ["tokHeretic0000002", "tokCultist0000003", "tokDemagogue00004"]),
}


def walk(page: Any, system: str, seed: int, steps: int) -> dict[str, Any]:
    """Walk ``system``'s dialog for ``steps`` random steps from ``seed``: what the walker found."""
    shooter, others = SHOOTERS[system]
    page.set_default_timeout(ms(BUDGET_S * 10))
    outcome: dict[str, Any] = page.evaluate(
        WALKER, {"seed": seed, "steps": steps, "shooter": shooter, "others": others, "system": system}
    )
    return outcome
