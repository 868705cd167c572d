"""The module end to end on ``volley sandbox``'s page, MegaTraveller (RCS): a real bridge, the real module,
Chromium.

Kira Rhyne (Dex 10) holds an autorifle ready on automatic (Autorifle-2, burst 4, Auto Tgts 2, 20 rounds)
locked on the Vargr raider, a slung submachinegun and a holstered autopistol; three Vargr are targeted
and her ally Cpl. Dace stands just past the Vargr leader, in the danger space of automatic fire. She
fires a burst at the three Vargr; fires on automatic in two steps, splitting the clusters herself after
the roll; unslings and readies the submachinegun (and the referee undoes it); fast-draws the autopistol.
"""

from __future__ import annotations

from typing import Any

import pytest
from browserkit import (
    FIRE,
    OPEN_WINDOW,
    WEAPON,
    Table,
    cards,
    chat_flags,
    enter_fires_nothing,
    fire_first,
    hits_of,
    message_of,
    notice_reads,
    open_attack_dialog,
    player_view,
    sent_with_id,
    wait_for_chart,
)

KIRA = "Kira Rhyne"
KIRA_TOKEN = "canvas.scene.tokens.get('tokKira000000001')"
WEAPONS = f"{KIRA_TOKEN}.actor.flags.volley.profile.weapons"
AUTORIFLE = f"{WEAPONS}[0]"
SMG = f"{WEAPONS}[1]"
AUTOPISTOL = f"{WEAPONS}[2]"
LOCK = f"({KIRA_TOKEN}.actor.flags.volley.state?.target ?? null)"
RAIDER, LEADER, SCOUT, DACE = "tokVargr00000002", "tokVargr00000003", "tokVargr00000004", "tokDace000000005"
STEP = "Volley: Kira Rhyne splits the fire"

#: Step one, the pool: 3D rounds 1+1+1+20 = 23, capped at the 20 loaded; 1D-1 = 4 lost (16-20 row);
#: clusters 3, 6, 6, 1 (Honjo Boram's pool in the book).
POOL_DICE = "1 1 1 5 3 6 6 1"
#: Step two, the to-hit rolls: the raider 6+6 (a hit) then a natural 2; the leader and Dace natural 2s.
TO_HIT_DICE = "6 6 1 1 1 1 1 1"


def kira_dialog(page: Any, fire: str = FIRE, title: str = "Volley: Kira Rhyne fires") -> Any:
    """Kira's attack dialog, by its name (the allocation step is a dialog too)."""
    open_attack_dialog(page, KIRA, fire)
    return page.get_by_role("dialog", name=title)


def roles(dialog: Any) -> list[tuple[str, str]]:
    """Each listed token and its role as the dialog shows it."""
    rows = dialog.locator("tr.volley-mt__row")
    out = []
    for i in range(rows.count()):
        row = rows.nth(i)
        name = row.locator("th").inner_text().strip()
        select = row.locator("select[name$='.role']")
        role = select.input_value() if select.count() else "primary"
        out.append((name, role))
    return out


def chart_label(dialog: Any, name: str) -> str:
    return str(wait_for_chart(dialog, name).get_attribute("aria-label"))


def wait_chart_change(page: Any, dialog_name: str, target: str, was: str) -> str:
    """Wait for a target's chart in the named dialog to answer a changed form; return its new label."""
    page.wait_for_function(
        """([dialog, target, was]) => {
          const root = [...document.querySelectorAll('[role=dialog]')]
            .find(d => d.getAttribute('aria-label') === dialog);
          const chart = [...(root?.querySelectorAll('.volley-chart[role=img]') ?? [])]
            .find(c => c.getAttribute('aria-label').startsWith(target + ':'));
          return chart && chart.getAttribute('aria-label') !== was
            && !root.querySelector('.volley-attack__preview--stale');
        }""",
        arg=[dialog_name, target, was],
    )
    root = page.get_by_role("dialog", name=dialog_name)
    return str(root.get_by_role("img", name=target).first.get_attribute("aria-label"))


@pytest.mark.foundry(13, 14)
def test_burst_at_three_vargr_odds_card_and_rounds(table: Table) -> None:
    page, sent = table.watched(scene="megatraveller")
    dialog = kira_dialog(page)
    assert dialog.get_attribute("aria-label") == "Volley: Kira Rhyne fires"
    weapon = dialog.get_by_role("combobox", name=WEAPON, exact=True)
    assert weapon.locator("option").all_inner_texts() == [
        "Autorifle (20/20)",
        "Submachinegun (30/30)",
        "Autopistol (15/15)",
    ]
    # Only the modes the autorifle has; it opens on the one its selector is on.
    mode = dialog.get_by_role("combobox", name="Mode", exact=True)
    assert mode.locator("option").all_inner_texts() == [
        "single fire",
        "burst fire",
        "automatic fire",
        "controlled fire",
    ]
    assert mode.input_value() == "auto"
    state = dialog.locator(".volley-mt__state")
    assert state.inner_text() == "Autorifle: ready · selector on automatic · locked on Vargr raider"
    assert (
        dialog.locator(".volley-mt__charge").inner_text().strip()
        == "Fire at Vargr raider, the locked target: 1 action."
    )
    # Automatic fire: Auto Tgts 2 chosen, Dace (past the leader) a bystander, the scout left out.
    assert roles(dialog) == [
        ("Vargr raider", "primary"),
        ("Vargr leader", "target"),
        ("Cpl. Dace", "bystander"),
        ("Vargr scout", "out"),
    ]
    dace = chart_label(dialog, "Cpl. Dace")
    assert dace.startswith("Cpl. Dace: 0 hits"), dace
    table.shots.take(dialog, "megatraveller-dialog-en")

    # The odds answer every mode: single fire takes the raider alone, controlled fire its pulse.
    was = chart_label(dialog, "Vargr raider")
    for name, most in (("single", "1 hit"), ("controlled", "5 hits")):
        mode.select_option(name)
        was = wait_chart_change(page, "Volley: Kira Rhyne fires", "Vargr raider", was)
        assert most in was, (name, was)
    assert dialog.get_by_role("img", name="Vargr leader").count() == 1, "controlled fire takes two targets"

    # Burst fire at all three: the bullets dealt 2/1/1, the selector moved at the instant of firing.
    mode.select_option("burst")
    dialog.get_by_role("spinbutton", name="Bullets at Vargr raider").wait_for()
    assert [
        dialog.get_by_role("spinbutton", name=f"Bullets at {name}").input_value()
        for name in ("Vargr raider", "Vargr leader", "Vargr scout")
    ] == ["2", "1", "1"]
    notes = dialog.locator(".volley-mt__notes").inner_text()
    assert (
        "The selector is on automatic: burst fire moves it as you shoot, one difficulty level harder" in notes
    )
    assert "targets −3" in notes
    assert dialog.get_by_role("button", name="Selector: burst").is_visible()
    raider = wait_chart_change(page, "Volley: Kira Rhyne fires", "Vargr raider", was)
    assert "2 hits" in raider and "3 hits" not in raider, raider
    table.shots.take(dialog, "megatraveller-dialog-burst-en")

    # Enter in a number field does not fire.
    enter_fires_nothing(page, dialog.get_by_role("spinbutton", name="DM for Vargr raider"))

    flags = fire_first(page, dialog)
    result = flags["result"]
    assert result["mode"] == "burst" and result["weapon"]["loaded"] == 16
    card = cards(page).first
    assert card.locator(".volley-card__title").inner_text() == "Kira Rhyne fires Autorifle"
    for target in result["targets"]:
        assert int(hits_of(card, target["name"])) == target["hits"]
    extras = card.locator(".volley-card__extras").inner_text()
    assert "Split: Vargr raider 2 · Vargr leader 1 · Vargr scout 1" in extras
    assert "Selector: burst" in extras
    assert card.locator(".volley-card__loaded").inner_text() == "16"
    table.shots.take(message_of(card), "megatraveller-card-en")

    # The rounds and the selector went to the autorifle only; the lock stayed on the raider.
    page.wait_for_function(f"{AUTORIFLE}.state.loaded === 16 && {AUTORIFLE}.state.selector === 'burst'")
    assert page.evaluate(f"{WEAPONS}.slice(1).map(w => w.state.loaded)") == [30, 15]
    assert page.evaluate(LOCK) == RAIDER
    page.wait_for_function(
        "document.querySelector('.volley-mt__state')?.textContent"
        " === 'Autorifle: ready · selector on burst · locked on Vargr raider'"
    )
    assert dialog.get_by_role("button", name="Selector: burst").count() == 0
    # Reload fills the magazine (Reload is refused while it is full).
    reload = dialog.get_by_role("button", name="Reload", exact=True)
    reload.click()
    page.wait_for_function(f"{AUTORIFLE}.state.loaded === 20")
    assert cards(page).last.locator(".volley-card__title").inner_text() == "Kira Rhyne: Reload (Autorifle)"
    page.wait_for_function("document.querySelector('[data-volley=reload]')?.disabled === true")
    assert reload.get_attribute("title") == "The magazine is full."
    # The request was built from the profile: skill 2, Dex 10, the state the token held.
    attack = sent_with_id(sent, flags["requestId"])
    request = attack["request"]
    assert request["attacker"] == {
        "id": "tokKira000000001",
        "name": KIRA,
        "skill": 2,
        "dex": 10,
        "readiness": "ready",
        "selector": "auto",
        "target": RAIDER,
        "target_name": "Vargr raider",
    }
    assert request["weapon"]["loaded"] == 20 and request["allocation"] == [2, 1, 1]
    assert [t["id"] for t in request["targets"]] == [RAIDER, LEADER, SCOUT]
    assert table.pages.errors == []


def test_automatic_fire_split_after_the_roll(table: Table) -> None:
    page, sent = table.watched(scene="megatraveller")
    dialog = kira_dialog(page)
    wait_for_chart(dialog, "Cpl. Dace")
    split = dialog.get_by_role("combobox", name="Split", exact=True)
    assert split.locator("option").all_inner_texts() == [
        "Default split (primary first)",
        "After the roll: choose the split in a second step",
    ]
    split.select_option("defer")
    page.get_by_label("Next roll's dice").fill(POOL_DICE)
    dialog.get_by_role("button", name=FIRE, exact=True).click()

    # Step one: the pool is rolled, nothing is spent, the card waits and offers Allocate.
    step = page.get_by_role("dialog", name=STEP)
    step.wait_for()
    pending = chat_flags(page)
    pending_id = pending["requestId"]
    assert pending["pending"] == {"rounds": 20, "lost": 4, "clusters": [3, 6, 6, 1]}
    assert page.evaluate(f"{AUTORIFLE}.state.loaded") == 20
    card = cards(page).first
    assert card.locator(".volley-card__pending").inner_text() == (
        "Waiting for the allocation: no round is spent and nobody is hit until the pool is split."
    )
    assert card.locator(".volley-card__loaded").count() == 0, "nothing spent: no rounds-left line yet"
    assert card.locator(".volley-card__aimed").inner_text() == "At: Vargr raider, Vargr leader, Cpl. Dace"
    assert "Clusters: 3, 6, 6, 1" in card.locator(".volley-card__extras").inner_text()
    assert card.get_by_role("button", name="Allocate").is_visible()
    waiting = "Waiting for the allocation: see the card in the chat."
    assert notice_reads(dialog, waiting) == waiting
    table.shots.take(message_of(card), "megatraveller-card-pending-en")

    # Step two: the pool and the default split (Dace gets the smallest cluster), with its odds.
    assert (
        step.locator(".volley-mt-split__pool").inner_text()
        == "Rolled: 20 rounds, 4 of them lost; 16 bullets in 4 clusters"
    )
    clusters = [
        step.get_by_role("combobox", name=name)
        for name in (
            "Cluster 1: 3 bullets",
            "Cluster 2: 6 bullets",
            "Cluster 3: 6 bullets",
            "Cluster 4: 1 bullet",
        )
    ]
    assert [c.input_value() for c in clusters] == ["0", "0", "1", "2"]
    was = chart_label(step, "Vargr raider")
    assert "Expected hits" in was

    # The player gives both sixes to the raider: the leader is left with none while the raider has
    # three, which the RCS forbids, said at once; then the three goes to the leader.
    clusters[2].select_option(label="Vargr raider")
    problem = step.locator(".volley-mt__blocked")
    problem.wait_for()
    assert "gets a cluster while any are left" in problem.inner_text()
    allocate = step.get_by_role("button", name="Allocate", exact=True)
    assert allocate.is_disabled()
    clusters[0].select_option(label="Vargr leader")
    page.wait_for_function(
        f"!document.querySelector('[aria-label=\"{STEP}\"] [data-volley=allocate]').disabled"
    )
    assert step.locator(".volley-mt-split__total").all_inner_texts() == [
        "12 bullets",
        "3 bullets",
        "1 bullet",
    ]
    twelve = wait_chart_change(page, STEP, "Vargr raider", was)
    assert "12 hits" in twelve or "13+ hits" in twelve or "11 hits" in twelve, twelve
    table.shots.take(step, "megatraveller-allocation-en")

    page.get_by_label("Next roll's dice").fill(TO_HIT_DICE)
    allocate.click()
    page.wait_for_function("game.messages.contents.length === 2")
    result_flags = chat_flags(page)
    result = result_flags["result"]
    assert result["allocation"] == [[1, 2], [0], [3]]
    assert [(t["name"], t["hits"], t["clusters"]) for t in result["targets"]] == [
        ("Vargr raider", 1, [6, 6]),
        ("Vargr leader", 0, [3]),
        ("Cpl. Dace", 0, [1]),
    ]
    page.wait_for_function(f"{AUTORIFLE}.state.loaded === 0")
    frame = next(f for f in sent if f.get("type") == "allocate")
    assert frame["pending_id"] == pending_id and frame["allocation"] == [[1, 2], [0], [3]]
    assert frame["user"] == "gm0000000000000a"
    assert frame["dice"] == [int(n) for n in f"{POOL_DICE} {TO_HIT_DICE}".split()]
    step.locator(".volley-mt-split__settled").wait_for()
    assert (
        step.locator(".volley-mt-split__settled").inner_text()
        == "Allocated: see the result card in the chat."
    )
    assert allocate.is_disabled()

    # The pending card now says how it ended and links the result; it offers no second allocation.
    first = cards(page).first
    first.locator(".volley-card__settled").wait_for()
    assert (
        first.locator(".volley-card__settled").inner_text()
        == "Split by Referee: Vargr raider 1 hit, Vargr leader 0 hits, Cpl. Dace 0 hits."
    )
    assert first.get_by_role("button", name="Allocate").count() == 0
    assert first.get_by_role("link", name="Show the result").is_visible()
    last = cards(page).last
    assert (
        "Split: Vargr raider 6+6 · Vargr leader 3 · Cpl. Dace 1"
        in last.locator(".volley-card__extras").inner_text()
    )
    page.evaluate("document.getElementById('notifications').replaceChildren()")
    table.shots.take(page.get_by_role("log"), "megatraveller-card-allocated-en")

    # Allocating twice is refused, politely, and changes nothing.
    again = page.evaluate(
        """async (choice) => (await import('/modules/volley/scripts/foundry/bridge.js')).sendRelayed({
          type: 'allocate', id: 'volley-again-1', choice})""",
        {**pending["choice"], "pending_id": pending_id, "allocation": [[1, 0], [2], [3]]},
    )
    assert again["code"] == "already_allocated"
    assert page.evaluate("game.messages.contents.length") == 2
    assert page.evaluate(f"{AUTORIFLE}.state.loaded") == 0

    # Undo the result: the rounds come back.
    last.get_by_role("button", name="Undo").click()
    page.wait_for_function(f"{AUTORIFLE}.state.loaded === 20")
    assert table.pages.errors == []


@pytest.mark.foundry(13, 14)
def test_the_player_who_fired_splits_the_pool_through_the_referee(table: Table) -> None:
    page = table.ready(scene="megatraveller")
    frame = player_view(page, KIRA).frame
    dialog = kira_dialog(frame)
    wait_for_chart(dialog, "Cpl. Dace")
    dialog.get_by_role("combobox", name="Split", exact=True).select_option("defer")
    dialog.get_by_role("button", name=FIRE, exact=True).click()

    # The player's own step opens on the pool; their card offers Allocate too (they own the token).
    step = frame.get_by_role("dialog", name=STEP)
    wait_for_chart(step, "Vargr raider")
    frame.get_by_role("log").locator(".volley-card").first.get_by_role("button", name="Allocate").wait_for()
    table.shots.take(step, "megatraveller-allocation-player-en")
    step.get_by_role("button", name="Allocate", exact=True).click()

    # The referee's page resolved it and posted the result; the pending card says who split it.
    page.wait_for_function("game.messages.contents.length === 2")
    assert page.evaluate("(m => m.author?.id ?? m.author)(game.messages.contents[1])") == "gm0000000000000a"
    assert page.evaluate("game.messages.contents[1].flags.volley.requester") == "pl0000000000000b"
    first = cards(page).first
    first.locator(".volley-card__settled").wait_for()
    assert first.locator(".volley-card__settled").inner_text().startswith("Split by Player: Vargr raider ")
    player_card = frame.get_by_role("log").locator(".volley-card").first
    player_card.locator(".volley-card__settled").wait_for()
    assert player_card.get_by_role("button", name="Allocate").count() == 0
    step.locator(".volley-mt-split__settled").wait_for()
    page.get_by_role("combobox", name="View").select_option("referee")
    assert table.pages.errors == []


def test_a_pending_attack_the_bridge_no_longer_holds(table: Table) -> None:
    page = table.ready(scene="megatraveller")
    dialog = kira_dialog(page)
    wait_for_chart(dialog, "Cpl. Dace")
    dialog.get_by_role("combobox", name="Split", exact=True).select_option("defer")
    dialog.get_by_role("button", name=FIRE, exact=True).click()
    step = page.get_by_role("dialog", name=STEP)
    step.wait_for()
    step.get_by_role("button", name="Close").click()
    # A pending card whose attack the bridge has forgotten (or let expire), as one left from an earlier
    # session would be.
    page.evaluate(
        """() => {
          const flags = structuredClone(game.messages.contents[0].flags.volley);
          flags.requestId = 'volley-forgotten-0001';
          const content = '<section class="volley-card"></section>';
          return ChatMessage.create({content, flags: {volley: flags}});
        }"""
    )
    card = cards(page).last
    card.get_by_role("button", name="Allocate").click()
    # The step just closed may still be animating away (OPEN_WINDOW): the one on the screen is the new one.
    step = page.get_by_role("dialog", name=STEP).and_(page.locator(OPEN_WINDOW))
    wait_for_chart(step, "Vargr raider")
    step.get_by_role("button", name="Allocate", exact=True).click()
    expired = "The bridge no longer holds this attack (it expired or was forgotten): fire again."
    step.locator(".volley-attack__notice--error").filter(has_text=expired).wait_for()
    assert step.get_by_role("button", name="Allocate", exact=True).is_disabled()
    card = cards(page).last
    card.locator(".volley-card__settled--expired").wait_for()
    assert card.locator(".volley-card__settled").inner_text() == expired
    assert card.get_by_role("button", name="Allocate").count() == 0
    assert page.evaluate(f"{AUTORIFLE}.state.loaded") == 20
    assert table.pages.errors == []


def test_unsling_and_ready_the_submachinegun_and_undo(table: Table) -> None:
    page = table.ready(scene="megatraveller")
    dialog = kira_dialog(page)
    dialog.get_by_role("combobox", name=WEAPON, exact=True).select_option(label="Submachinegun (30/30)")
    state = dialog.locator(".volley-mt__state")
    page.wait_for_function(
        "document.querySelector('.volley-mt__state')?.textContent.startsWith('Submachinegun')"
    )
    assert state.inner_text() == "Submachinegun: slung · selector on single · locked on Vargr raider"
    blocked = "The Submachinegun is slung: Unsling it, then Ready it (2 actions) before firing."
    assert dialog.locator(".volley-mt__blocked").inner_text().strip() == blocked
    fire = dialog.get_by_role("button", name=FIRE, exact=True)
    assert fire.is_disabled() and fire.get_attribute("title") == blocked
    page.wait_for_function(
        f"document.querySelector('.volley-attack__odds-status')?.textContent === {blocked!r}"
    )
    assert dialog.get_by_role("button", name="Ready").count() == 0
    table.shots.take(dialog, "megatraveller-dialog-slung-en")

    dialog.get_by_role("button", name="Unsling", exact=True).click()
    page.wait_for_function(f"{SMG}.state.readiness === 'carried'")
    page.wait_for_function(
        "document.querySelector('.volley-mt__state')?.textContent"
        " === 'Submachinegun: carried (safety on) · selector on single · locked on Vargr raider'"
    )
    assert dialog.locator(".volley-mt__blocked").inner_text().strip() == (
        "Ready the Submachinegun first (1 action): it is carried with the safety on."
    )
    assert (
        cards(page).last.locator(".volley-card__title").inner_text()
        == "Kira Rhyne: Unsling Rifle (Submachinegun)"
    )

    # Ready on automatic, locked on the leader: both come free with the action.
    dialog.get_by_role("combobox", name="Mode", exact=True).select_option("auto")
    dialog.get_by_role("combobox", name="Primary target", exact=True).select_option(label="Vargr leader")
    ready = dialog.get_by_role("button", name="Ready", exact=True)
    assert ready.get_attribute("title") == (
        "Ready rifle (1 action): safety off, locked on Vargr leader, selector on automatic."
    )
    ready.click()
    page.wait_for_function(f"{SMG}.state.readiness === 'ready' && {SMG}.state.selector === 'auto'")
    assert page.evaluate(LOCK) == LEADER
    page.wait_for_function(
        "document.querySelector('.volley-mt__state')?.textContent"
        " === 'Submachinegun: ready · selector on automatic · locked on Vargr leader'"
    )
    page.wait_for_function("document.querySelector('[data-volley=attack]')?.disabled === false")
    assert (
        dialog.locator(".volley-mt__charge").inner_text().strip()
        == "Fire at Vargr leader, the locked target: 1 action."
    )

    # The referee undoes the Ready: the weapon is carried again, the lock back on the raider.
    card = cards(page).last
    card.get_by_role("button", name="Undo").click()
    page.wait_for_function(f"{SMG}.state.readiness === 'carried' && {SMG}.state.selector === 'single'")
    assert page.evaluate(LOCK) == RAIDER
    page.wait_for_function(
        "document.querySelector('.volley-mt__state')?.textContent"
        " === 'Submachinegun: carried (safety on) · selector on single · locked on Vargr raider'"
    )
    card.locator(".volley-card__undone").wait_for()

    # Select Fire Mode while carried: the selector moves, no shot, no penalty.
    dialog.get_by_role("combobox", name="Mode", exact=True).select_option("auto")
    dialog.get_by_role("button", name="Selector: automatic", exact=True).click()
    page.wait_for_function(f"{SMG}.state.selector === 'auto' && {SMG}.state.readiness === 'carried'")
    assert cards(page).last.locator(".volley-card__title").inner_text() == (
        "Kira Rhyne: Select Fire Mode (Submachinegun)"
    )
    assert table.pages.errors == []


def test_fast_draw_the_autopistol(table: Table) -> None:
    page, sent = table.watched(scene="megatraveller")
    dialog = kira_dialog(page)
    dialog.get_by_role("combobox", name=WEAPON, exact=True).select_option(label="Autopistol (15/15)")
    page.wait_for_function(
        "document.querySelector('.volley-mt__state')?.textContent.startsWith('Autopistol')"
    )
    mode = dialog.get_by_role("combobox", name="Mode", exact=True)
    assert mode.locator("option").all_inner_texts() == ["single fire", "rapid fire"]
    how = dialog.get_by_role("combobox", name="Action", exact=True)
    assert how.input_value() == "fast_draw"
    mode.select_option("rapid")
    assert dialog.locator(".volley-mt__charge").inner_text().strip() == (
        "Fast draw: draw, lock on Vargr raider and fire in 1 action, DM −2."
    )
    assert "skill +3, Dex 10 +2, action −2, targets −3 = +0" in dialog.locator(".volley-mt__dms").inner_text()
    assert dialog.get_by_role("button", name="Draw", exact=True).get_attribute("title") == (
        "Draw a Small Weapon (1 action): ready, locked on Vargr raider, selector on single."
    )
    wait_for_chart(dialog, "Vargr scout")
    table.shots.take(dialog, "megatraveller-dialog-fast-draw-en")
    flags = fire_first(page, dialog)
    assert (
        cards(page).first.locator(".volley-card__title").inner_text() == "Kira Rhyne: Fast Draw (Autopistol)"
    )
    request = sent_with_id(sent, flags["requestId"])["request"]
    assert request["action"] == "fast_draw" and request["attacker"]["readiness"] == "holstered"
    fired = flags["result"]["weapon"]["fired"]
    page.wait_for_function(
        f"{AUTOPISTOL}.state.readiness === 'ready' && {AUTOPISTOL}.state.loaded === {15 - fired}"
    )
    # Drawn now: the dialog offers a plain fire at the locked target again.
    page.wait_for_function("document.querySelector('[name=how]')?.value === 'fire'")
    assert (
        dialog.locator(".volley-mt__charge").inner_text().strip()
        == "Fire at Vargr raider, the locked target: 1 action."
    )

    # Another primary: retarget and fire is offered, with the pistol's bring-to-bear DM.
    dialog.get_by_role("combobox", name="Primary target", exact=True).select_option(label="Vargr scout")
    page.wait_for_function("document.querySelector('[name=how]')?.value === 'retarget_and_fire'")
    assert dialog.locator(".volley-mt__charge").inner_text().strip() == (
        "Retarget and fire at Vargr scout: 1 action, DM −1 to bring a pistol to bear."
    )
    assert dialog.get_by_role("button", name="Retarget", exact=True).is_visible()
    assert table.pages.errors == []


def test_russian_dialog_step_and_cards(table: Table) -> None:
    page = table.ready(scene="megatraveller", lang="ru")
    dialog = kira_dialog(page, fire="Огонь", title="Volley: стреляет Kira Rhyne")
    wait_for_chart(dialog, "Cpl. Dace")
    assert dialog.get_attribute("aria-label") == "Volley: стреляет Kira Rhyne"
    assert (
        dialog.locator(".volley-mt__charge").inner_text().strip()
        == "Огонь, цель Vargr raider (захвачена): 1 действие."
    )
    table.shots.take(dialog, "megatraveller-dialog-ru")
    dialog.get_by_role("combobox", name="Распределение", exact=True).select_option("defer")
    dialog.get_by_role("button", name="Огонь", exact=True).click()
    step = page.get_by_role("dialog", name="Volley: распределение огня, Kira Rhyne")
    step.wait_for()
    wait_for_chart(step, "Vargr raider")
    pool = step.locator(".volley-mt-split__pool").inner_text()
    # Rolled, not fired yet: the rounds are not said to be fired (they were, before #35).
    assert pool.startswith("Выпало: ") and ", из них потеряно " in pool and "выпущено" not in pool, pool
    table.shots.take(step, "megatraveller-allocation-ru")
    card = cards(page).first
    assert card.locator(".volley-card__pending").inner_text() == (
        "Ждём распределения: пока пул не распределён, патроны не расходуются и попаданий нет."
    )
    table.shots.take(message_of(card), "megatraveller-card-pending-ru")
    step.get_by_role("button", name="Распределить", exact=True).click()
    page.wait_for_function("game.messages.contents.length === 2")
    cards(page).first.locator(".volley-card__settled").wait_for()
    assert (
        cards(page)
        .first.locator(".volley-card__settled")
        .inner_text()
        .startswith("Распределил(а) Referee: Vargr raider")
    )
    table.shots.take(message_of(cards(page).last), "megatraveller-card-ru")
    assert table.pages.errors == []
