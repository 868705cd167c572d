"""Layout faults of issue 35, measured on the page (bounds, not pictures): the overwatch trigger step's
Fire is the clear primary among its buttons; the odds (the suppressed and prone chances under the
charts) are never in a scroll area of their own; no button's label is clipped («Преодолеть Подавление
(конец Хода)»); the sandbox has a Configure Settings entry that reaches the table rules menu; and the
referee's windows do not float over the player's view.
"""

from __future__ import annotations

from typing import Any

from browserkit import Table, open_attack_dialog, player_view, wait_for_chart

FIRE = {"en": "Fire", "ru": "Огонь"}

#: Every visible button of the dialogs whose label does not fit in it (scrolled or cut off).
CLIPPED = """() => [...document.querySelectorAll('.volley-attack-dialog button')]
  .filter((b) => b.offsetParent !== null)
  .filter((b) => b.scrollWidth > b.clientWidth + 1 || b.scrollHeight > b.clientHeight + 1)
  .map((b) => `${b.textContent.trim()}: ${b.scrollWidth}x${b.scrollHeight}`
    + ` in ${b.clientWidth}x${b.clientHeight}`)"""

#: The footer's buttons: each one's label and width.
WIDTHS = """() => [...document.querySelectorAll('.volley-attack-dialog .volley-attack__buttons button')]
  .filter((b) => b.offsetParent !== null)
  .map((b) => ({text: b.textContent.trim(), primary: b.classList.contains('volley-attack__button--primary'),
    width: b.getBoundingClientRect().width}))"""

#: Whether the odds lines are in a scroll area of their own inside the window, and whether all of them
#: can be seen where the window shows them (inside every scrolling box around them).
ODDS_SEEN = """() => {
  const lines = document.querySelector('.volley-attack-dialog .volley-attack__odds-lines');
  if (!lines) return {found: false};
  const box = lines.getBoundingClientRect();
  const scrollers = [];
  let hidden = false;
  for (let el = lines.parentElement; el && !el.matches('.volley-attack-dialog'); el = el.parentElement) {
    const style = getComputedStyle(el);
    if (/(auto|scroll)/.test(style.overflowY) && el.scrollHeight > el.clientHeight + 1) {
      scrollers.push(el.className);
    }
    const r = el.getBoundingClientRect();
    const clips = /(auto|scroll|hidden)/.test(style.overflowY);
    if (clips && (box.bottom > r.bottom + 1 || box.top < r.top - 1)) hidden = true;
  }
  return {found: true, scrollers, hidden};
}"""


def d100_dialog(table: Table, lang: str = "en", size: dict[str, int] | None = None) -> tuple[Any, Any]:
    page = table.pages.new()
    page.set_viewport_size(size or {"width": 1400, "height": 900})
    table.ready(page=page, scene="d100", lang=lang)
    return page, open_attack_dialog(page, "Vex", FIRE[lang], chart="Heretic")


def pick_sector(page: Any, dialog: Any, lang: str) -> None:
    dialog.get_by_role("button", name={"en": "Pick on the map", "ru": "Указать на карте"}[lang]).click()
    page.wait_for_function("document.querySelector('.volley-attack--picking') !== null")
    page.locator("#board").click(position={"x": 388, "y": 184})
    page.wait_for_function("document.querySelector('.volley-attack--picking') === null")


#: Buttons of one fixed-height line, as a theme may draw every button (the sandbox's own are not): the
#: dialog's buttons must still show their whole label, wrapping it inside a taller button.
ONE_LINE_BUTTONS = "<style>button { height: 28px; white-space: nowrap; overflow: hidden; }</style>"


def test_no_label_is_clipped_in_russian_with_the_morale_buttons_open(table: Table) -> None:
    page, dialog = d100_dialog(table, "ru")
    page.evaluate(f"document.head.insertAdjacentHTML('beforeend', {ONE_LINE_BUTTONS!r})")
    dialog.locator("details.volley-d100__morale summary").click()
    recover = dialog.get_by_role("button", name="Преодолеть Подавление (конец Хода)")
    recover.wait_for()
    assert page.evaluate(CLIPPED) == []
    assert table.pages.errors == []


def test_the_odds_of_suppressing_fire_are_never_in_a_scroll_of_their_own(table: Table) -> None:
    # A laptop's window: the dialog is taller than the room below its top, so something must scroll.
    page, dialog = d100_dialog(table, "ru", {"width": 1280, "height": 640})
    dialog.get_by_role("combobox", name="Оружие", exact=True).select_option(index=1)
    page.wait_for_function(
        "document.querySelector('select[name=mode] option[value=suppressing_full]') !== null"
    )
    dialog.locator("select[name=mode]").select_option("suppressing_full")
    dialog.locator(".volley-d100__sector").wait_for()
    pick_sector(page, dialog, "ru")
    wait_for_chart(dialog, "Cultist")
    dialog.locator("details.volley-d100__morale summary").click()
    page.wait_for_function("document.querySelector('.volley-attack__odds-lines') !== null")
    seen = page.evaluate(ODDS_SEEN)
    assert seen["found"] and seen["scrollers"] == [] and not seen["hidden"], seen
    # The form is what scrolls, and Fire stays in the window.
    fire = dialog.get_by_role("button", name="Огонь", exact=True).bounding_box()
    assert fire is not None and fire["y"] + fire["height"] <= 640
    assert table.pages.errors == []


def test_the_overwatch_trigger_steps_fire_is_the_clear_primary(table: Table) -> None:
    page, dialog = d100_dialog(table)
    page.wait_for_function("document.querySelector('select[name=mode] option[value=overwatch]') !== null")
    dialog.locator("select[name=mode]").select_option("overwatch")
    pick_sector(page, dialog, "en")
    dialog.locator("[name=trigger]").fill("anyone crosses the bridge")
    count = page.locator(".volley-card").count()
    dialog.locator("[data-volley=overwatch]").click()
    page.wait_for_function(f"document.querySelectorAll('.volley-card').length > {count}")
    dialog.locator("[data-volley=trigger_met]").click()
    page.wait_for_function("document.querySelector('[data-volley=trigger_back]') !== null")
    buttons = page.evaluate(WIDTHS)
    primary = [b for b in buttons if b["primary"]]
    others = [b for b in buttons if not b["primary"]]
    assert len(primary) == 1 and len(others) >= 3, buttons
    assert all(primary[0]["width"] >= 1.5 * other["width"] for other in others), buttons
    assert page.evaluate(CLIPPED) == []
    assert table.pages.errors == []


def test_configure_settings_reaches_the_table_rules_menu(table: Table) -> None:
    page = table.ready(scene="gurps")
    page.get_by_role("button", name="Configure Settings", exact=True).click()
    settings = page.get_by_role("dialog", name="Configure Settings")
    settings.get_by_role("button", name="Choose the table's readings").click()
    page.get_by_role("dialog", name="Table rules").wait_for()
    assert table.pages.errors == []


def test_the_referees_windows_do_not_float_over_the_players_view(table: Table) -> None:
    page = table.ready(scene="gurps")
    open_attack_dialog(page, chart="Raider")
    player_view(page)
    dialog = page.locator(".volley-attack-dialog").first
    box = dialog.bounding_box()
    assert box is not None
    # What the screen shows where the referee's dialog stands is the player's view.
    on_top = page.evaluate(
        "([x, y]) => document.elementFromPoint(x, y)"
        "?.closest('#player-pane, .volley-attack-dialog')?.id ?? null",
        [box["x"] + box["width"] / 2, box["y"] + 20],
    )
    assert on_top == "player-pane", on_top
    page.get_by_role("combobox", name="View").select_option("referee")
    dialog.wait_for(state="visible")
    assert table.pages.errors == []


#: Each visible footer button whose label wraps: how far its icon stands from the button's middle, up or
#: down (the icon beside the label, not on a line of its own above it), and the label's lines.
ICONS = """() => [...document.querySelectorAll('.volley-attack-dialog .volley-attack__buttons button')]
  .filter((b) => b.offsetParent !== null && b.querySelector('i'))
  .map((b) => {
    const box = b.getBoundingClientRect();
    const icon = b.querySelector('i').getBoundingClientRect();
    const range = document.createRange();
    range.selectNodeContents(b);
    const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0)
      .map((r) => Math.round(r.top))).size;
    return {text: b.textContent.trim(), lines,
      off: Math.abs((icon.top + icon.bottom) / 2 - (box.top + box.bottom) / 2)};
  })"""


def test_a_wrapped_labels_icon_stays_beside_it(table: Table) -> None:
    page, dialog = d100_dialog(table, "ru")
    dialog.get_by_role("combobox", name="Оружие", exact=True).select_option(index=1)
    page.wait_for_function(
        "document.querySelector('select[name=mode] option[value=suppressing_full]') !== null"
    )
    dialog.locator("select[name=mode]").select_option("suppressing_full")
    dialog.get_by_role("button", name="Снять Закрепление").wait_for()
    buttons = page.evaluate(ICONS)
    assert any(b["lines"] > 1 for b in buttons), buttons  # the case this is about: a label on two lines
    assert all(b["off"] <= 2 for b in buttons), buttons
    assert table.pages.errors == []
