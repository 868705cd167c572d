"""The attack dialog answers as fast as the user types (issue 35): a change asks the bridge in the
event that made it, not after a timer, and once per change. ``scripts/bench_dialog.py`` measures how
fast; these tests hold the two causes of the old quarter-second wait to account, by order of events,
never by the clock: the preview waited 250 ms for the typing to stop, and an arrow key's ``change``
(which comes with its ``input``) asked a second time, throwing the first answer away.
"""

from __future__ import annotations

from typing import Any

from browserkit import Table, open_attack_dialog, settle

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
