"""The scribe: answers each request once, writes it down, and repeats itself on retries; and writes down
what happens at the table around the requests (an undo, a cancelled first step, updates applied).

(A *referee* in Volley is the person running the game; this class is the bridge's record-keeper.)

For every ``attack``, ``action`` and ``allocate`` the scribe

1. returns the journaled reply, byte for byte, if the id was already resolved (in any session: the
   ledger finds its line in the journals);
2. waits for the first copy if the same id is being resolved right now (a retry racing the original);
3. otherwise checks the server's limits, decodes, draws a seed, resolves, journals (fsync) and only
   then hands back the reply bytes.

Undo: the referee takes a request back at the table, and the journal says so. The bridge holds no
table state (the VTT does: rounds, jams, statuses), so putting things back is the module's work, from
the values it kept on the chat card. The bridge's part is the record: an ``undo`` line in the session
journal naming the request, written before ``undone`` is answered, so that ``volley show`` tells the
session as the table lived it, while ``volley replay`` (which re-resolves requests to check the rules)
leaves it out. A request can be undone once (``already_undone`` names the undo that did it); an id the
journal does not know is ``unknown_target``, and the first step of a two-step attack, which changed
nothing yet, is ``not_undoable``.

Cancel (issue #31): the first step of a two-step attack holds its weapon (rounds and selector) until it
is allocated or cancelled (``bridge.holds``); a ``cancel`` is journalled like an undo and settles the
attack for good.

The applied record (issue #31): the VTT marks each key whose updates it has applied, once. The mark is
a journal line of its own whose id the bridge derives from the key (``applied:<key>``), so whether a key
was applied is a ledger lookup, kept where no player can delete it, across restarts. The key asked
again is answered with its journalled reply inside an ``applied`` envelope (``bridge.replies``), and the
VTT changes nothing; a second mark of the key is ``already_applied``.

Like every journalled message, an undo, cancel or mark id is answered once: a retried id gets the very
bytes it got the first time. Nothing here knows a game system; mechanics live in ``rules``. Errors are
``ProtocolError``s that become ``error`` frames.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Coroutine
from typing import Any

import msgspec

import rules
from bridge.expiry import PENDING_EXPIRY, describe_seconds
from bridge.holds import WeaponHolds
from bridge.protocol import (
    Action,
    Allocate,
    Applied,
    Attack,
    Cancel,
    Cancelled,
    Error,
    ErrorCode,
    Marked,
    OddsRequest,
    ProtocolError,
    Undo,
    Undone,
    encode,
)
from bridge.replies import applied_envelope, applied_id, refusal, repeated_mark, reply_kind
from bridge.resolution import (
    SeedSource,
    check_limits,
    decode,
    decode_for_odds,
    dice_for,
    is_pending,
    journaled,
    odds_of,
    plain,
    reply_for,
    resolve,
)
from bridge.server import fast_send
from bridge.server.workers import OFFLOAD_MS, Outcome, RulesWorkers
from bridge.store.journal import Journal, JournalError
from bridge.store.ledger import Ledger, LedgerUnavailable, PendingAttack, Settled
from bridge.store.lines import AppliedLine, CancelLine, Entry, UndoLine, line_time

__all__ = ["Deliver", "Scribe"]

log = logging.getLogger("volley.bridge")

#: Called once with the reply frame of a request.
Deliver = Callable[[bytes], None]

#: Every message the scribe answers (the connection keeps hello and ping for itself).
Served = Attack | Action | Allocate | OddsRequest | Undo | Cancel | Applied


def _odds_cost(request: Any) -> float:
    """The rules' estimate; a request the estimate cannot read is cheap (``odds`` will refuse it)."""
    try:
        return rules.odds_cost(request)
    except rules.RuleError:
        return 0.0


class Scribe:
    """Answers and journals requests for every connection of one server run; owns its journal and ledger."""

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
        #: who waits for each id being resolved right now (the first copy, then racing retries)
        self._in_flight: dict[str, list[Deliver]] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._loop = asyncio.get_running_loop()
        #: pending attacks an ``allocate`` or a ``cancel`` is settling right now
        self.claimed: set[str] = set()
        #: request ids an ``undo`` is being journalled for right now
        self._undoing: set[str] = set()
        #: keys whose ``applied`` mark is being journalled: the mark's id and who waits for it
        self._marking: dict[str, tuple[str, list[Deliver]]] = {}
        #: weapons held by a pending two-step attack of this run (issue #31)
        self.holds = WeaponHolds(pending_expiry)

    def submit(self, message: Served, deliver: Deliver) -> None:
        """Answer one request: ``deliver(reply frame)`` is called exactly once, now or later.

        What can be answered at once is (a retry, a refusal, cheap odds); an attack is resolved now and
        delivered from the journal's own callback once its line is fsynced, with no task or future in
        between. An allocate, an undo and odds sent to a worker run as a task. Never raises for a bad
        request: it becomes an ``error`` frame.
        """
        if isinstance(message, OddsRequest):
            self._odds(message, deliver)
        elif isinstance(message, Applied):
            self._mark(message, deliver)
        else:
            self._once(message, deliver)

    async def answer(self, message: Served) -> bytes:
        """The reply frame for one request (``submit``, awaited)."""
        replied: asyncio.Future[bytes] = self._loop.create_future()
        self.submit(message, replied.set_result)
        return await replied

    def _odds(self, message: OddsRequest, deliver: Deliver) -> None:
        """Odds on the loop when the rules estimate them cheap, else in a rules worker."""
        try:
            request = decode_for_odds(message.id, message.request)
            if self.workers is None or _odds_cost(request) <= OFFLOAD_MS:
                reply = odds_of(message.id, request)
            else:
                # Handed to a worker now, answered from the future's callback: no task or coroutine
                # per preview, and the hand-over counts in this frame's work (``Turns``).
                pending = self.workers.odds_soon(message.id, bytes(message.request))
                if pending is None:  # no pool: on the loop
                    reply = odds_of(message.id, request)
                else:
                    pending.add_done_callback(lambda done: self._offloaded(message.id, done, deliver))
                    return
        except Exception as error:  # every failure becomes an error frame
            reply = refusal(error, message.id)
        deliver(reply)

    def _offloaded(self, id: str, done: asyncio.Future[Outcome], deliver: Deliver) -> None:
        """A worker's answer to a preview (``_odds``), or the workers stopped before it came."""
        assert self.workers is not None
        try:
            outcome = self.workers.outcome(done)
        except asyncio.CancelledError:  # the server is stopping: whoever waits is told so
            deliver(encode(Error(id=id, code=ErrorCode.SHUTTING_DOWN, message="the server stopped")))
            return
        except Exception as error:
            deliver(refusal(error, id))
            return
        self.offloaded += 1
        if outcome[0] == "odds":
            reply: bytes = outcome[1]
        else:
            reply = refusal(ProtocolError(outcome[1], outcome[2], outcome[3], id, msg=outcome[4]), id)
        deliver(reply)

    def _spawn(self, work: Coroutine[Any, Any, bytes], id: str, deliver: Deliver) -> None:
        """Run ``work`` as a task and deliver what it returns (or the error it raises)."""

        async def run() -> None:
            try:
                reply = await work
            except asyncio.CancelledError:  # the loop is going away: whoever waits is told so
                deliver(encode(Error(id=id, code=ErrorCode.SHUTTING_DOWN, message="the server stopped")))
                raise
            except Exception as error:
                reply = refusal(error, id)
            deliver(reply)

        task = asyncio.create_task(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _once(self, message: Attack | Action | Allocate | Undo | Cancel, deliver: Deliver) -> None:
        """Idempotency: one resolution per id, whoever asks and however often."""
        id = message.id
        try:
            done = self.ledger.reply(id)
        except LedgerUnavailable as error:  # never resolved again: the client retries
            deliver(refusal(error, id))
            return
        if done is not None:
            self.retries += 1
            deliver(self._repeated(id, done))
            return
        waiting = self._in_flight.get(id)
        if waiting is not None:  # a retry racing the first copy gets the same bytes, when they come
            self.retries += 1
            waiting.append(deliver)
            return
        self._in_flight[id] = [deliver]
        if isinstance(message, Allocate):
            self._spawn(self._allocate(message), id, self._settler(id))
            return
        if isinstance(message, Undo):
            self._spawn(self._undo(message), id, self._settler(id))
            return
        if isinstance(message, Cancel):
            self._spawn(self._cancel(message), id, self._settler(id))
            return
        try:
            self._resolve(message)
        except Exception as error:  # a refusal is not remembered: the id may come again
            self._settle(id, refusal(error, id))

    def _repeated(self, id: str, done: bytes) -> bytes:
        """A key asked again: its journalled reply, inside an ``applied`` envelope when the table marked
        its updates applied (issue #31), so the VTT changes nothing, whatever became of its card."""
        try:
            mark = self.ledger.reply(applied_id(id))
        except LedgerUnavailable:  # the reply is known; the envelope only spares the VTT a check
            mark = None
        if mark is None:
            return done
        return applied_envelope(id, mark, done)

    def _mark(self, message: Applied, deliver: Deliver) -> None:
        """One applied mark per key (issue #31): the first is journalled; the same mark retried gets its
        bytes again (also while it is being written); any other mark of the key is ``already_applied``."""
        key = applied_id(message.target_id)
        try:
            done = self.ledger.reply(key)
            if done is not None:
                deliver(repeated_mark(message, done))
                return
            writing = self._marking.get(key)
            if writing is not None:
                mark, waiting = writing
                if mark != message.id:
                    why = f"the updates of {message.target_id!r} are being marked applied by {mark!r}"
                    raise ProtocolError(ErrorCode.ALREADY_APPLIED, why, "$.target_id", message.id)
                waiting.append(deliver)
                return
        except Exception as error:  # a refusal, or the ledger unreadable just now (retryable)
            deliver(refusal(error, message.id))
            return
        self._marking[key] = (message.id, [deliver])

        def marked(reply: bytes) -> None:
            for waiting in self._marking.pop(key, (None, []))[1]:
                waiting(reply)

        self._spawn(self._applied(message), message.id, marked)

    # --- what happens at the table around the requests ------------------------------------------

    async def _undo(self, message: Undo) -> bytes:
        """Journal the undo of ``message.target_id`` and return the ``undone`` reply bytes.

        Called once per undo id (retries are answered from the ledger before this).
        """
        target = message.target_id
        ledger = self.ledger
        path = "$.target_id"
        earlier = ledger.undone_by(target)
        if earlier is not None or target in self._undoing:
            by = f"by {earlier!r}" if earlier else "by another undo, still in flight"
            why = f"request {target!r} was already undone ({by})"
            raise ProtocolError(ErrorCode.ALREADY_UNDONE, why, path, message.id)
        reply = ledger.reply(target)
        if reply is None:
            why = f"no resolved request with id {target!r} to undo"
            raise ProtocolError(ErrorCode.UNKNOWN_TARGET, why, path, message.id)
        kind = reply_kind(reply)
        if kind != "result":
            what = f"a {kind} reply"
            if kind == "pending":
                what = "the first step of a two-step attack changed nothing"
            why = f"request {target!r} cannot be undone: {what}"
            raise ProtocolError(ErrorCode.NOT_UNDOABLE, why, path, message.id)
        self._undoing.add(target)
        try:
            answer = encode(Undone(id=message.id, target_id=target))
            line = UndoLine(
                id=message.id, target_id=target, at=line_time(), user=message.user, reply=msgspec.Raw(answer)
            )
            await self.journal.append(line)  # a JournalError becomes journal_failed (``_spawn``)
            return answer  # the journal told the ledger of the line before this resumed
        finally:
            self._undoing.discard(target)

    async def _cancel(self, message: Cancel) -> bytes:
        """Journal that two-step attack ``message.pending_id`` was cancelled; return the ``cancelled`` bytes.

        Called once per cancel id (a retried id is answered from the ledger before this). The line's
        ``pending_id`` settles the attack for the ledger as an ``allocate`` would, so it can no longer be
        allocated (``already_allocated``, saying it was cancelled), nor cancelled again.
        """
        pending_id = message.pending_id
        path = "$.pending_id"
        found = self.ledger.pending(pending_id)
        if isinstance(found, Settled) or pending_id in self.claimed:
            by = f"by {found.by!r}" if isinstance(found, Settled) else "by a request still in flight"
            why = f"attack {pending_id!r} was already settled ({by}); there is nothing left to cancel"
            raise ProtocolError(ErrorCode.ALREADY_ALLOCATED, why, path, message.id)
        if found is None:
            why = f"no pending attack with id {pending_id!r}"
            raise ProtocolError(ErrorCode.UNKNOWN_PENDING, why, path, message.id)
        self.claimed.add(pending_id)
        try:
            answer = encode(Cancelled(id=message.id, pending_id=pending_id))
            line = CancelLine(
                id=message.id,
                pending_id=pending_id,
                at=line_time(),
                user=message.user,
                reply=msgspec.Raw(answer),
            )
            await self.journal.append(line)
            self.holds.release(pending_id, found.request)
            return answer
        finally:
            self.claimed.discard(pending_id)

    async def _applied(self, message: Applied) -> bytes:
        """Journal the mark that ``message.target_id``'s updates were applied; return the ``marked`` bytes.

        Called only when no mark of the key is journalled nor in flight (``_mark``). The key must be a
        journalled request with a ``result`` or ``pending`` reply (the first step of a two-step attack
        changes the weapon's hold at the table, so it is marked too).
        """
        target = message.target_id
        reply = self.ledger.reply(target)
        if reply is None:
            why = f"no resolved request with id {target!r} to mark as applied"
            raise ProtocolError(ErrorCode.UNKNOWN_TARGET, why, "$.target_id", message.id)
        kind = reply_kind(reply)
        if kind not in ("result", "pending"):
            why = f"request {target!r} has a {kind} reply: nothing was applied"
            raise ProtocolError(ErrorCode.UNKNOWN_TARGET, why, "$.target_id", message.id)
        answer = encode(Marked(id=message.id, target_id=target))
        line = AppliedLine(
            id=applied_id(target),
            target_id=target,
            mark=message.id,
            at=line_time(),
            user=message.user,
            outside=list(message.outside),
            reply=msgspec.Raw(answer),
        )
        await self.journal.append(line)
        return answer

    def _settler(self, id: str) -> Deliver:
        return lambda reply: self._settle(id, reply)

    def _settle(self, id: str, reply: bytes) -> None:
        """Hand the reply to whoever asked for ``id`` (the first copy and any racing retry)."""
        for deliver in self._in_flight.pop(id, ()):
            deliver(reply)

    def _resolve(self, message: Attack | Action) -> None:
        view = plain(message.request, id=message.id)  # for the hold, the limits and the card
        held = self.holds.check(message.id, view)
        check_limits(view, allow_scripted_dice=self.allow_scripted_dice, id=message.id)
        # the client's bytes, once, into its type (picked by the view's system and action)
        request = decode(message.request, id=message.id, view=view)
        scripted = getattr(request, "dice", None)
        seed = None if scripted is not None else self.seeds.draw()
        result = resolve(request, dice_for(request, seed), id=message.id)
        entry, reply = self._entry(
            message,
            view,
            result=result,
            seed=seed,
            dice=scripted,
            pending_id=None,
            sent=journaled(message.request, view),
        )
        id = message.id

        def written(error: JournalError | None) -> None:
            if error is None:
                self.resolved += 1
                if held is not None and entry.outcome == "pending":
                    self.holds.hold(held, id)
                self._settle(id, reply)
            else:
                self._settle(id, refusal(error, id))

        self.journal.append_then(entry, written, alone=self._alone())

    async def _allocate(self, message: Allocate) -> bytes:
        """Second step of a two-step attack: same request, same seed, now with the allocation."""
        pending_id = message.pending_id
        pending = self._open_attack(message)
        if pending_id in self.claimed:
            raise ProtocolError(
                ErrorCode.ALREADY_ALLOCATED,
                f"attack {pending_id!r} was already allocated (by another allocate, still in flight)",
                "$.pending_id",
                message.id,
            )
        self.claimed.add(pending_id)
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
            entry, reply = self._entry(
                message, request_json, result=result, seed=seed, dice=scripted, pending_id=pending_id
            )
            # Journal first, then answer: an acknowledged result is always on disk (and the journal
            # tells the ledger where, before this resumes). A JournalError becomes journal_failed.
            await self.journal.append(entry, alone=self._alone())
            self.resolved += 1
            self.holds.release(pending_id, pending.request)
            return reply
        finally:
            self.claimed.discard(pending_id)

    def _open_attack(self, message: Allocate) -> PendingAttack:
        """The pending attack an ``allocate`` names, if it is still open and not expired."""
        pending_id = message.pending_id
        found = self.ledger.pending(pending_id)
        if isinstance(found, Settled):
            how = "cancelled" if reply_kind(self.ledger.reply(found.by)) == "cancelled" else "allocated"
            raise ProtocolError(
                ErrorCode.ALREADY_ALLOCATED,
                f"attack {pending_id!r} was already {how} (by {found.by!r})",
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

        Whether anything else is due this turn only asyncio's private queue of ready callbacks can tell:
        that look is walled off in ``bridge.server.fast_send`` (with its switch off, or on a loop that
        does not say, the answer is no, and the line waits a turn for company).
        """
        return len(self._in_flight) == 1 and fast_send.nothing_else_ready(self._loop)

    def _entry(
        self,
        message: Attack | Action | Allocate,
        request_json: dict[str, Any],
        *,
        result: Any,
        seed: int | None,
        dice: list[int] | None,
        pending_id: str | None,
        sent: Any = None,
    ) -> tuple[Entry, bytes]:
        """The journal line of a resolved request and the reply bytes it holds verbatim. ``sent``: what
        the line holds of the request, if not ``request_json`` (the client's own bytes,
        ``bridge.resolution.journaled``)."""
        outcome, reply = reply_for(message.id, request_json, result)
        entry = Entry(
            id=message.id,
            type=_KIND[type(message)],
            at=line_time(),
            outcome=outcome,
            request=request_json if sent is None else sent,
            seed=seed,
            dice=list(dice) if dice is not None else None,
            pending_id=pending_id,
            reply=msgspec.Raw(reply),
        )
        return entry, reply


#: The journal's ``type`` of each journalled message: its protocol tag.
_KIND: dict[type, str] = {kind: str(kind.__struct_config__.tag) for kind in (Attack, Action, Allocate)}
