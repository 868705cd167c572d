"""The attack dialog answers as fast as the user types (issue 35): a change asks the bridge in the
event that made it, not after a timer, and once per change. ``scripts/bench_dialog.py`` measures how
fast; these tests hold the two causes of the old quarter-second wait to account, by order of events,
never by the clock: the preview waited 250 ms for the typing to stop, and an arrow key's ``change``
(which comes with its ``input``) asked a second time, throwing the first answer away.
"""

from __future__ import annotations

from typing import Any

import pytest
from browserkit import Table, cards, open_attack_dialog, settle, wait_for_chart

#: Every odds question this page sends to the bridge, and whether it left while a key's own task (or
#: the microtasks after it) was still running: ``inKey`` is cleared by a timer the key sets, which runs
#: only once that task is over.
WATCH = """() => {
  window.oddsSent = [];
  let inKey = false;
  document.addEventListener('keydown', () => {
    inKey = true;
    setTimeout(() => { inKey = false; }, 0);
  }, {capture: true});
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    try {
      const message = JSON.parse(data);
      if (message.type === 'odds') window.oddsSent.push({inKey, shots: message.request?.targets?.[0]?.shots});
    } catch {}
    return send.call(this, data);
  };
}"""


def charts(dialog: Any) -> str:
    return " | ".join(img.get_attribute("aria-label") or "" for img in dialog.locator("[role=img]").all())


def test_a_key_asks_the_bridge_at_once_and_once(table: Table) -> None:
    page = table.ready(scene="gurps")
    dialog = open_attack_dialog(page, chart="Raider")
    page.evaluate(WATCH)
    shots = dialog.get_by_role("spinbutton", name="Shots at Raider")
    before = charts(dialog)
    shots.focus()
    page.keyboard.press("ArrowDown")  # 13 -> 12: an arrow key sends `input` and `change` together
    page.wait_for_function("window.oddsSent.length > 0")
    settle(page)  # a second question, had there been one, would be out by now
    sent = page.evaluate("window.oddsSent")
    assert sent == [{"inKey": True, "shots": 12}], sent
    page.wait_for_function(
        "(before) => { const p = document.querySelector('.volley-attack__preview');"
        " return p && !p.classList.contains('volley-attack__preview--stale')"
        " && [...p.querySelectorAll('[role=img]')]"
        "   .map((i) => i.getAttribute('aria-label')).join(' | ') !== before; }",
        arg=before,
    )
    assert "Raider" in charts(dialog)
    assert table.pages.errors == []


def test_a_field_left_after_typing_asks_nothing_more(table: Table) -> None:
    page = table.ready(scene="gurps")
    dialog = open_attack_dialog(page, chart="Raider")
    page.evaluate(WATCH)
    shots = dialog.get_by_role("spinbutton", name="Shots at Raider")
    shots.focus()
    page.keyboard.press("Control+A")
    page.keyboard.type("5")
    page.wait_for_function("window.oddsSent.some((sent) => sent.shots === 5)")
    asked = len(page.evaluate("window.oddsSent"))
    shots.press("Tab")  # `change` on leaving the field: the form is what was asked about already
    settle(page)
    assert len(page.evaluate("window.oddsSent")) == asked
    assert table.pages.errors == []


#: To-hit 18, then 10 on the malfunction table: a stoppage (B407), as in test_sandbox_gurps.
JAM_DICE = "6 6 6 3 3 4"


@pytest.mark.parametrize(
    ("lang", "fire", "said"),
    [
        ("en", "Fire", "no odds: Modifier against Raider: must be at least -30"),
        ("ru", "Огонь", "шансов нет: Модификатор против Raider: не меньше -30"),
    ],
)
def test_a_refused_field_is_named_by_its_label_and_marked(
    table: Table, lang: str, fire: str, said: str
) -> None:
    """GURPS has four modifiers: «Модификатор: не меньше -30» said none of them, and marked nothing."""
    page = table.ready(scene="gurps", lang=lang)
    dialog = open_attack_dialog(page, fire=fire, chart="Raider")
    raider = dialog.locator("[name='targets.0.modifier']")
    raider.fill("-40")
    status = dialog.locator(".volley-attack__odds-status--problem")
    status.wait_for()
    assert status.inner_text() == said
    assert raider.get_attribute("aria-invalid") == "true"
    marked = dialog.locator("[aria-invalid=true]")
    assert marked.count() == 1
    raider.fill("-3")
    page.wait_for_function(
        "document.querySelector('[name=\"targets.0.modifier\"]').getAttribute('aria-invalid') === null"
    )
    wait_for_chart(dialog, "Raider")
    assert table.pages.errors == []


def test_the_last_buttons_done_goes_when_a_new_problem_shows(table: Table) -> None:
    """Fire, and the MP5 jams: "Done: see the card" stood under "The weapon is jammed: clear it first"."""
    page = table.ready(scene="gurps")
    dialog = open_attack_dialog(page, chart="Raider")
    page.locator("#dice").fill(JAM_DICE)
    dialog.get_by_role("button", name="Fire", exact=True).click()
    cards(page).first.wait_for()
    dialog.locator(".volley-attack__odds-status", has_text="The weapon is jammed: clear it first").wait_for()
    page.wait_for_function("document.querySelector('.volley-attack__notice').textContent.trim() === ''")
    # Reload stays offered while jammed (Volley's reading of B407), and says what it will and will not do.
    reload = dialog.get_by_role("button", name="Reload", exact=True)
    assert reload.is_enabled()
    assert reload.get_attribute("title") == (
        "Fills the magazine; the weapon stays jammed until Unjam clears it"
        " (Volley's reading: a fresh magazine does not clear a malfunction)"
    )
    assert table.pages.errors == []


#: The module's warm-up run in the page with each template it loads replaced by a spy: the templates it
#: used (Handlebars compiles a template on its first use, so a template only loaded is parsed on Fire).
WARM = """async () => {
  const handlebars = foundry.applications.handlebars;
  const getTemplate = handlebars.getTemplate;
  const used = [];
  handlebars.getTemplate = async (path) => {
    const template = await getTemplate(path);
    return (...args) => { used.push(path); return template(...args); };
  };
  try {
    const {warmAttackDialog} = await import('/modules/volley/scripts/foundry/open.js');
    await warmAttackDialog();
  } finally {
    handlebars.getTemplate = getTemplate;
  }
  return used;
}"""


@pytest.mark.parametrize("scene", ["gurps", "d100"])
def test_the_warm_up_compiles_the_dialogs_templates(table: Table, scene: str) -> None:
    # The session's first Fire no longer parses the dialog's templates (~100 ms of its first chart).
    page = table.ready(scene=scene)
    # The page's own warm-up (started at `ready`, not awaited) may still be running when the spy goes in:
    # its uses are seen too, so a template can be counted twice. Which templates were used is the point.
    used = sorted(set(page.evaluate(WARM)))
    assert used == sorted(
        [
            "modules/volley/templates/attack/shooter.hbs",
            f"modules/volley/templates/systems/{scene}/attack-body.hbs",
            "modules/volley/templates/attack/preview.hbs",
            "modules/volley/templates/attack/footer.hbs",
        ]
    ), used
    assert table.pages.errors == []
