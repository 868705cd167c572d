"""Ammunition and jams (seed 004, "Ammunition" and "Jams and reliability").

Every attack spends the RoF of its mode (one for a single shot or a throw); a wide burst spends the
full RoF of the burst it widens. Too few rounds loaded is an error and nothing is spent. A jam spoils
twice the mode's RoF from the rounds left in the magazine (Volley's reading: the rounds fired are spent
as usual, the spoilage comes out of what remains and stops at empty). Spoiled rounds wait in
``weapon.spoiled`` until a Trade (Weaponsmith) +10 test wins them back.
"""

from __future__ import annotations

import msgspec

from rules.d100.tables import JAM_SPOIL_FACTOR

__all__ = ["Magazine"]


class Magazine(msgspec.Struct, frozen=True):
    loaded: int
    spoiled: int = 0
    jammed: bool = False

    def fire(self, rounds: int, *, jams: bool) -> tuple[Magazine, int]:
        """The magazine after firing ``rounds``, and how many rounds a jam spoiled."""
        left = self.loaded - rounds
        spoiled = min(JAM_SPOIL_FACTOR * rounds, left) if jams else 0
        return Magazine(left - spoiled, self.spoiled + spoiled, self.jammed or jams), spoiled
