"""The bookkeeping invariant (issue #31): seeded random sequences of what a table does, on the sandbox,
after which every weapon's magazine holds what the record says it must.

A run, per system, on the referee's page (and a player's page for the console writes): fire, two-step
fire, allocate, cancel, reload, unjam, undo, delete cards, reload the referee's page, a player's console
write to Volley's flags (put back), a referee's console write (kept). Every frame the referee's browser
sends to the bridge and every answer it gets are recorded. At the end, for each weapon:

    rounds now = rounds at the start
                 + the rounds each applied, not undone result changed (its result's loaded minus the
                   loaded its request was built from: negative for a shot, positive for a reload)
                 + the rounds changed outside Volley and reported (the applied marks' ``outside``)
                 + the rounds changed outside Volley since the weapon's last card (to be reported on
                   its next card: read from the module's own books)

and every change outside Volley was reported: each put-back by its notice, each kept change by a mark or
as still to be reported. Because each result's request carries the rounds it was built from, a result
built from a stale magazine (a pending attack allocated after another shot, a repeated key applied
again, an undo that refunds another card's rounds) breaks the sum.

Used by tests/browser/test_bookkeeping_invariant.py (a short seeded run) and scripts/bookkeeping_soak.py
(long ones).
"""

from __future__ import annotations

import json
import random
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from devkit.browser import BUDGET_S, Table, ms, open_as, wait_booted, wait_connected

API = "game.modules.get('volley').api"

#: Per system: the shooter's token, its weapons as the sandbox's profile names them (id, name), and
#: the actions that system's dialog offers beside Fire.
SETUPS: dict[str, dict[str, Any]] = {
    "gurps": {"token": "tokHale000000001", "name": "Sgt. Hale"},
    "megatraveller": {"token": "tokKira000000001", "name": "Kira Rhyne"},
    "d100": {"token": "tokVex0000000001", "name": "Vex"},
}

#: The steps of a system whose every attack resolves in one step, and how often each comes (GURPS, d100).
ONE_STEP_WEIGHTS: dict[str, int] = {
    "fire": 8,
    "reload": 3,
    "unjam": 3,
    "undo": 3,
    "delete_cards": 1,
    "reload_page": 1,
    "player_write": 2,
    "gm_write": 2,
    "gm_jam": 1,
}

#: The kinds of step, and how often each comes (a weight per system: two-step play is MegaTraveller's).
STEPS: dict[str, dict[str, int]] = {
    "gurps": ONE_STEP_WEIGHTS,
    "megatraveller": {
        "fire": 6,
        "two_step": 4,
        "allocate": 3,
        "cancel": 2,
        "reload": 3,
        "undo": 3,
        "delete_cards": 1,
        "reload_page": 1,
        "player_write": 2,
        "gm_write": 2,
    },
    "d100": ONE_STEP_WEIGHTS,
}

TOKEN_ACTOR = "canvas.scene.tokens.get({token!r}).actor"


@dataclass
class Wire:
    """Every frame the referee's browser sent to the bridge and every answer, across page reloads."""

    sent: list[dict[str, Any]] = field(default_factory=list)
    received: list[dict[str, Any]] = field(default_factory=list)

    def watch(self, page: Any) -> None:
        def on_socket(socket: Any) -> None:
            socket.on("framesent", lambda payload: self._add(self.sent, payload))
            socket.on("framereceived", lambda payload: self._add(self.received, payload))

        page.on("websocket", on_socket)

    @staticmethod
    def _add(into: list[dict[str, Any]], payload: Any) -> None:
        try:
            message = json.loads(payload)
        except (TypeError, ValueError):
            return
        if isinstance(message, dict):
            into.append(message)


@dataclass
class Figures:
    """What a run did and what it found."""

    system: str
    seed: int
    steps: Counter[str] = field(default_factory=Counter)
    outcomes: Counter[str] = field(default_factory=Counter)
    results_applied: int = 0
    results_undone: int = 0
    outside_reported: int = 0
    outside_pending: int = 0
    put_back_told: int = 0
    player_writes: int = 0
    gm_writes: int = 0
    weapons_checked: int = 0
    broken: list[str] = field(default_factory=list)
    #: what the run did, step by step (its weapon and what came back), for a broken run's report
    trail: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {
            "system": self.system,
            "seed": self.seed,
            "steps": dict(self.steps),
            "outcomes": dict(self.outcomes),
            "results_applied": self.results_applied,
            "results_undone": self.results_undone,
            "outside_reported": self.outside_reported,
            "outside_pending": self.outside_pending,
            "put_back_told": self.put_back_told,
            "player_writes": self.player_writes,
            "gm_writes": self.gm_writes,
            "weapons_checked": self.weapons_checked,
            "broken": self.broken,
            "trail": self.trail[-40:] if self.broken else [],
        }


class BookkeepingRun:
    """One seeded run on one system's scene (a fresh sandbox world)."""

    def __init__(self, table: Table, system: str, seed: int, steps: int) -> None:
        self.table = table
        self.system = system
        self.rng = random.Random(seed)
        self.steps = steps
        self.setup = SETUPS[system]
        self.actor = TOKEN_ACTOR.format(token=self.setup["token"])
        self.figures = Figures(system=system, seed=seed)
        self.wire = Wire()
        self.page: Any = None
        self.player: Any = None
        self.start: dict[str, int] = {}
        self.names: dict[str, str] = {}
        self.gm_deltas: dict[str, int] = defaultdict(int)

    # --- the pages --------------------------------------------------------------------------------

    def open(self) -> None:
        page = self.table.pages.new()
        self.wire.watch(page)
        self.page = self.table.ready(page=page, scene=self.system)
        self.page.set_default_timeout(ms(BUDGET_S))
        self.player = open_as(self.table, "player", scene=self.system)
        weapons = self.weapons(self.page)
        self.start = {w["id"]: int(w["state"].get("loaded", 0)) for w in weapons}
        self.names = {w["id"]: w["name"] for w in weapons}

    def weapons(self, page: Any) -> list[dict[str, Any]]:
        return list(page.evaluate(f"structuredClone({self.actor}.flags.volley.profile.weapons)"))

    def api(self, script: str) -> dict[str, Any]:
        """Run a macro on the referee's page; its value or its refusal."""
        out: dict[str, Any] = self.page.evaluate(
            f"""async () => {{
              const api = {API};
              try {{ return {{ ok: true, value: await (async () => {{ {script} }})() }}; }}
              catch (error) {{
                return {{ ok: false, code: error?.code ?? null, error: String(error?.message ?? error) }};
              }}
            }}"""
        )
        return out

    def note(self, what: str, out: dict[str, Any], weapon: str = "") -> None:
        outcome = "ok" if out.get("ok") else out.get("code") or "refused"
        self.figures.outcomes[f"{what}:{outcome}"] += 1
        why = "" if out.get("ok") else str(out.get("error", ""))[:80]
        self.figures.trail.append(f"{what} {weapon} -> {outcome} {why}")

    # --- the steps --------------------------------------------------------------------------------

    def run(self) -> Figures:
        self.open()
        kinds = STEPS[self.system]
        names, weights = list(kinds), list(kinds.values())
        for _ in range(self.steps):
            kind = self.rng.choices(names, weights)[0]
            self.figures.steps[kind] += 1
            getattr(self, f"step_{kind}")()
        self.check()
        return self.figures

    def weapon(self) -> dict[str, Any]:
        return self.rng.choice(self.weapons(self.page))

    def step_fire(self) -> None:
        w = self.weapon()
        options: dict[str, Any] = {"weapon": w["id"]}
        if self.system == "gurps":
            options["shots"] = self.rng.choice([1, 2, 3, 5])
        elif self.system == "megatraveller":
            options["mode"] = self.rng.choice(["single", "burst", "rapid", "auto", "controlled"])
        else:
            options["mode"] = self.rng.choice(["single", "short_burst", "long_burst"])
        out = self.api(f"return (await api.fire('{self.setup['token']}', {json.dumps(options)})).type;")
        self.note("fire", out, f"{w['name']} {options.get('mode', options.get('shots', ''))}")

    def step_two_step(self) -> None:
        w = self.weapon()
        mode = self.rng.choice(["auto", "controlled", "rapid"])
        options = {"weapon": w["id"], "mode": mode, "fields": {"allocation": "defer"}}
        out = self.api(f"return (await api.fire('{self.setup['token']}', {json.dumps(options)})).type;")
        self.note("two_step", out, f"{w['name']} {mode}")
        # The allocation step opens by itself for the one who fired: the run allocates from the card.
        self.page.evaluate(
            "for (const b of document.querySelectorAll('.volley-mt-allocation .sandbox-close')) b.click()"
        )

    def pending_cards(self) -> list[str]:
        return list(
            self.page.evaluate(
                "game.messages.contents.filter((m) => m.flags.volley?.pending && !m.flags.volley?.settled"
                " && m.author?.isGM).map((m) => m.id)"
            )
        )

    def step_allocate(self) -> None:
        pending = self.pending_cards()
        if not pending:
            self.figures.outcomes["allocate:none"] += 1
            return
        message = self.rng.choice(pending)
        card = self.page.locator(f'[data-message-id="{message}"]')
        card.get_by_role("button", name="Allocate").click()
        step = self.page.locator(".volley-mt-allocation").last
        step.wait_for()
        button = step.locator("[data-volley=allocate]")
        if button.is_disabled():
            self.figures.outcomes["allocate:held_back"] += 1
            step.locator(".sandbox-close").click()
            return
        button.click()
        # Split, or refused (the weapon changed since the roll: the split would overwrite it).
        self.page.wait_for_function(
            "(id) => game.messages.get(id)?.flags.volley?.settled"
            " || document.querySelector('.volley-mt-allocation .volley-attack__notice--error')",
            arg=message,
            timeout=ms(BUDGET_S),
        )
        settled = self.page.evaluate("(id) => Boolean(game.messages.get(id)?.flags.volley?.settled)", message)
        self.figures.outcomes["allocate:ok" if settled else "allocate:refused"] += 1
        self.figures.trail.append(f"allocate {self.card_weapon(message)} -> {'ok' if settled else 'refused'}")
        for close in self.page.locator(".volley-mt-allocation .sandbox-close").all():
            close.click()

    def step_cancel(self) -> None:
        pending = self.pending_cards()
        if not pending:
            self.figures.outcomes["cancel:none"] += 1
            return
        message = self.rng.choice(pending)
        self.page.locator(f'[data-message-id="{message}"]').get_by_role("button", name="Cancel").click()
        self.page.wait_for_function("(id) => game.messages.get(id)?.flags.volley?.settled", arg=message)
        self.figures.outcomes["cancel:ok"] += 1
        self.figures.trail.append(f"cancel {self.card_weapon(message)} -> ok")

    def act(self, action: str) -> None:
        """One of the dialog's other actions, with a random weapon, through the API."""
        w = self.weapon()
        options = json.dumps({"weapon": w["id"], "action": action})
        out = self.api(f"return (await api.fire('{self.setup['token']}', {options})).type;")
        self.note(action, out, w["name"])

    def step_reload(self) -> None:
        self.act("reload")

    def step_unjam(self) -> None:
        self.act("unjam")

    def step_undo(self) -> None:
        cards = list(
            self.page.evaluate(
                "game.messages.contents.filter((m) => m.flags.volley?.applied && !m.flags.volley?.undone"
                " && !m.flags.volley?.pending && m.flags.volley?.seal).map((m) => m.id)"
            )
        )
        if not cards:
            self.figures.outcomes["undo:none"] += 1
            return
        # Mostly the newest card (as a referee would), sometimes an older one (refused when it is not
        # its weapon's last).
        message = cards[-1] if self.rng.random() < 0.6 else self.rng.choice(cards)
        self.note("undo", self.api(f"return (await api.undo('{message}')).type;"), self.card_weapon(message))

    def card_weapon(self, message: str) -> str:
        """The name of the weapon a card is of, and the card's id (for the trail)."""
        weapon = str(self.page.evaluate("(id) => game.messages.get(id)?.flags.volley?.weapon ?? ''", message))
        return f"{self.names.get(weapon, weapon)} [{message}]"

    def step_delete_cards(self) -> None:
        ids = list(
            self.page.evaluate(
                "game.messages.contents.filter((m) => m.flags.volley?.requestId).map((m) => m.id)"
            )
        )
        chosen = [i for i in ids if self.rng.random() < 0.5]
        gone = [self.card_weapon(i) for i in chosen]
        self.page.evaluate("(ids) => Promise.all(ids.map((id) => game.messages.get(id)?.delete()))", chosen)
        self.figures.outcomes["delete_cards"] += len(chosen)
        self.figures.trail.append(f"delete_cards {', '.join(gone) or 'none'}")

    def step_reload_page(self) -> None:
        self.figures.trail.append("reload_page")
        self.page.evaluate("sandbox.flush()")
        self.page.reload()
        wait_booted(self.page)
        wait_connected(self.page)

    def step_player_write(self) -> None:
        """A player's console write to the profile (rounds, skill): put back by the referee's browser."""
        weapons = self.weapons(self.player)
        index = self.rng.randrange(len(weapons))
        before = self.page.evaluate(f"JSON.stringify({self.actor}.flags.volley.profile.weapons)")
        weapons[index]["state"]["loaded"] = int(weapons[index]["stats"].get("capacity", 10)) + 7
        told = self.told()
        self.player.evaluate(
            f"(weapons) => {self.actor}.setFlag('volley', 'profile.weapons', weapons)", weapons
        )
        self.page.wait_for_function(
            f"(was) => JSON.stringify({self.actor}.flags.volley.profile.weapons) === was", arg=before
        )
        self.page.wait_for_function(
            "(n) => document.querySelectorAll('.volley-books-notice').length > n", arg=told
        )
        self.figures.player_writes += 1
        self.figures.trail.append(f"player_write {weapons[index]['name']} loaded -> put back")

    def told(self) -> int:
        return int(self.page.evaluate("document.querySelectorAll('.volley-books-notice').length"))

    def step_gm_write(self) -> None:
        """A referee's console write to a weapon's rounds: it stands, and is said on the next card."""
        weapons = self.weapons(self.page)
        w = self.rng.choice(weapons)
        capacity = int(w["stats"].get("capacity", 10))
        now = int(w["state"].get("loaded", 0))
        new = self.rng.randrange(0, capacity + 1)
        w["state"]["loaded"] = new
        self.page.evaluate(
            f"(weapons) => {self.actor}.setFlag('volley', 'profile.weapons', weapons)", weapons
        )
        self.gm_deltas[w["id"]] += new - now
        self.figures.gm_writes += 1
        self.figures.trail.append(f"gm_write {w['name']} loaded {now} -> {new}")

    def step_gm_jam(self) -> None:
        weapons = self.weapons(self.page)
        w = self.rng.choice(weapons)
        w["state"]["jammed"] = True
        if self.system == "gurps":
            w["state"]["malfunction"] = self.rng.choice(["misfire", "stoppage", "mechanical"])
        self.page.evaluate(
            f"(weapons) => {self.actor}.setFlag('volley', 'profile.weapons', weapons)", weapons
        )
        self.figures.gm_writes += 1

    # --- the check --------------------------------------------------------------------------------

    def check(self) -> None:
        self.page.evaluate("sandbox.flush()")
        wire = self.wire
        requests: dict[str, dict[str, Any]] = {}
        allocations: dict[str, str] = {}
        for frame in wire.sent:
            if frame.get("type") in ("attack", "action") and isinstance(frame.get("request"), dict):
                requests.setdefault(str(frame["id"]), frame["request"])
            elif frame.get("type") == "allocate":
                allocations.setdefault(str(frame["id"]), str(frame.get("pending_id")))
        results: dict[str, int] = {}
        for frame in wire.received:
            if frame.get("type") == "result":
                weapon = (frame.get("result") or {}).get("weapon") or {}
                if isinstance(weapon.get("loaded"), int):
                    results.setdefault(str(frame["id"]), int(weapon["loaded"]))
        marks = {str(f.get("target_id")): str(f.get("id")) for f in wire.sent if f.get("type") == "applied"}
        marked = {str(f.get("target_id")) for f in wire.received if f.get("type") == "marked"}
        undone = {str(f.get("target_id")) for f in wire.received if f.get("type") == "undone"}
        deltas: dict[str, int] = defaultdict(int)
        for key, after in results.items():
            if key not in marked or key not in marks:
                continue
            request = requests.get(allocations.get(key, key)) or requests.get(key)
            if request is None or not isinstance((request.get("weapon") or {}).get("loaded"), int):
                continue
            if key in undone:
                self.figures.results_undone += 1
                continue
            name = str((request.get("weapon") or {}).get("name"))
            deltas[name] += after - int(request["weapon"]["loaded"])
            self.figures.results_applied += 1
        reported: dict[str, int] = defaultdict(int)
        for frame in wire.sent:
            if frame.get("type") != "applied":
                continue
            for change in frame.get("outside") or []:
                if change.get("kept") is True and change.get("field") == "loaded":
                    reported[str(change.get("weapon_name"))] += int(change["to"] or 0) - int(
                        change["from"] or 0
                    )
                    self.figures.outside_reported += 1
        # What changed outside Volley since each weapon's last card, read from the module's own books.
        pending: dict[str, int] = {}
        for weapon_id, name in self.names.items():
            changes = self.page.evaluate(
                """async ([token, weapon]) => {
                  const { outsideFor } = await import('/modules/volley/scripts/foundry/keeper.js');
                  const { arsenalOf } = await import('/modules/volley/scripts/foundry/documents.js');
                  const doc = canvas.scene.tokens.get(token);
                  const system = game.settings.get('volley', 'ruleSystem');
                  const w = arsenalOf(doc, system).weapons.find((x) => x.id === weapon);
                  return outsideFor(doc, w).filter((c) => c.kept && c.field === 'loaded');
                }""",
                [self.setup["token"], weapon_id],
            )
            pending[name] = sum(int(c["to"] or 0) - int(c["from"] or 0) for c in changes)
            self.figures.outside_pending += len(changes)
        final = {w["id"]: int(w["state"].get("loaded", 0)) for w in self.weapons(self.page)}
        for weapon_id, name in self.names.items():
            self.figures.weapons_checked += 1
            expected = self.start[weapon_id] + deltas[name] + reported[name] + pending[name]
            if final[weapon_id] != expected:
                self.figures.broken.append(
                    f"{name}: {final[weapon_id]} rounds, expected {expected} = start {self.start[weapon_id]}"
                    f" + results {deltas[name]} + reported outside {reported[name]}"
                    f" + not yet reported {pending[name]}"
                )
            if reported[name] + pending[name] != self.gm_deltas[weapon_id]:
                self.figures.broken.append(
                    f"{name}: the referee changed it by {self.gm_deltas[weapon_id]} outside Volley; "
                    f"{reported[name]} reported and {pending[name]} to be reported"
                )
        self.figures.put_back_told = self.told()
        if self.figures.put_back_told < self.figures.player_writes:
            self.figures.broken.append(
                f"{self.figures.player_writes} player writes, {self.figures.put_back_told} told the referee"
            )
