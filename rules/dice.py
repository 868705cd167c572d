"""Dice are passed in, never global (d20's ``rand.py`` lesson), and every face is recorded.

* ``SeededDice(seed)`` — the same seed gives the same faces on every machine and every Python
  version: a SplitMix64 generator with rejection sampling, written out here rather than borrowed from
  ``random`` so that a recorded session replays identically years from now.
* ``ScriptedDice(faces)`` — faces consumed in the order the rule text rolls them, for tests, worked
  examples and replays. Running out, or a face a die cannot show, is a ``RuleError``.

Both record each die as a ``Roll`` with what it was rolled for (a :class:`~rules.results.Message`, so
the table reads it in its own language); the result carries that list.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence

from rules import errors
from rules.errors import RuleError
from rules.results import Message, Roll

__all__ = ["MAX_DICE_PER_REQUEST", "Dice", "ScriptedDice", "SeededDice"]

#: A guard against requests that would roll without end (a typo'd "3000d6"): no resolution may roll more.
MAX_DICE_PER_REQUEST = 10_000

_MASK64 = (1 << 64) - 1


class Dice(ABC):
    """A source of die faces that records every face it gives out."""

    def __init__(self) -> None:
        self.rolls: list[Roll] = []

    def d(self, sides: int, purpose: Message) -> int:
        """Roll one die with ``sides`` faces (1..sides) for ``purpose``."""
        if sides < 1:
            raise ValueError(f"a die needs at least one side, not {sides}")
        if len(self.rolls) >= MAX_DICE_PER_REQUEST:
            raise RuleError("$", errors.TOO_MANY_DICE(most=MAX_DICE_PER_REQUEST), code="dice")
        face = self._face(sides, purpose)
        self.rolls.append(Roll(die=sides, face=face, purpose=purpose))
        return face

    def roll(self, count: int, sides: int, purpose: Message) -> list[int]:
        """Roll ``count`` dice and return each face, in order."""
        return [self.d(sides, purpose) for _ in range(count)]

    def total(self, count: int, sides: int, purpose: Message) -> int:
        """Roll ``count`` dice and return their sum (``3d6`` is ``total(3, 6, ...)``)."""
        rolled = 0
        for _ in range(count):
            rolled += self.d(sides, purpose)
        return rolled

    def finish(self) -> None:  # noqa: B027 - a hook with nothing to do for most dice
        """Called once a resolution is complete; scripted dice check nothing was left over."""

    @abstractmethod
    def _face(self, sides: int, purpose: Message) -> int: ...


class SeededDice(Dice):
    """Reproducible dice: SplitMix64 (Steele, Lea & Flood 2014) with unbiased rejection sampling."""

    def __init__(self, seed: int) -> None:
        super().__init__()
        self.seed = seed
        self._state = seed & _MASK64

    def _next64(self) -> int:
        self._state = (self._state + 0x9E3779B97F4A7C15) & _MASK64
        z = self._state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def total(self, count: int, sides: int, purpose: Message) -> int:
        # Every attack's rolls come through here: the dice are drawn in one call and recorded together
        # (the same faces, in the same order, as ``d`` one by one). A subclass with faces of its own
        # (the tests' loaded dice), a bad die, or a roll that would pass the guard goes die by die, so
        # each refusal is the same as ever.
        # The generator is written out once more here (as in ``_faces``), each face recorded as it is
        # drawn: no list of faces, no second pass to record them and a third to sum them.
        rolls = self.rolls
        if type(self) is not SeededDice or sides < 1 or len(rolls) + count > MAX_DICE_PER_REQUEST:
            return super().total(count, sides, purpose)
        limit = _LIMITS.get(sides)
        if limit is None:
            limit = (1 << 64) - ((1 << 64) % sides)
        record = rolls.append
        state = self._state
        rolled = 0
        for _ in range(count):
            while True:
                state = z = (state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
                z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
                value = z ^ (z >> 31)
                if value < limit:
                    break
            face = value % sides + 1
            record(Roll(sides, face, purpose))
            rolled += face
        self._state = state
        return rolled

    def _face(self, sides: int, purpose: Message) -> int:
        return self._faces(1, sides)[0]

    def _faces(self, count: int, sides: int) -> list[int]:
        """``count`` faces of a die with ``sides``: ``_next64`` written out (this is every die of every
        attack), rejecting the top sliver of the 64-bit range that would favour low faces."""
        limit = _LIMITS.get(sides)
        if limit is None:
            limit = (1 << 64) - ((1 << 64) % sides)
        state = self._state
        faces = []
        for _ in range(count):
            while True:
                state = z = (state + 0x9E3779B97F4A7C15) & _MASK64
                z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
                value = z ^ (z >> 31)
                if value < limit:
                    break
            faces.append(value % sides + 1)
        self._state = state
        return faces


#: The rejection limit of the dice the systems roll, worked out once.
_LIMITS = {sides: (1 << 64) - ((1 << 64) % sides) for sides in (2, 3, 4, 5, 6, 8, 10, 12, 20, 100)}


class ScriptedDice(Dice):
    """Faces given in advance, consumed in order; ``finish`` refuses faces left unused."""

    def __init__(self, faces: Iterable[int], *, path: str = "$.dice") -> None:
        super().__init__()
        self.faces: Sequence[int] = list(faces)
        self.path = path
        self._next = 0

    def _face(self, sides: int, purpose: Message) -> int:
        if self._next >= len(self.faces):
            refusal = errors.DICE_RAN_OUT(sides=sides, purpose=purpose, faces=len(self.faces))
            raise RuleError(self.path, refusal, code="dice")
        face = self.faces[self._next]
        if not 1 <= face <= sides:
            refusal = errors.IMPOSSIBLE_FACE(face=face, sides=sides, purpose=purpose)
            raise RuleError(f"{self.path}[{self._next}]", refusal, code="dice")
        self._next += 1
        return face

    @property
    def remaining(self) -> int:
        return len(self.faces) - self._next

    def finish(self) -> None:
        if self.remaining:
            refusal = errors.FACES_LEFT(left=self.remaining, rolled=self._next)
            raise RuleError(self.path, refusal, code="dice")
