"""A real table (issue #17): several browsers at once, a player who cheats from the console, a second tab
of the referee, a reload of the referee's page with a shot in flight, a background tab whose Dice So Nice
never finishes, private and blind rolls seen from each user's page, and a chat log drawn before `ready`.

Every page is a browser of its own (``open_as``); the stand-in holds them to Foundry v13's rules
(authors, ownership, sender ids on the module socket), so a cheat that Foundry would let through is let
through here too, and the module must be the one that stops it.
"""

from __future__ import annotations

from typing import Any

import pytest
from browserkit import (
    BUDGET_S,
    CONNECTION_STATE,
    FIRE,
    MP5,
    PLAYER_ID,
    REFEREE_ID,
    SHOOTER,
    Table,
    cards,
    ms,
    open_as,
    open_attack_dialog,
    open_dialog,
    refusal,
    set_message_mode,
    wait_booted,
    wait_connected,
)

BRIDGE = "/modules/volley/scripts/foundry/bridge.js"
CHOICE = {
    "system": "gurps",
    "token": "tokHale000000001",
    "weapon": "wMp5000001",
    "action": "attack",
    "modifier": 0,
    "targets": [{"id": "tokRaider0000002", "shots": 3, "modifier": 0}],
}


def relay(page: Any, message_id: str, choice: dict[str, Any] | None = None, kind: str = "attack") -> Any:
    """Send a choice through the module's own relay, as the dialog does (and as a console can)."""
    return page.evaluate(
        f"async ([id, choice, type]) => (await import('{BRIDGE}')).sendRelayed({{type, id, choice}})",
        [message_id, choice or CHOICE, kind],
    )


def start_relay(page: Any, message_id: str, choice: dict[str, Any] | None = None) -> None:
    """Send a choice and keep the answer in ``window.answers[id]`` when it comes."""
    page.evaluate(
        f"""async ([id, choice]) => {{
          window.answers ??= {{}};
          const bridge = await import('{BRIDGE}');
          bridge.sendRelayed({{type: 'attack', id, choice}}).then((a) => (window.answers[id] = a));
        }}""",
        [message_id, choice or CHOICE],
    )


def loaded(page: Any) -> int:
    return int(page.evaluate(f"{MP5}.state.loaded"))


def message_count(page: Any) -> int:
    return int(page.evaluate("game.messages.contents.length"))


def holder_browser(page: Any) -> str:
    """The browser id the holder announces (every GM browser says it is there when asked)."""
    return str(
        page.evaluate(
            """() => new Promise((resolve) => {
              game.socket.on('module.volley', (d) => { if (d?.kind === 'volley.here') resolve(d.browser); });
              game.socket.emit('module.volley', {kind: 'volley.here?'});
            })"""
        )
    )


def emit_then_mark(sender: Any, receiver: Any, data: dict[str, Any]) -> None:
    """``sender`` emits ``data`` on the module socket, then a marker; once ``receiver`` has the marker it
    has had ``data`` too (one sender's messages arrive in order)."""
    receiver.evaluate(
        "() => { window.marked = new Promise((r) =>"
        " game.socket.on('module.volley', (d) => d?.kind === 'test.mark' && r())); }"
    )
    sender.evaluate(
        "(d) => { game.socket.emit('module.volley', d);"
        " game.socket.emit('module.volley', {kind: 'test.mark'}); }",
        data,
    )
    receiver.evaluate("window.marked")


#: Run before a page's own scripts: Volley's socket messages reaching this page are held back (in
#: arrival order) while ``window.volleyHeld`` is a list, and delivered by ``window.volleyRelease()``: the
#: page boots as one on a table whose Foundry server is slow to relay the referee's answer.
HOLD_VOLLEYS_ANSWERS = """(() => {
  const Native = BroadcastChannel;
  window.volleyHeld = [];
  window.volleyRelease = () => {
    const held = window.volleyHeld;
    window.volleyHeld = null;
    for (const deliver of held) deliver();
  };
  window.BroadcastChannel = class extends Native {
    set onmessage(handler) {
      super.onmessage = (event) => {
        const hold = window.volleyHeld && event.data?.name === 'module.volley';
        if (hold) window.volleyHeld.push(() => handler(event));
        else handler(event);
      };
    }
    get onmessage() {
      return super.onmessage;
    }
  };
})();"""


def test_a_request_made_as_the_page_is_ready_waits_to_hear_the_holder(table: Table) -> None:
    """A macro run the moment a player's page is ready, before the referee's answer to its hello has
    arrived, is sent to the referee once it arrives; it is not refused as "no referee" (CI saw that)."""
    referee = open_as(table, "referee")
    wait_connected(referee)
    player = table.pages.new()
    player.add_init_script(HOLD_VOLLEYS_ANSWERS)
    table.open(page=player, view="player", extra="&settle=60000")
    player.wait_for_function("window.volleyHeld.length > 0")  # the referee's answer came, and is held back
    answer = player.evaluate(
        f"""async (choice) => {{
          const bridge = await import('{BRIDGE}');
          const sent = bridge.sendRelayed({{type: 'attack', id: 'volley-early-1', choice}});
          const early = await Promise.race([sent, new Promise((r) => setTimeout(() => r('waiting'), 50))]);
          window.volleyRelease();
          return {{early, answer: await sent}};
        }}""",
        CHOICE,
    )
    assert answer["early"] == "waiting", answer
    assert answer["answer"]["type"] == "result", answer
    referee.wait_for_function("game.messages.contents.length === 1")
    assert table.pages.errors == []


@pytest.mark.foundry(13, 14)
def test_a_cheating_player_changes_nothing_on_any_token(table: Table) -> None:
    referee = open_as(table, "referee")
    wait_connected(referee)
    player = open_as(table, "player")
    first = relay(player, "volley-shot-1")
    assert first["type"] == "result" and first["id"] == "volley-shot-1"
    referee.wait_for_function("game.messages.contents.length === 1")
    card = referee.evaluate(
        "(m => ({author: m.author?.id ?? m.author, alias: m.speaker.alias, key: m.flags.volley.requestId}))"
        "(game.messages.contents[0])"
    )
    assert card == {"author": REFEREE_ID, "alias": "Sgt. Hale", "key": f"{PLAYER_ID}.volley-shot-1"}
    after_first = loaded(referee)
    assert relay(player, "volley-shot-2")["type"] == "result"
    referee.wait_for_function("game.messages.contents.length === 2")
    after_second = loaded(referee)
    assert after_second < after_first

    # A reused id (the first shot's, when the magazine was fuller): the same answer, nothing applied again.
    again = relay(player, "volley-shot-1")
    assert again["type"] == "result"
    assert loaded(referee) == after_second, "an old result's rounds were written back: free ammunition"
    assert message_count(referee) == 2

    # The same through the socket by hand, straight at the holder's browser: still nothing.
    holder = holder_browser(player)
    emit_then_mark(
        player,
        referee,
        {
            "kind": "volley.request",
            "from": PLAYER_ID,
            "browser": "x",
            "to": holder,
            "message": {"type": "attack", "id": "volley-shot-1", "choice": CHOICE},
        },
    )
    referee.wait_for_function("game.messages.contents.length === 2")
    assert loaded(referee) == after_second

    # An edited `before` on a real card: Foundry refuses a player's update of a GM's message.
    edit = (
        "game.messages.contents[0].update({'flags.volley.before': [{token: 'tokHale000000001', flags: {}}]})"
    )
    assert refusal(player, edit) is not None
    # A forged card: the player's own message with a real card's flags gets no Undo on the referee's page.
    forged = player.evaluate(
        """async () => (await ChatMessage.create({content: '<section class="volley-card">forged</section>',
             flags: {volley: {...game.messages.contents[0].flags.volley, requestId: 'forged',
                              seal: '0'.repeat(64)}}})).id"""
    )
    referee.wait_for_function("game.messages.contents.length === 3")
    forged_li = referee.locator(f'[data-message-id="{forged}"]')
    forged_li.wait_for()
    assert forged_li.get_by_role("button", name="Undo").count() == 0
    assert cards(referee).nth(0).get_by_role("button", name="Undo").count() == 1, (
        "the real card keeps its Undo"
    )

    # A forged "bridge down" naming the holder's browser: another page of the table does not believe it.
    other = open_as(table, "player", tab=2)
    other.wait_for_function(f"import('{BRIDGE}').then((b) => b.bridgeStatus().state === 'ready')")
    emit_then_mark(
        player, other, {"kind": "volley.status", "browser": holder, "status": {"state": "stopped"}}
    )
    # A page that has just opened may still ask the holder again and show "unknown" for a moment while
    # the answer comes: it is "ready" once it has it. A believed forgery would stay "stopped".
    other.wait_for_function(f"import('{BRIDGE}').then((b) => b.bridgeStatus().state === 'ready')")

    # A forged answer to a request still waiting (the holder's answers are held back for the moment).
    referee.evaluate(
        "() => { window.realEmit = game.socket.emit.bind(game.socket); window.heldReplies = [];"
        " game.socket.emit = (n, d) =>"
        " (d?.kind === 'volley.reply' ? window.heldReplies.push([n, d]) : realEmit(n, d)); }"
    )
    co = open_as(table, "coreferee", extra="&token=none")
    start_relay(co, "volley-co-1")
    # (The co-referee, a GM without the token, also asks the holder to lift the private cards above.)
    referee.wait_for_function("window.heldReplies.some(([, d]) => d.id === 'volley-co-1')")
    emit_then_mark(
        player,
        co,
        {
            "kind": "volley.reply",
            "to": "gm0000000000000c",
            "id": "volley-co-1",
            "browser": holder,
            "reply": {"type": "error", "code": "no_gm", "message": "forged"},
        },
    )
    assert co.evaluate("window.answers['volley-co-1'] ?? null") is None, (
        "a player answered the co-referee's request"
    )
    referee.evaluate(
        "() => { game.socket.emit = realEmit; for (const [n, d] of heldReplies) realEmit(n, d); }"
    )
    co.wait_for_function("window.answers['volley-co-1']?.type === 'result'")
    assert table.pages.errors == []


@pytest.mark.foundry(13, 14)
def test_a_second_tab_of_the_referee_follows_and_takes_over_when_the_first_goes(table: Table) -> None:
    first = open_as(table, "referee")
    wait_connected(first)
    second = open_as(table, "referee", tab=2)
    second.wait_for_function(f"import('{BRIDGE}').then((b) => b.isFollower())")
    assert second.evaluate(CONNECTION_STATE) is None, "the second tab opened a connection of its own"
    second.locator(".volley-bridge-status").first.wait_for()
    second.wait_for_function(
        "[...document.querySelectorAll('.volley-bridge-status')]"
        ".some((l) => l.textContent.includes('held by your other browser tab'))"
    )
    player = open_as(table, "player")
    for n in (1, 2):
        assert relay(player, f"volley-two-tabs-{n}")["type"] == "result"
        first.wait_for_function(f"game.messages.contents.length === {n}")
    assert relay(second, "volley-from-follower")["type"] == "result", "the follower relays through the holder"
    first.wait_for_function("game.messages.contents.length === 3")
    assert message_count(second) == 3
    assert first.evaluate("game.messages.contents.every((m) => m.flags.volley?.applied === true)")

    # The first tab closes: the second takes the bridge, and the table plays on with one card a shot.
    first.close()
    wait_connected(second)
    assert relay(player, "volley-after-handover")["type"] == "result"
    second.wait_for_function("game.messages.contents.length === 4")
    assert table.pages.errors == []


def test_a_lone_referee_page_takes_the_bridge_at_once_and_a_second_tab_still_waits(table: Table) -> None:
    """A GM page waits a second (the module's settle time) for its user's other browsers to say they hold
    the bridge. The sandbox knows every page at its table, so a test's first page (``settle=lone``) skips
    that wait when it is the only GM page; a second tab asking the same is refused it and follows."""
    first = open_as(table, "referee")
    wait_connected(first)
    assert first.evaluate("CONFIG.volley?.presence?.settleMs ?? null") == 0
    second = open_as(table, "referee", tab=2, extra="&settle=lone")
    second.wait_for_function(f"import('{BRIDGE}').then((b) => b.isFollower())")
    assert second.evaluate("CONFIG.volley?.presence?.settleMs ?? null") is None
    assert second.evaluate(CONNECTION_STATE) is None, "the second tab opened a connection of its own"
    assert table.pages.errors == []


@pytest.mark.foundry(13, 14)
def test_the_referee_reloads_with_a_players_shot_in_flight(table: Table) -> None:
    referee = open_as(table, "referee")
    wait_connected(referee)
    player = open_as(table, "player")
    before = loaded(player)
    # The bridge answers; the referee's page goes away before it writes a thing.
    referee.evaluate(
        "() => { ChatMessage.create = () => {"
        " setTimeout(() => location.reload(), 0); return new Promise(() => {}); }; }"
    )
    with referee.expect_navigation(timeout=ms(BUDGET_S)):
        start_relay(player, "volley-in-flight")
    wait_booted(referee)
    wait_connected(referee)
    player.wait_for_function("window.answers?.['volley-in-flight'] !== undefined", timeout=ms(1.5 * BUDGET_S))
    answer = player.evaluate("window.answers['volley-in-flight']")
    assert answer["type"] == "result", answer
    referee.wait_for_function("game.messages.contents.length === 1")
    # The choice names no mode, so the card is private: its result is under its veil, which the
    # referee's browser lifts (foundry/chat.js cardRecord).
    card = referee.evaluate(
        "import('/modules/volley/scripts/foundry/chat.js')"
        ".then((chat) => chat.cardRecord(game.messages.contents[0]))"
    )
    assert card["requestId"] == f"{PLAYER_ID}.volley-in-flight" and card["applied"] is True
    spent = before - int(card["result"]["weapon"]["loaded"])
    assert spent in (0, 1, 3), "one roll's rounds"
    player.wait_for_function(f"{MP5}.state.loaded === {before - spent}")
    # Asking again changes nothing: the same roll, no second card, the rounds spent once.
    assert relay(player, "volley-in-flight")["type"] == "result"
    assert message_count(referee) == 1 and loaded(referee) == before - spent
    assert table.pages.errors == []


def test_a_hidden_referee_tab_whose_dice_never_finish_holds_nothing_up(table: Table) -> None:
    referee = open_as(table, "referee", extra="&hidden=1&dice3d=never")
    wait_connected(referee)
    player = open_as(table, "player", extra="&dice3d=instant")
    answer = relay(player, "volley-hidden-1")
    assert answer["type"] == "result"
    referee.wait_for_function("game.messages.contents.length === 1")
    message_id = referee.evaluate("game.messages.contents[0].id")
    assert referee.evaluate("game.messages.contents[0].rolls.length") > 0, "the card holds the bridge's dice"
    player.wait_for_function(f"sandbox.dice3d.animated.includes('{message_id}')")
    assert table.pages.errors == []


@pytest.mark.foundry(13, 14)
def test_blind_private_and_self_rolls_as_each_user_sees_them(table: Table) -> None:
    referee = open_as(table, "referee")
    wait_connected(referee)
    player = open_as(table, "player")
    co = open_as(table, "coreferee", extra="&token=none")
    cases = (
        # mode: (the player reads the card, the referee reads it, the co-referee reads it)
        ("blind", False, True, True),
        ("gm", True, True, True),
        ("self", True, False, False),
    )
    for n, (mode, player_reads, referee_reads, co_reads) in enumerate(cases, start=1):
        set_message_mode(player, mode)
        answer = relay(player, f"volley-mode-{mode}", {**CHOICE, "rollMode": mode})
        assert answer["type"] == "result"
        assert ("result" in answer) is False, f"{mode}: the result travelled on the socket every client reads"
        for page, reads in ((player, player_reads), (referee, referee_reads), (co, co_reads)):
            page.wait_for_function(f"game.messages.contents.length === {n}")
            li = page.locator(f'[data-message-id="{page.evaluate("game.messages.contents.at(-1).id")}"]')
            li.wait_for()
            assert (li.locator(".volley-card").count() == 1) is reads, (
                mode,
                page.evaluate("sandbox.view"),
                reads,
            )
            if not reads:
                assert "???" in li.inner_text(), f"{mode}: core shows a hidden roll as ???"
    assert table.pages.errors == []


def test_cards_are_in_the_readers_language_from_the_first_render(table: Table) -> None:
    referee = open_as(table, "referee")
    wait_connected(referee)
    assert relay(referee, "volley-lang-1")["type"] == "result"
    referee.wait_for_function("game.messages.contents.length === 1")
    referee.evaluate("sandbox.flush()")
    # A Russian reader opens the table: the chat log is drawn before `ready`, with the card in it.
    page = table.pages.new()
    page.add_init_script(
        "window.cardTexts = []; new MutationObserver(() => {"
        " for (const c of document.querySelectorAll('.volley-card thead'))"
        " window.cardTexts.push(c.textContent.trim());"
        " }).observe(document, {subtree: true, childList: true});"
    )
    page.goto(f"{table.sandbox.url}?lang=ru&scene=gurps&view=referee&as=coreferee&token=none{table.query}")
    wait_booted(page)
    cards(page).first.locator("thead").wait_for()
    assert cards(page).first.locator("thead").inner_text().split() == ["Цель", "Попадания", "Эффекты"]
    seen = page.evaluate("window.cardTexts")
    assert seen and not any("Target" in text for text in seen), (
        f"the poster's English was shown first: {seen}"
    )
    assert table.pages.errors == []


DIALOG = "/modules/volley/scripts/systems/common/attack-dialog.js"

#: Hold the open attack dialog's next render in its drawing (part ``part``), as a busy browser does:
#: ``window.held`` is the dialog, ``window.release()`` lets the drawing go on.
HOLD_A_RENDER = f"""async (part) => {{
  const {{ AttackDialog }} = await import('{DIALOG}');
  const dialog = [...AttackDialog.openDialogs][0];
  let release;
  const gate = new Promise((resolve) => (release = resolve));
  const draw = dialog._preparePartContext.bind(dialog);
  dialog._preparePartContext = async (id, ...rest) => {{
    if (id === part) await gate;
    return draw(id, ...rest);
  }};
  Object.assign(window, {{ held: dialog, release }});
}}"""
RENDERING = "foundry.applications.api.ApplicationV2.RENDER_STATES.RENDERING"


def test_a_dialog_closed_while_it_redraws_stays_closed_and_fire_opens_a_fresh_one(table: Table) -> None:
    """CI caught a player's Fire that opened nothing: the dialog closed while a re-render (the token's
    rounds, the odds) was under way. v13 closes a window only after the renders asked before it and then
    animates it away; the stand-in used to close at once and let the render under way put the window
    back. Now the close waits its turn, the dialog leaves the open ones the moment Close is pressed, and
    Fire pressed meanwhile opens a fresh dialog instead of bringing the closing one to the front."""
    page = table.ready()
    open_attack_dialog(page, chart="Raider")
    page.evaluate(HOLD_A_RENDER, "shooter")
    page.evaluate("window.redraw = held.tokenChanged(); 0")  # the token changed: its parts are re-drawn
    page.wait_for_function(f"held.state === {RENDERING}")
    page.locator("#windows").get_by_role("button", name="Close").click()
    # Going: nothing in it can be pressed any more, though Foundry is still drawing it.
    assert page.evaluate("held.element.inert") is True

    page.get_by_role("button", name=SHOOTER, exact=True).click()
    page.locator("#token-hud").get_by_role("button", name=FIRE, exact=True).click()
    fresh = (
        f"import('{DIALOG}').then(({{ AttackDialog }}) => {{"
        " const open = [...AttackDialog.openDialogs];"
        " return open.length === 1 && open[0] !== held && open[0].rendered && open[0].element.isConnected; })"
    )
    page.wait_for_function(fresh)
    page.evaluate("release(); redraw.then(() => 0)")
    page.wait_for_function("held.state === foundry.applications.api.ApplicationV2.RENDER_STATES.CLOSED")
    assert page.evaluate(fresh) is True, "the closed dialog came back, or the fresh one went with it"
    assert page.locator(".volley-attack-dialog").count() == 1
    dialog = open_dialog(page)
    dialog.get_by_role("img", name="Raider").first.wait_for()
    count = page.evaluate("game.messages.contents.length")
    dialog.get_by_role("spinbutton", name="Shots at Raider").fill("2")
    dialog.get_by_role("button", name=FIRE, exact=True).click()
    page.wait_for_function(f"game.messages.contents.length === {count + 1}")
    assert table.pages.errors == []


def test_odds_that_arrive_while_another_part_redraws_still_reach_the_chart(table: Table) -> None:
    """v13 says ``rendered`` only in the RENDERED state, so a dialog that asked "if rendered" dropped the
    odds (and the question) that came while another part was drawing, and its chart stayed on the old
    numbers. Shots typed while the footer is held mid-render are asked about, and drawn once it ends;
    what was typed outside the re-drawn part stays as typed."""
    page = table.ready()
    dialog = open_attack_dialog(page, chart="Raider")
    chart = dialog.get_by_role("img", name="Raider").first
    was = chart.get_attribute("aria-label")
    page.evaluate(HOLD_A_RENDER, "footer")
    page.evaluate("window.redraw = held.refresh(['footer']); 0")
    page.wait_for_function(f"held.state === {RENDERING}")
    page.evaluate("window.asked = JSON.stringify(held.oddsPanel.odds); 0")
    dialog.get_by_role("spinbutton", name="Shots at Raider").fill("2")
    page.wait_for_function("JSON.stringify(held.oddsPanel.odds) !== asked")  # answered while held
    page.evaluate("release(); redraw.then(() => 0)")
    page.wait_for_function(
        "(was) => document.querySelector('.volley-chart[role=img]')?.getAttribute('aria-label') !== was"
        " && !document.querySelector('.volley-attack__preview--stale')",
        arg=was,
    )
    assert dialog.get_by_role("spinbutton", name="Shots at Raider").input_value() == "2"
    assert table.pages.errors == []
