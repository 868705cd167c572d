"""Volley on both Foundry generations the stand-in plays (``?foundry=13|14``, stand-in/generations.js).

v14 changed what a module meets: who reads a roll is ``core.messageMode`` (``core.rollMode`` warns on
every read), ``CONFIG.statusEffects`` is keyed by id (and a game system may put a plain object in its
place), and any window may be popped out into a browser window of its own. Each test here fails on the
module as it was before it learned v14; the ``pages`` fixture fails any test whose pages logged a
compatibility warning from Volley's own code.
"""

from __future__ import annotations

from typing import Any

import pytest
from browserkit import (
    PLAYER_ID,
    REFEREE_ID,
    Table,
    cards,
    open_as,
    open_attack_dialog,
    open_dialog,
    set_message_mode,
    settle,
    wait_connected,
)

API = "game.modules.get('volley').api"
DIALOGS = "/modules/volley/scripts/systems/common/attack-dialog.js"
GMS = ["gm0000000000000a", "gm0000000000000c", "as0000000000000d"]


def last_message(page: Any) -> dict[str, Any]:
    return page.evaluate(
        "(({whisper, blind, author, flags}) => ({whisper, blind, author: author?.id ?? author,"
        " requestId: flags.volley?.requestId ?? null}))(game.messages.contents.at(-1))"
    )


@pytest.mark.foundry(13, 14)
def test_volley_starts_and_keeps_its_statuses_whatever_shape_the_list_has(table: Table) -> None:
    """v13: the sandbox's game system rebuilds the status array at setup and ready. v14: it merges its
    own into core's keyed registry, then (as Twodsix's "reduce status icons" does) replaces it with a
    plain object that drops Volley's. Volley starts either way, with its statuses there."""
    page = table.open()
    assert page.evaluate(f"Boolean({API})") is True, "Volley's ready ran to its end"
    statuses = page.evaluate(
        "(() => { const e = CONFIG.statusEffects;"
        " const v13 = Array.isArray(e) && game.release.generation < 14;"
        " return ['suppressed', 'pinned', 'prone', 'overwatch', 'jammed']"
        "  .map((id) => (v13 ? e.find((s) => s.id === id) : e[id])?.id ?? null); })()"
    )
    assert statuses == ["suppressed", "pinned", "prone", "overwatch", "jammed"]
    # A status Volley applies is one the world knows: the toggle is accepted.
    assert (
        page.evaluate("canvas.scene.tokens.get('tokRaider0000002').actor.toggleStatusEffect('pinned')")
        is True
    )
    assert page.evaluate("sandbox.hookErrors") == []
    assert table.pages.errors == []


def test_a_start_up_step_that_fails_is_reported_and_the_rest_runs(table: Table) -> None:
    """A setting another module broke makes one of Volley's ``ready`` steps throw: Volley says which
    step failed, and still connects to the bridge and publishes its API."""
    page = table.pages.new()
    page.add_init_script(
        "window.addEventListener('DOMContentLoaded', () => { const wait = () => window.Hooks"
        " ? Hooks.once('setup', () => { const get = game.settings.get.bind(game.settings);"
        "   game.settings.get = (scope, key) => {"
        "     if (key === 'overwatchEndsOnTurn') throw new Error('broken');"
        "     return get(scope, key); }; })"
        " : setTimeout(wait, 5); wait(); });"
    )
    table.open(page=page)
    wait_connected(page)
    assert page.evaluate(f"Boolean({API})") is True
    said = page.evaluate("sandbox.notifications.filter((n) => n.level === 'error').map((n) => n.text)")
    assert any('"settings"' in text and "broken" in text for text in said), said


@pytest.mark.foundry(13, 14)
def test_fire_honours_the_players_mode_in_either_vocabulary(table: Table) -> None:
    """The dialog reads the player's own mode where their Foundry keeps it (v14 ``core.messageMode``,
    v13 ``core.rollMode``): a blind roll is whispered to the GMs, blind, on both; on v14 nothing of
    Volley's reads the deprecated setting (the fixture fails on a warning)."""
    referee = open_as(table, "referee")
    wait_connected(referee)
    player = open_as(table, "player")
    set_message_mode(player, "blind")
    dialog = open_attack_dialog(player, chart="Raider")
    dialog.get_by_role("spinbutton", name="Shots at Raider").fill("1")
    dialog.get_by_role("button", name="Fire", exact=True).click()
    referee.wait_for_function("game.messages.contents.length === 1")
    message = last_message(referee)
    assert (message["whisper"], message["blind"], message["author"]) == (GMS, True, REFEREE_ID)
    assert player.evaluate("sandbox.compatWarnings.filter((w) => w.fromVolley).length") == 0
    assert table.pages.errors == []


@pytest.mark.foundry(13, 14)
def test_an_api_self_roll_is_read_by_its_player_alone_and_in_character_is_public(table: Table) -> None:
    """A macro asks for v14's ``self``: the card is the player's alone (never the GMs'), whichever
    Foundry the table runs; ``ic`` (in character) is read by everyone."""
    referee = open_as(table, "referee")
    wait_connected(referee)
    player = open_as(table, "player")
    for n, (mode, whisper, blind) in enumerate(((["self", [PLAYER_ID], True]), (["ic", [], False])), start=1):
        fired = player.evaluate(
            f"{API}.fire('tokHale000000001', {{shots: 1, rollMode: '{mode}'}}).then((shot) => shot.id)"
        )
        assert fired
        referee.wait_for_function(f"game.messages.contents.length === {n}")
        message = last_message(referee)
        assert (message["whisper"], message["blind"]) == (whisper, blind), mode
    assert table.pages.errors == []


# Popped-out windows (v14 only: v13 has none).


def detach_dialog(page: Any) -> Any:
    """Pop the open attack dialog out into its own browser window (its Detach control); that window."""
    with page.expect_popup() as opened:
        page.evaluate(
            f"async () => {{ const {{ AttackDialog }} = await import('{DIALOGS}');"
            " await [...AttackDialog.openDialogs][0].detachWindow(); }"
        )
    popup = opened.value
    popup.locator(".volley-attack-dialog").wait_for()
    return popup


def test_a_popped_out_dialog_keeps_its_keys_focus_and_fit_in_its_own_window(table: Table) -> None:
    page = table.ready()
    open_attack_dialog(page, chart="Raider")
    popup = detach_dialog(page)
    dialog = open_dialog(popup)
    shots = dialog.get_by_role("spinbutton", name="Shots at Raider")
    # The window fits its own browser window, not the main one's 900 px.
    popup.set_viewport_size({"width": 700, "height": 420})
    popup.wait_for_function(
        "() => { const d = document.querySelector('.volley-attack-dialog');"
        " return d && parseFloat(d.style.maxHeight) <= window.innerHeight; }"
    )
    # Enter in a field fires nothing; the focus stays on the field through the preview's redraws.
    shots.fill("2")
    shots.press("Enter")
    settle(page)
    assert cards(page).count() == 0
    assert popup.evaluate("document.activeElement?.getAttribute('name') ?? null") == shots.get_attribute(
        "name"
    )
    # Fire from there: the card is posted, and the window says so in its own live region.
    dialog.get_by_role("button", name="Fire", exact=True).click()
    cards(page).first.wait_for()
    popup.wait_for_function(
        "document.getElementById('volley-announce-dialog')?.textContent.trim().length > 0"
    )
    # Escape closes it, and the detached window with it.
    with popup.expect_event("close"):
        popup.keyboard.press("Escape")
    assert page.evaluate("foundry.applications.detached.windows.size") == 0
    assert table.pages.errors == []


def test_a_card_in_a_popped_out_window_is_drawn_in_the_readers_language(table: Table) -> None:
    """A chat message drawn in a detached window (its HTML from that window): the card is still
    filled in for its reader, with its buttons."""
    page = table.ready()
    dialog = open_attack_dialog(page, chart="Raider")
    dialog.get_by_role("spinbutton", name="Shots at Raider").fill("1")
    dialog.get_by_role("button", name="Fire", exact=True).click()
    cards(page).first.wait_for()
    drawn = page.evaluate(
        """async () => {
          const win = await foundry.applications.detached.openWindow({id: 'chat-popout'});
          const li = win.document.createElement('li');
          const message = game.messages.contents.at(-1);
          li.innerHTML = `<section class="volley-card"></section>`;
          win.document.body.append(li);
          Hooks.callAll('renderChatMessageHTML', message, li, {});
          return [li.querySelector('.volley-card table'), li.querySelector('.volley-card__undo')]
            .every((node) => node !== null);
        }"""
    )
    assert drawn is True
    assert table.pages.errors == []
