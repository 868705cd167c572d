"""The sandbox's stand-in for the Foundry client refuses what Foundry v13 refuses, so the module's tests
can fail where a real table would: document ownership, message authors, world settings, one user in
several browsers, background tabs, core's start-up order, linked and unlinked tokens, whispered and blind
rolls, hooks that throw; and the sandbox keeps its world over a reload without rewriting all of it."""

from __future__ import annotations

from typing import Any

import pytest
from browserkit import (
    ASSISTANT_ID,
    BUDGET_S,
    PLAYER_ID,
    REFEREE_ID,
    Table,
    ms,
    open_as,
    refusal,
    set_hidden,
)

HALE = "canvas.scene.tokens.get('tokHale000000001')"
RAIDER = "canvas.scene.tokens.get('tokRaider0000002')"


def marker(page: Any, other: Any, name: str) -> None:
    """A change the page may make (its own user's flag), then wait for ``other`` to see it: the other
    page has by then also seen anything the first sent before it (one sender's messages keep order)."""
    page.evaluate(f"game.user.setFlag('sandbox-test', 'marker', '{name}')")
    user = page.evaluate("game.user.id")
    other.wait_for_function(f"game.users.get('{user}').flags['sandbox-test']?.marker === '{name}'")


def test_a_player_updates_only_what_it_owns(table: Table) -> None:
    referee = open_as(table, "referee")
    player = open_as(table, "player")

    # The referee's actor: the update's promise rejects as Foundry's server refuses it; nothing changes.
    said = refusal(player, f"{RAIDER}.actor.update({{'flags.volley.cheat': 1, 'system.hp': 99}})")
    assert said == "User Player lacks permission to update Actor [tokRaider0000002-actor]"
    said = refusal(player, f"{RAIDER}.update({{x: 5}})")
    assert said is not None and "lacks permission to update Token" in said
    said = refusal(player, f"{RAIDER}.actor.toggleStatusEffect('prone', {{active: true}})")
    assert said is not None and "lacks permission" in said
    said = refusal(player, "game.actors.get('tokRaider0000002-actor').update({name: 'Mine'})")
    assert said is not None and "lacks permission" in said
    assert player.evaluate(f"{RAIDER}.actor.flags.volley.cheat ?? null") is None

    # Its own character: system.* and embedded Items are written as Foundry writes them, everywhere.
    player.evaluate(f"{HALE}.actor.update({{'system.hp.value': 7, 'flags.volley.mine': true}})")
    player.evaluate(
        f"{HALE}.actor.createEmbeddedDocuments('Item', [{{_id: 'itemRifle000001', name: 'Rifle',"
        " type: 'weapon', system: {ammo: {value: 30}}}])"
    )
    player.evaluate(f"{HALE}.actor.items.get('itemRifle000001').update({{'system.ammo.value': 12}})")
    marker(player, referee, "owned")
    assert referee.evaluate(f"{HALE}.actor.system.hp.value") == 7
    assert referee.evaluate(f"{HALE}.actor.items.get('itemRifle000001').system.ammo.value") == 12
    assert referee.evaluate(f"{HALE}.actor.flags.volley.mine") is True
    assert referee.evaluate(f"{RAIDER}.actor.flags.volley.cheat ?? null") is None
    assert referee.evaluate(f"{RAIDER}.actor.statuses.has('prone')") is False
    assert referee.evaluate(f"{RAIDER}.x") == 300
    assert table.pages.errors == []


def test_linked_and_unlinked_tokens(table: Table) -> None:
    referee = open_as(table, "referee")
    other = open_as(table, "coreferee")
    # The player's character is linked: its token's actor is the world actor.
    assert referee.evaluate(f"{HALE}.actorLink && {HALE}.actor === game.actors.get({HALE}.actor.id)") is True
    # A mook is not: its actor is synthetic, and a change goes to the token's delta, not the world actor.
    assert referee.evaluate(f"{RAIDER}.actorLink") is False
    assert referee.evaluate(
        f"{RAIDER}.actor.isToken && {RAIDER}.actor !== game.actors.get({RAIDER}.actor.id)"
    )
    referee.evaluate(f"{RAIDER}.actor.update({{'flags.volley.state.hit': 2, 'system.wounds': 1}})")
    marker(referee, other, "delta")
    for page in (referee, other):
        assert page.evaluate(f"{RAIDER}.delta.flags.volley.state.hit") == 2
        assert page.evaluate(f"{RAIDER}.actor.system.wounds") == 1
        assert page.evaluate(f"game.actors.get({RAIDER}.actor.id).flags.volley.state ?? null") is None
    assert table.pages.errors == []


def test_chat_messages_follow_v13_authorship(table: Table) -> None:
    referee = open_as(table, "referee")
    player = open_as(table, "player")
    # A player cannot post as somebody else, by data or by option.
    said = refusal(player, f"ChatMessage.create({{content: 'forged', author: '{REFEREE_ID}'}})")
    assert said == "User Player lacks permission to create ChatMessage [" + said.split("[")[1]
    said = refusal(player, f"ChatMessage.create({{content: 'forged'}}, {{userId: '{REFEREE_ID}'}})")
    assert said is None  # the option is ignored: the message is the player's own
    referee.wait_for_function("game.messages.contents.some(m => m.content === 'forged')")
    assert referee.evaluate("game.messages.contents.find(m => m.content === 'forged').author.id") == PLAYER_ID

    # The referee's message: the player may neither edit its flags nor delete it.
    gm_message = referee.evaluate(
        "ChatMessage.create({content: 'gm', flags: {volley: {before: 1}}}).then(m => m.id)"
    )
    player.wait_for_function(f"game.messages.has('{gm_message}')")
    said = refusal(player, f"game.messages.get('{gm_message}').update({{'flags.volley.before': 99}})")
    assert said == f"User Player lacks permission to update ChatMessage [{gm_message}]"
    said = refusal(player, f"game.messages.get('{gm_message}').delete()")
    assert said == f"User Player lacks permission to delete ChatMessage [{gm_message}]"
    # Its own message: it owns it, but cannot hand it to the referee.
    mine = player.evaluate("ChatMessage.create({content: 'mine'}).then(m => m.id)")
    assert player.evaluate(f"game.messages.get('{mine}').author.id") == PLAYER_ID
    said = refusal(player, f"game.messages.get('{mine}').update({{author: '{REFEREE_ID}'}})")
    assert said is not None and "lacks permission" in said
    player.evaluate(f"game.messages.get('{mine}').update({{content: 'mine, edited'}})")
    marker(player, referee, "messages")
    assert referee.evaluate(f"game.messages.get('{gm_message}').flags.volley.before") == 1
    assert referee.evaluate(f"game.messages.get('{mine}').content") == "mine, edited"
    assert referee.evaluate(f"game.messages.get('{mine}').author.id") == PLAYER_ID
    # A GM may delete anyone's: gone from every page.
    referee.evaluate(f"game.messages.get('{mine}').delete()")
    player.wait_for_function(f"!game.messages.has('{mine}')")
    assert player.locator(f"[data-message-id='{mine}']").count() == 0
    assert table.pages.errors == []


def test_world_settings_are_for_gms_and_assistants(table: Table) -> None:
    referee = open_as(table, "referee")
    player = open_as(table, "player")
    assistant = open_as(table, "assistant")
    assert assistant.evaluate("game.user.isGM && game.user.role") == 3
    # The player's page never wrote the bridge's address: it reads the world's.
    url = referee.evaluate("game.settings.get('volley', 'bridgeUrl')")
    assert player.evaluate("game.settings.get('volley', 'bridgeUrl')") == url
    said = refusal(player, "game.settings.set('volley', 'bridgeUrl', 'ws://evil.example/ws')")
    assert said == "User Player lacks permission to update Setting [volley.bridgeUrl]"
    # An assistant GM may (SETTINGS_MODIFY), and every page sees it.
    assert refusal(assistant, "game.settings.set('volley', 'timeout', 21)") is None
    referee.wait_for_function("game.settings.get('volley', 'timeout') === 21")
    player.wait_for_function("game.settings.get('volley', 'timeout') === 21")
    assert referee.evaluate("game.settings.get('volley', 'bridgeUrl')") == url
    # A client setting is the player's own.
    assert refusal(player, "game.settings.set('core', 'rollMode', 'selfroll')") is None
    assert referee.evaluate(f"game.users.get('{ASSISTANT_ID}').active") is True
    assert table.pages.errors == []


SOCKET_LOG = """() => {
  window.heard = [];
  game.socket.on('module.sandbox-test', (data, sender) => window.heard.push({data, sender}));
}"""


def test_one_user_in_two_browsers(table: Table) -> None:
    first = open_as(table, "referee")
    second = open_as(table, "referee", tab=2)
    player = open_as(table, "player")
    assert second.evaluate("game.user.id") == first.evaluate("game.user.id") == REFEREE_ID
    assert second.evaluate("game.socket.id") != first.evaluate("game.socket.id")
    for page in (first, second, player):
        page.evaluate(SOCKET_LOG)
    # A module socket message reaches every other browser, the same user's too, with the sender's user
    # id set by the "server" (a claim in the payload changes nothing); never the sender itself.
    second.evaluate(f"game.socket.emit('module.sandbox-test', {{from: '{PLAYER_ID}'}})")
    first.wait_for_function("window.heard.length === 1")
    player.wait_for_function("window.heard.length === 1")
    assert first.evaluate("window.heard[0].sender") == REFEREE_ID
    assert player.evaluate("window.heard[0]") == {"data": {"from": PLAYER_ID}, "sender": REFEREE_ID}
    player.evaluate("game.socket.emit('module.sandbox-test', 'from the player')")
    second.wait_for_function("window.heard.length === 1")
    assert second.evaluate("window.heard") == [{"data": "from the player", "sender": PLAYER_ID}]
    assert player.evaluate("window.heard.length") == 1  # not its own
    # Only module.* and system.* events are relayed.
    assert player.evaluate("game.socket.emit('userActivity', {})") is False

    # The user stays connected while one of its browsers is open.
    player.evaluate(
        "window.left = []; Hooks.on('userConnected', (user, active) => window.left.push([user.id, active]))"
    )
    second.close()
    marker(first, player, "after-second")
    assert player.evaluate(f"game.users.get('{REFEREE_ID}').active") is True
    assert player.evaluate("window.left") == []
    first.close()
    player.wait_for_function(f"!game.users.get('{REFEREE_ID}').active")
    assert player.evaluate("window.left") == [[REFEREE_ID, False]]
    assert table.pages.errors == []


def test_a_background_tab_and_a_dice_so_nice_that_never_resolves(table: Table) -> None:
    page = open_as(table, "referee", extra="&dice3d=never")
    page.evaluate(
        "window.changes = [];"
        " document.addEventListener('visibilitychange', () => changes.push(document.visibilityState))"
    )
    set_hidden(page)
    assert page.evaluate("[document.hidden, document.visibilityState]") == [True, "hidden"]
    shown = page.evaluate(
        "Promise.race([game.dice3d.show({throws: [{dice: []}]}).then(() => 'shown'),"
        " new Promise(r => setTimeout(() => r('still waiting'), 300))])"
    )
    assert shown == "still waiting"
    set_hidden(page, False)
    assert page.evaluate("window.changes") == ["hidden", "visible"]
    assert page.evaluate("sandbox.dice3d.shown.length") == 1
    # The kind that resolves does so once the tab is visible again.
    hidden = open_as(table, "referee", tab=2, extra="&dice3d=instant&hidden=1")
    hidden.evaluate(
        "() => { window.done = false;"
        " void game.dice3d.show({throws: []}).then(() => { window.done = true; }); }"
    )
    assert hidden.evaluate("document.hidden && !window.done") is True
    set_hidden(hidden, False)
    hidden.wait_for_function("window.done")
    assert table.pages.errors == []


def test_core_start_up_order_draws_the_chat_log_before_ready(table: Table) -> None:
    referee = open_as(table, "referee")
    referee.evaluate("ChatMessage.create({content: '<p class=\"early\">already there</p>'})")
    referee.evaluate("sandbox.flush()")
    player = open_as(table, "player")
    assert player.evaluate("sandbox.bootOrder") == ["init", "i18nInit", "setup", "chatLog", "ready"]
    # The message was drawn, through renderChatMessageHTML, before ready fired.
    drawn = player.evaluate("sandbox.table.rendered.find(r => r.content.includes('already there'))")
    assert drawn["ready"] is False
    assert player.locator(".chat-message .early").inner_text() == "already there"
    assert table.pages.errors == []


def test_hooks_call_all_logs_a_throwing_handler_and_calls_the_next(table: Table) -> None:
    page = open_as(table, "referee")
    result = page.evaluate(
        """() => {
          const calls = [];
          Hooks.on('sandboxTest', () => { calls.push(1); throw new Error('boom'); });
          Hooks.on('sandboxTest', () => { calls.push(2); });
          const all = Hooks.callAll('sandboxTest');
          const one = Hooks.call('sandboxTest');
          return {all, one, calls, errors: sandbox.hookErrors.filter(e => e.hook === 'sandboxTest').length};
        }"""
    )
    assert result == {"all": True, "one": True, "calls": [1, 2, 1, 2], "errors": 2}
    assert table.pages.errors == []


#: A roll message made as core makes one: v14's ChatMessage.applyMode with a message mode, v13's
#: applyRollMode with the roll mode of the same name.
ROLL = """(mode) => {
  const {Die} = foundry.dice.terms;
  const roll = Roll.fromTerms([new Die({number: 2, faces: 6, results: [{result: 4}, {result: 5}]})]);
  const legacy = {public: 'publicroll', gm: 'gmroll', blind: 'blindroll', self: 'selfroll'}[mode];
  const base = {content: '', rolls: [roll], flavor: mode};
  const data = game.release.generation >= 14
    ? ChatMessage.applyMode(base, mode) : ChatMessage.applyRollMode(base, legacy);
  return ChatMessage.create(data).then(m => m.id);
}"""


@pytest.mark.foundry(13, 14)
def test_whispered_and_blind_rolls_are_seen_as_core_shows_them(table: Table) -> None:
    referee = open_as(table, "referee")
    player = open_as(table, "player")
    blind = player.evaluate(ROLL, "blind")
    private = player.evaluate(ROLL, "gm")
    public = player.evaluate(ROLL, "public")
    selfroll = referee.evaluate(ROLL, "self")
    whisper = referee.evaluate(
        "ChatMessage.create({content: 'for GMs only', whisper: [game.user.id]}).then(m => m.id)"
    )
    marker(referee, player, "rolls")
    referee.wait_for_function(f"game.messages.has('{public}')")

    def shown(page: Any, message: str) -> str:
        return page.locator(f"[data-message-id='{message}']").inner_text()

    # The blind roll: in the player's own log as "???"; the GMs see it.
    assert "???" in shown(player, blind) and "privately rolled some dice" in shown(player, blind)
    assert "9" in shown(referee, blind) and "???" not in shown(referee, blind)
    # A GM roll: its author sees it, the GMs see it.
    assert "9" in shown(player, private) and "???" not in shown(player, private)
    assert "9" in shown(referee, private)
    assert "9" in shown(referee, public) and "9" in shown(player, public)
    # The referee's self roll is listed for the player, its content hidden; a whisper is not listed.
    assert "???" in shown(player, selfroll)
    assert player.locator(f"[data-message-id='{whisper}']").count() == 0
    assert referee.locator(f"[data-message-id='{whisper}']").count() == 1
    assert player.evaluate(f"game.messages.get('{blind}').isContentVisible") is False
    assert player.evaluate(f"game.messages.get('{blind}').rolls[0].total") == 9
    assert table.pages.errors == []


def test_the_world_keeps_a_thousand_cards_over_a_reload(table: Table) -> None:
    page = open_as(table, "referee")
    # About as big as a real card (its HTML and flags): ~10 KB each, 10 MB in all, twice what the old
    # sessionStorage keeper could hold.
    page.evaluate(
        """async () => {
          const body = '<div class="volley-card">' + 'x'.repeat(9000) + '</div>';
          for (let i = 0; i < 1000; i += 1) {
            await ChatMessage.create({content: body, flags: {volley: {n: i, before: {rounds: i}}}});
          }
          await sandbox.flush();
        }"""
    )
    assert page.evaluate("sandbox.world.store.errors") == []
    page.reload()
    # A thousand cards take a while to draw on a busy machine: a condition, with room.
    page.wait_for_function(
        "window.sandbox && (window.sandbox.ready || window.sandbox.bootError)", timeout=ms(2 * BUDGET_S)
    )
    assert page.evaluate("sandbox.bootError") is None
    assert page.evaluate("game.messages.size") == 1000
    assert page.evaluate("game.messages.contents.at(-1).flags.volley.n") == 999
    assert page.locator("#chat-log > li").count() == 1000
    assert table.pages.errors == []


PLAYS = "[game.settings.get('volley', 'ruleSystem'), canvas.scene.system]"


def test_opening_the_d100_scene_after_megatraveller_plays_d100(table: Table) -> None:
    page = open_as(table, "referee")
    page.locator("#scene-select").select_option("megatraveller")
    page.wait_for_function("game.settings.get('volley', 'ruleSystem') === 'megatraveller'")
    page.evaluate("sandbox.flush()")
    page.goto(f"{table.sandbox.url}?scene=d100")
    page.wait_for_function("window.sandbox && window.sandbox.ready")
    assert page.evaluate(PLAYS) == ["d100", "d100"]
    # Without ?scene=, a reload stays where the table was.
    page.goto(table.sandbox.url)
    page.wait_for_function("window.sandbox && window.sandbox.ready")
    assert page.evaluate(PLAYS) == ["d100", "d100"]
    assert table.pages.errors == []


#: A window whose renders wait on a gate the test opens (``window.gate.open()``), one part drawn.
GATED_APP = """
  const { ApplicationV2 } = foundry.applications.api;
  let release;
  window.gate = { closed: new Promise((resolve) => (release = resolve)), open: () => release() };
  window.gated = false;
  class Gated extends ApplicationV2 {
    static DEFAULT_OPTIONS = { id: 'sandbox-test-gated', window: { title: 'Gated' } };
    async _renderContent() {
      if (window.gated) await window.gate.closed;
      this.draws = (this.draws ?? 0) + 1;
      this.element.querySelector('.window-content').textContent = `drawn ${this.draws}`;
    }
  }
  window.app = new Gated();
  0;
"""


def test_render_and_close_take_turns_as_in_v13(table: Table) -> None:
    """v13's ApplicationV2 (client/applications/api/application.mjs): render and close go through one
    semaphore; ``rendered`` is true only in the RENDERED state (false while any render draws, and while
    closing); a window that closes stays in the page, CLOSING, until its transition ends; a render asked
    of a closed window draws nothing unless forced. Before, the stand-in closed at once, and a render
    under way at the close put the window back on the table, which Foundry never does."""
    page = table.ready()
    page.evaluate(GATED_APP)
    page.evaluate("app.render({force: true}).then(() => 0)")
    page.wait_for_function("app.rendered && document.getElementById('sandbox-test-gated')")
    states = page.evaluate("foundry.applications.api.ApplicationV2.RENDER_STATES")
    assert states == {"ERROR": -3, "CLOSING": -2, "CLOSED": -1, "NONE": 0, "RENDERING": 1, "RENDERED": 2}

    # A re-render held in its drawing: RENDERING, not rendered; the close asked meanwhile waits for it.
    page.evaluate("window.gated = true; window.redraw = app.render(); window.closing = app.close(); 0")
    page.wait_for_function(f"app.state === {states['RENDERING']}")
    assert page.evaluate("app.rendered") is False
    page.evaluate("window.after = app.render(); 0")  # asked after the close: must draw nothing
    assert page.evaluate("document.getElementById('sandbox-test-gated').isConnected") is True
    page.evaluate("gate.open()")
    page.wait_for_function(f"app.state === {states['CLOSING']} || app.state === {states['CLOSED']}")
    assert page.evaluate("app.draws") == 2, "the render asked before the close drew once"
    page.evaluate("Promise.all([redraw, closing, after]).then(() => 0)")
    closed = page.evaluate("[app.state, app.rendered, app.element, app.draws]")
    assert closed == [states["CLOSED"], False, None, 2]
    assert page.evaluate("document.getElementById('sandbox-test-gated')") is None

    # Forced, a closed window renders afresh; closing it animates away: CLOSING with its element still in
    # the page (seen at once: the transition ends on a later frame, at the soonest 0.12 s on).
    page.evaluate("window.gated = false; app.render({force: true}).then(() => 0)")
    page.wait_for_function("app.rendered && app.draws === 3")
    seen = page.evaluate(
        """async () => {
          const closing = app.close();
          const seen = [];
          while (app.state !== foundry.applications.api.ApplicationV2.RENDER_STATES.CLOSED) {
            await new Promise((resolve) => setTimeout(resolve, 0));
            seen.push([app.state, Boolean(document.getElementById('sandbox-test-gated')?.isConnected)]);
          }
          await closing;
          return seen;
        }"""
    )
    assert seen[0] == [states["CLOSING"], True], seen
    gone = page.evaluate("[app.state, document.getElementById('sandbox-test-gated')]")
    assert gone == [states["CLOSED"], None]
    assert table.pages.errors == []


def test_the_socket_passes_what_the_server_passes_and_routes_recipients(table: Table) -> None:
    """A module event reaches a handler as Foundry's server relays it: the event's first argument and
    the sender's user id, nothing else (a second data argument cannot forge a sender), and an event
    sent with ``{recipients}`` reaches those users' browsers only."""
    referee = open_as(table, "referee")
    second = open_as(table, "referee", tab=2)
    player = open_as(table, "player")
    for page in (referee, second, player):
        page.evaluate(
            "() => { window.heard = [];"
            " game.socket.on('module.sandbox-test', (...args) => window.heard.push(args)); }"
        )
    player.evaluate(f"game.socket.emit('module.sandbox-test', {{n: 1}}, '{REFEREE_ID}', 'extra')")
    referee.wait_for_function("window.heard.length === 1")
    assert referee.evaluate("window.heard[0]") == [{"n": 1}, PLAYER_ID]
    # To the referee's browsers only: the player's other pages never receive it.
    referee.evaluate(f"game.socket.emit('module.sandbox-test', {{n: 2}}, {{recipients: ['{REFEREE_ID}']}})")
    referee.evaluate(f"game.socket.emit('module.sandbox-test', {{n: 3}}, {{recipients: ['{PLAYER_ID}']}})")
    second.wait_for_function("window.heard.length === 2")
    player.wait_for_function("window.heard.length === 1")
    assert second.evaluate("window.heard.map(([d]) => d.n)") == [1, 2]
    assert player.evaluate("window.heard") == [[{"n": 3}, REFEREE_ID]]
    assert table.pages.errors == []


def test_v14_message_modes_and_the_deprecated_roll_mode(table: Table) -> None:
    """v14: core's ``core.messageMode`` (public, gm, blind, self, ic) and ``CONFIG.ChatMessage.modes``;
    ``core.rollMode`` still answers, in the old names, and logs a compatibility warning each time, as do
    ``ChatMessage.applyRollMode`` and ``CONST.DICE_ROLL_MODES``."""
    page = open_as(table, "player")
    assert page.evaluate("game.release.generation") == 14
    assert page.evaluate("Object.keys(CONFIG.ChatMessage.modes)") == ["public", "gm", "blind", "self", "ic"]
    assert page.evaluate("game.settings.get('core', 'messageMode')") == "public"
    assert page.evaluate("sandbox.compatWarnings.length") == 0
    page.evaluate("game.settings.set('core', 'messageMode', 'blind')")
    assert page.evaluate("game.settings.get('core', 'rollMode')") == "blindroll"
    page.evaluate("CONST.DICE_ROLL_MODES.BLIND")
    page.evaluate("ChatMessage.applyRollMode({}, 'gmroll')")
    warned = page.evaluate("sandbox.compatWarnings.map((w) => [w.message, w.since, w.until, w.fromVolley])")
    assert [message.split(" ")[0:2] for message, *_ in warned] == [
        ["The", "`core.rollMode`"],
        ["`CONST.DICE_ROLL_MODES`", "is"],
        ["ChatMessage.applyRollMode", "is"],
    ]
    assert {(since, until, volley) for _, since, until, volley in warned} == {(14, 16, False)}
    assert table.pages.errors == []


@pytest.mark.foundry(13)
def test_v13_has_roll_modes_and_no_message_mode(table: Table) -> None:
    page = open_as(table, "player")
    assert page.evaluate("game.release.generation") == 13
    assert page.evaluate("game.settings.get('core', 'rollMode')") == "publicroll"
    said = refusal(page, "game.settings.get('core', 'messageMode')")
    assert said == "setting core.messageMode is not registered"
    assert page.evaluate("CONFIG.ChatMessage.modes ?? null") is None
    assert page.evaluate("ChatMessage.applyMode ?? null") is None
    assert page.evaluate("Array.isArray(CONFIG.statusEffects)") is True
    assert page.evaluate("sandbox.compatWarnings.length") == 0
    assert table.pages.errors == []


def test_v14_status_effects_are_keyed_by_id_and_a_system_may_replace_them(table: Table) -> None:
    """v14's CONFIG.statusEffects: keyed by id, ``mergeObject`` adds to it, an array method still works
    but warns; the sandbox's game system, like Twodsix with "reduce status icons", replaces it at
    ``ready`` with a plain object of the statuses it keeps (here by the time the page has booted)."""
    page = table.pages.new()
    page.add_init_script(
        "window.statusShapes = [];"
        " window.addEventListener('DOMContentLoaded', () => {"
        " const seen = () => window.statusShapes.push({"
        "   prone: CONFIG.statusEffects.prone?.id ?? null,"
        "   array: Array.isArray(CONFIG.statusEffects),"
        "   aiming: CONFIG.statusEffects.aiming?.id ?? null });"
        " const wait = () => (window.Hooks ? (Hooks.once('setup', () => queueMicrotask(seen)),"
        "   Hooks.once('i18nInit', seen)) : setTimeout(wait, 5));"
        " wait(); });"
    )
    table.open(page=page, view="player")
    at_init, after_setup = page.evaluate("window.statusShapes")
    assert at_init == {"prone": "prone", "array": True, "aiming": None}, "core's registry, keyed"
    assert after_setup["aiming"] == "aiming", "a system merged its own in"
    # After ready: a plain object, as the system left it.
    assert page.evaluate("Array.isArray(CONFIG.statusEffects)") is False
    assert "prone" in page.evaluate("Object.keys(CONFIG.statusEffects)")
    assert page.evaluate("sandbox.compatWarnings.filter((w) => w.fromVolley).length") == 0
    assert table.pages.errors == []


DIALOGS = "/modules/volley/scripts/systems/common/attack-dialog.js"
DETACH = f"""async () => {{
  const {{ AttackDialog }} = await import('{DIALOGS}');
  const dialog = [...AttackDialog.openDialogs][0];
  await dialog.detachWindow();
  return dialog.element.ownerDocument === document;
}}"""


def test_a_v14_window_detaches_into_a_document_of_its_own(table: Table) -> None:
    """v14: any window may be popped out into a browser window of its own. The stand-in draws it
    there anew, so its nodes belong to that window (``instanceof`` against the main window's classes
    is false for them), and attaching it brings it back."""
    page = table.ready()
    page.get_by_role("button", name="Sgt. Hale", exact=True).click()
    page.locator("#token-hud").get_by_role("button", name="Fire", exact=True).click()
    page.locator(".volley-attack-dialog").wait_for()
    with page.expect_popup() as opened:
        assert page.evaluate(DETACH) is False
    popup = opened.value
    popup.locator(".volley-attack-dialog").wait_for()
    assert page.locator(".volley-attack-dialog").count() == 0
    realm = page.evaluate(
        f"""async () => {{
          const {{ AttackDialog }} = await import('{DIALOGS}');
          const element = [...AttackDialog.openDialogs][0].element;
          const own = element.ownerDocument.defaultView;
          return [element instanceof HTMLElement, own.HTMLElement === HTMLElement,
                  foundry.applications.detached.windows.size];
        }}"""
    )
    assert realm == [False, False, 1]
    # Attached again: the detached window holds nothing more, so it closes.
    with popup.expect_event("close"):
        page.evaluate(
            f"""async () => {{
              const {{ AttackDialog }} = await import('{DIALOGS}');
              await [...AttackDialog.openDialogs][0].attachWindow();
            }}"""
        )
    page.locator(".volley-attack-dialog").wait_for()
    assert page.evaluate("foundry.applications.detached.windows.size") == 0
    assert table.pages.errors == []
