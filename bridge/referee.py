"""The bridge's referee: answers each request once, writes it down, and repeats itself on retries.

For every ``attack``, ``action`` and ``allocate`` the referee

1. returns the journaled reply, byte for byte, if the id was already resolved (in any session: the
   ledger finds its line in the journals);
2. waits for the first copy if the same id is being resolved right now (a retry racing the original);
3. otherwise checks the server's limits, decodes, draws a seed, resolves, journals (fsync) and only
   then hands back the reply bytes.

Nothing here knows a game system; mechanics live in ``rules``. Errors are ``ProtocolError``s that the
connection turns into ``error`` messages.
"""

from __future__ import annotations

import asyncio
import logging
import time
from datetime import UTC, datetime
from typing import Any

import msgspec

import rules
from bridge.expiry import PENDING_EXPIRY, describe_seconds
from bridge.journal import Entry, Journal, JournalError
from bridge.ledger import Ledger, PendingAttack, Settled
from bridge.protocol import (
    Action,
    Allocate,
    Attack,
    Error,
    ErrorCode,
    OddsRequest,
    ProtocolError,
    Undo,
    encode,
)
from bridge.resolution import (
    SeedSource,
    check_limits,
    decode,
    dice_for,
    is_pending,
    odds_of,
    reply_for,
    resolve,
)
from bridge.undo import answer_undo
from bridge.workers import OFFLOAD_MS, RulesWorkers

__all__ = ["Referee"]

log = logging.getLogger("volley.bridge")


def _odds_cost(request: Any) -> float:
    """The rules' estimate; a request the estimate cannot read is cheap (``odds`` will refuse it)."""
    try:
        return rules.odds_cost(request)
    except rules.RuleError:
        return 0.0


class _Clock:
    """UTC timestamps to the millisecond for journal lines (``2026-11-29T19:48:10.408Z``); the part
    up to the second is formatted once per second, not once per request."""

    def __init__(self) -> None:
        self._second = -1
        self._prefix = ""

    def __call__(self) -> str:
        now = time.time()
        second = int(now)
        if second != self._second:
            self._second = second
            self._prefix = datetime.fromtimestamp(second, UTC).strftime("%Y-%m-%dT%H:%M:%S")
        return f"{self._prefix}.{int((now - second) * 1000):03d}Z"


_now = _Clock()


class Referee:
    """Resolves requests for every connection of one server run, and owns its journal and ledger."""

    def __init__(
        self,
        journal: Journal,
        ledger: Ledger,
        *,
        allow_scripted_dice: bool,
        seeds: SeedSource,
        pending_expiry: float = PENDING_EXPIRY,
        workers: RulesWorkers | None = None,
    ) -> None:
        self.journal = journal
        self.ledger = ledger
        self.allow_scripted_dice = allow_scripted_dice
        self.seeds = seeds
        self.pending_expiry = pending_expiry
        self.workers = workers
        self.offloaded = 0
        self.resolved = 0
        self.retries = 0
        self._in_flight: dict[str, asyncio.Future[bytes]] = {}
        self._loop = asyncio.get_running_loop()
        self._claimed: set[str] = set()
        #: request ids an ``undo`` is being journalled for right now (bridge/undo.py)
        self.undoing: set[str] = set()

    async def answer(self, message: Attack | Action | Allocate | OddsRequest | Undo) -> bytes:
        """The reply frame for one request; never raises for a bad request (it becomes an ``error``)."""
        try:
            match message:
                case OddsRequest():
                    return await self._odds(message)
                case Attack() | Action() | Allocate() | Undo():
                    return await self._once(message)
        except ProtocolError as error:
            return encode(Error(id=error.id, code=error.code, message=error.message, path=error.path))
        except Exception:  # a bug in a rules system must not take the connection down
            log.exception("request %s failed", message.id)
            return encode(
                Error(id=message.id, code=ErrorCode.INTERNAL, message="internal error; see the server log")
            )

    async def _odds(self, message: OddsRequest) -> bytes:
        """Odds on the loop when the rules estimate them cheap, else in a rules worker."""
        # Odds roll nothing, so scripted dice are harmless here (and ignored); only the size limit applies.
        check_limits(message.request, allow_scripted_dice=True, id=message.id)
        request = decode(message.request, id=message.id)
        if self.workers is not None and _odds_cost(request) > OFFLOAD_MS:
            outcome = await self.workers.odds(message.id, message.request)
            if outcome is not None:
                self.offloaded += 1
                if outcome[0] == "odds":
                    reply: bytes = outcome[1]
                    return reply
                raise ProtocolError(outcome[1], outcome[2], outcome[3], message.id)
        return odds_of(message.id, request)

    async def _once(self, message: Attack | Action | Allocate | Undo) -> bytes:
        """Idempotency: one resolution per id, whoever asks and however often."""
        done = self.ledger.reply(message.id)
        if done is not None:
            self.retries += 1
            return done
        running = self._in_flight.get(message.id)
        if running is not None:
            self.retries += 1
            return await asyncio.shield(running)
        future: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        self._in_flight[message.id] = future
        try:
            if isinstance(message, Allocate):
                reply = await self._allocate(message)
            elif isinstance(message, Undo):
                reply = await answer_undo(self, message)
            else:
                reply = await self._resolve(message)
        except asyncio.CancelledError:
            future.cancel()
            raise
        except Exception as error:
            # A refusal is not remembered: the same id may be sent again, corrected.
            future.set_exception(error)
            future.exception()  # mark it retrieved; a racing retry still gets it through shield
            raise
        else:
            future.set_result(reply)
            return reply
        finally:
            del self._in_flight[message.id]

    async def _resolve(self, message: Attack | Action) -> bytes:
        check_limits(message.request, allow_scripted_dice=self.allow_scripted_dice, id=message.id)
        request = decode(message.request, id=message.id)
        scripted = getattr(request, "dice", None)
        seed = None if scripted is not None else self.seeds.draw()
        result = resolve(request, dice_for(request, seed), id=message.id)
        return await self._record(
            message, message.request, result=result, seed=seed, dice=scripted, pending_id=None
        )

    async def _allocate(self, message: Allocate) -> bytes:
        """Second step of a two-step attack: same request, same seed, now with the allocation."""
        pending_id = message.pending_id
        pending = self._open_attack(message)
        if pending_id in self._claimed:
            raise ProtocolError(
                ErrorCode.ALREADY_ALLOCATED,
                f"attack {pending_id!r} was already allocated (by another allocate, still in flight)",
                "$.pending_id",
                message.id,
            )
        self._claimed.add(pending_id)
        try:
            if message.allocation is None:
                raise ProtocolError(
                    ErrorCode.INVALID,
                    f"allocation is null; say how the pool of {pending_id!r} is shared out",
                    "$.allocation",
                    message.id,
                )
            request_json: dict[str, Any] = {**pending.request, "allocation": message.allocation}
            keep: tuple[str, ...] = ("$.allocation",)
            if message.dice is not None:
                if not self.allow_scripted_dice:
                    raise ProtocolError(
                        ErrorCode.SCRIPTED_DICE_REFUSED,
                        "scripted dice are refused: this server rolls its own",
                        "$.dice",
                        message.id,
                    )
                request_json["dice"] = message.dice
                keep = ("$.allocation", "$.dice")
            elif pending.seed is None:
                raise ProtocolError(
                    ErrorCode.DICE,
                    f"attack {pending_id!r} was rolled with scripted dice, so its allocate must script "
                    "them too (pool faces first, then the rest)",
                    "$.dice",
                    message.id,
                )
            request = decode(request_json, id=message.id, keep=keep)
            scripted = getattr(request, "dice", None)
            seed = None if scripted is not None else pending.seed
            result = resolve(request, dice_for(request, seed), id=message.id, keep=keep)
            if is_pending(result):  # e.g. "defer" again: an allocate must settle the attack
                raise ProtocolError(
                    ErrorCode.INVALID,
                    f"this allocation defers {pending_id!r} again; an allocate must share out the pool",
                    "$.allocation",
                    message.id,
                )
            return await self._record(
                message, request_json, result=result, seed=seed, dice=scripted, pending_id=pending_id
            )
        finally:
            self._claimed.discard(pending_id)

    def _open_attack(self, message: Allocate) -> PendingAttack:
        """The pending attack an ``allocate`` names, if it is still open and not expired."""
        pending_id = message.pending_id
        found = self.ledger.pending(pending_id)
        if isinstance(found, Settled):
            raise ProtocolError(
                ErrorCode.ALREADY_ALLOCATED,
                f"attack {pending_id!r} was already allocated (by {found.by!r})",
                "$.pending_id",
                message.id,
            )
        if found is None:
            raise ProtocolError(
                ErrorCode.UNKNOWN_PENDING,
                f"no pending attack with id {pending_id!r}",
                "$.pending_id",
                message.id,
            )
        age = None if found.at is None else time.time() - found.at
        if age is None or age > self.pending_expiry:
            rolled = "at an unknown time" if age is None else f"{describe_seconds(age)} ago"
            raise ProtocolError(
                ErrorCode.PENDING_EXPIRED,
                f"attack {pending_id!r} was rolled {rolled}; pending attacks expire after "
                f"{describe_seconds(self.pending_expiry)}, so roll it again",
                "$.pending_id",
                message.id,
            )
        return found

    def _alone(self) -> bool:
        """No other request is in flight nor due to start this turn of the loop, so this line will
        have no company to share an fsync with: the journal may write it at once.

        Requests read in the same turn are tasks not yet started, visible only in the loop's queue of
        ready callbacks (``_ready``, an attribute of asyncio's own loops); on a loop without one the
        answer is always no, and lines simply wait a turn as before.
        """
        ready = getattr(self._loop, "_ready", None)
        return len(self._in_flight) == 1 and ready is not None and not ready

    async def _record(
        self,
        message: Attack | Action | Allocate,
        request_json: dict[str, Any],
        *,
        result: Any,
        seed: int | None,
        dice: list[int] | None,
        pending_id: str | None,
    ) -> bytes:
        """Journal first, then answer: an acknowledged result is always on disk (and the journal tells
        the ledger where, before this resumes)."""
        outcome, reply = reply_for(message.id, request_json, result)
        kind = type(message).__struct_config__.tag
        entry = Entry(
            id=message.id,
            type=str(kind),
            at=_now(),
            outcome=outcome,
            request=request_json,
            seed=seed,
            dice=list(dice) if dice is not None else None,
            pending_id=pending_id,
            reply=msgspec.Raw(reply),
        )
        try:
            await self.journal.append(entry, alone=self._alone())
        except JournalError as error:
            log.error("%s", error)
            raise ProtocolError(ErrorCode.JOURNAL_FAILED, str(error), None, message.id) from None
        self.resolved += 1
        return reply
