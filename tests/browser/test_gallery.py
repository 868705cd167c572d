"""The gallery: every dialog and card of every rule system, drawn in ``volley sandbox`` as a table sees
it (English and Russian, light and dark, the referee's page and the player's), saved under
``docs/images/gallery/`` to be looked at, and measured as it is drawn.

It fails when a dialog's action buttons are not wholly inside a 1400 x 900 window, when a button's label
does not fit in it, when the odds scroll in a part of their own, or when any text on a card runs past
the card's box. Besides every dialog and card it draws the faces of issue 35: a GURPS critical hit and
an unjam, d100 hit locations, a suppression test card, an undone card, and a standing order's single
shots fired at two tokens. Each picture is named ``<system>-<what>-<lang>-<theme>-<view>.png``.

The whole gallery (each system in each language and theme, 136 pictures) is its own command,
``scripts/gallery``, which redraws ``docs/images/gallery/`` (``VOLLEY_GALLERY_UPDATE=1``);
``VOLLEY_GALLERY=<dir>`` draws the whole gallery into another folder instead. The suite's own run
(``scripts/test``) draws a sample, ``SAMPLE``: each system once, in both languages and both themes
between them, into a temporary folder, so a test run never changes a tracked file.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from browserkit import PROFILE_EDITOR, ROOT, Table, cards, message_of, open_attack_dialog, wait_for_chart

WINDOW = {"width": 1400, "height": 900}
#: Where ``scripts/gallery`` keeps the pictures the docs show.
DOCS_GALLERY = ROOT / "docs" / "images" / "gallery"
#: The whole gallery's folder when asked for (None: the suite's run, a sample into a temporary folder).
WHOLE: Path | None = (
    Path(os.environ["VOLLEY_GALLERY"])
    if os.environ.get("VOLLEY_GALLERY")
    else DOCS_GALLERY
    if os.environ.get("VOLLEY_GALLERY_UPDATE") == "1"
    else None
)
LANGS_AND_THEMES = [("en", "light"), ("ru", "dark"), ("ru", "light"), ("en", "dark")]
#: The suite's sample: every system once, both languages and both themes among them.
SAMPLE = [("gurps", "en", "light"), ("megatraveller", "ru", "dark"), ("d100", "ru", "light")]

FIRE = {"en": "Fire", "ru": "Огонь"}
WEAPONS = {"en": "Volley weapons", "ru": "Оружие Volley"}
PICK_SECTOR = {"en": "Pick on the map", "ru": "Указать на карте"}

#: GURPS: to-hit 10 against skill 14, the Raider's dodge 18 fails; then 18 and a stoppage; an unjam
#: roll of 9 (cleared); a to-hit roll of 3 (a critical hit, no dodge).
GURPS_HIT = "3 3 4 6 6 6"
GURPS_JAM = "6 6 6 3 3 4"
GURPS_UNJAM = "3 3 3"
GURPS_CRITICAL = "1 1 1"
#: MegaTraveller automatic fire in two steps (test_megatraveller): the pool, then the to-hit rolls.
MT_POOL = "1 1 1 5 3 6 6 1"
MT_TO_HIT = "6 6 1 1 1 1 1 1"
#: d100 suppressing fire: a miss (50), two failed suppression tests.
D100_SUPPRESSION = "50 90 95"
#: d100 single shot: 20 hits, the location die 5 puts it in the head.
D100_HEAD = "20 5"
#: d100 suppression test for Vex: 99 fails.
D100_TEST = "99"

#: Every button of a dialog's action row (attack dialog, allocation step, profile editor).
ACTIONS = ".volley-attack__buttons button, .volley-profile__buttons button"

OUTSIDE = """(selector) => {
  const w = window.innerWidth, h = window.innerHeight;
  return [...document.querySelectorAll(selector)].filter((b) => b.offsetParent !== null).map((b) => {
    const r = b.getBoundingClientRect();
    return r.left < 0 || r.top < 0 || r.right > w || r.bottom > h
      ? `${b.textContent.trim() || b.getAttribute('aria-label')}: ${Math.round(r.left)},${Math.round(r.top)}`
        + `-${Math.round(r.right)},${Math.round(r.bottom)} in ${w}x${h}`
      : null;
  }).filter(Boolean);
}"""

#: Every visible button of the dialogs whose label does not fit in it.
CLIPPED = """() => [...document.querySelectorAll('.volley-attack-dialog button, .volley-profile button')]
  .filter((b) => b.offsetParent !== null)
  .filter((b) => b.scrollWidth > b.clientWidth + 1 || b.scrollHeight > b.clientHeight + 1)
  .map((b) => b.textContent.trim() || b.getAttribute('aria-label'))"""

#: A dialog's odds in a scroll area of their own (the preview scrolling inside the window).
ODDS_SCROLL = """() => [...document.querySelectorAll('.volley-attack__preview')]
  .filter((p) => p.offsetParent !== null && p.scrollHeight > p.clientHeight + 1
    && /(auto|scroll)/.test(getComputedStyle(p).overflowY))
  .map((p) => p.closest('[role=dialog]')?.getAttribute('aria-label') ?? '?')"""

TOASTS_ASIDE = '<style id="gallery-toasts">#notifications { visibility: hidden !important; }</style>'
ASIDE = '<style id="gallery-aside">#windows, #notifications { visibility: hidden !important; }</style>'

OVERFLOW = """() => {
  const out = [];
  for (const card of document.querySelectorAll('.volley-card')) {
    const box = card.getBoundingClientRect();
    for (const el of card.querySelectorAll('*')) {
      if (el.closest('details:not([open])') && el.tagName !== 'SUMMARY' && !el.matches('details')) continue;
      const r = el.getBoundingClientRect();
      if (!r.width && !r.height) continue;
      const past = r.right > box.right + 1 || r.left < box.left - 1;
      const spills = el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX === 'visible'
        && el.clientWidth > 0;
      // A numbered list's numbers sit in its left inset: two digits need room (CSS cannot measure them).
      if (el.matches('ol')) {
        const cs = getComputedStyle(el);
        const inset = parseFloat(cs.paddingLeft) + parseFloat(cs.marginLeft);
        const digits = String(el.children.length).length;
        if (inset < (digits * 0.62 + 0.9) * parseFloat(cs.fontSize)) {
          out.push(`${card.querySelector('.volley-card__title')?.textContent}: the numbers of its `
            + `${el.children.length} lines spill left (${Math.round(inset)}px)`);
        }
      }
      if (past || spills) out.push(`${card.querySelector('.volley-card__title')?.textContent}: `
        + `<${el.tagName.toLowerCase()} class="${el.className}"> `
        + `"${(el.textContent || '').trim().slice(0, 50)}"`);
    }
  }
  return out;
}"""


class Gallery:
    """Pictures taken and problems found, for one language, theme and view."""

    def __init__(self, lang: str, theme: str, folder: Path) -> None:
        self.lang, self.theme = lang, theme
        self.problems: list[str] = []
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)

    def take(self, page: Any, locator: Any, system: str, what: str, view: str) -> None:
        name = f"{system}-{what}-{self.lang}-{self.theme}-{view}"
        outside = page.evaluate(OUTSIDE, ACTIONS)
        self.problems += [f"{name}: action button outside the window: {o}" for o in outside]
        self.problems += [f"{name}: card text overflows: {o}" for o in page.evaluate(OVERFLOW)]
        self.problems += [f"{name}: button label clipped: {o}" for o in page.evaluate(CLIPPED)]
        self.problems += [f"{name}: odds in a scroll of their own: {o}" for o in page.evaluate(ODDS_SCROLL)]
        path = self.folder / f"{name}.png"
        # The sandbox's toasts float over whatever is at the bottom right; they are not the module's.
        page.evaluate(f"document.head.insertAdjacentHTML('beforeend', {TOASTS_ASIDE!r})")
        try:
            locator.screenshot(path=str(path))
        finally:
            page.evaluate("document.getElementById('gallery-toasts')?.remove()")
        assert path.stat().st_size > 3_000, f"{name}: the picture is nearly empty"

    def card(self, page: Any, system: str, what: str, view: str, index: int = -1) -> None:
        """A card with its message header, the sandbox's windows and toasts set aside while it is taken
        (they float over the chat log; the card is what the picture is of)."""
        card = cards(page).nth(index) if index >= 0 else cards(page).last
        card.wait_for()
        page.evaluate(f"document.head.insertAdjacentHTML('beforeend', {ASIDE!r})")
        # Its Rolls open, so what they say is seen and measured too.
        card.evaluate("(c) => c.querySelectorAll('details').forEach((d) => { d.open = true; })")
        try:
            card.scroll_into_view_if_needed()
            self.take(page, message_of(card), system, what, view)
        finally:
            page.evaluate("document.getElementById('gallery-aside')?.remove()")


def open_page(table: Table, lang: str, theme: str, scene: str, view: str = "referee") -> Any:
    page = table.pages.new()
    page.set_viewport_size(WINDOW)
    how = {"page": page, "lang": lang, "scene": scene, "view": view, "extra": f"&theme={theme}"}
    # The player's browser reaches the bridge through the referee's page: it has no connection of its own.
    return table.ready(**how) if view == "referee" else table.open(**how)


def fire(page: Any, dialog: Any, dice: str, button: str = "[data-volley=attack]") -> None:
    count = cards(page).count()
    page.locator("#dice").fill(dice)
    dialog.locator(button).click()
    page.wait_for_function(f"document.querySelectorAll('.volley-card').length > {count}")


def profile_editor(page: Any, gallery: Gallery, system: str, shooter: str) -> None:
    page.get_by_role("button", name=shooter, exact=True).click()
    page.locator("#token-hud .volley-profile").click()
    editor = page.locator(PROFILE_EDITOR)
    editor.wait_for()
    gallery.take(page, editor, system, "profile", "referee")
    # Two slips at once: both are named, beside their fields and in the notice.
    fields = editor.locator("input[inputmode=numeric]")
    fields.nth(0).fill("x")
    fields.nth(1).fill("-999999")
    editor.locator("[data-action=volleySave]").click()
    editor.locator(".volley-profile__notice--error").wait_for()
    gallery.take(page, editor, system, "profile-errors", "referee")
    editor.locator(".sandbox-close").click()


def gurps(table: Table, gallery: Gallery) -> None:
    lang = gallery.lang
    page = open_page(table, lang, gallery.theme, "gurps")
    dialog = open_attack_dialog(page, "Sgt. Hale", FIRE[lang], chart="Raider")
    gallery.take(page, dialog, "gurps", "dialog", "referee")
    dialog.locator("[name='targets.0.shots']").fill("13")
    dialog.locator("[name='targets.1.shots']").fill("11")
    dialog.locator("[name='targets.0.shots']").press("Tab")
    page.wait_for_function("document.querySelector('[data-volley=attack]')?.disabled === true")
    gallery.take(page, dialog, "gurps", "dialog-over-rof", "referee")
    dialog.locator("[name='targets.0.shots']").fill("3")
    dialog.locator("[name='targets.1.shots']").fill("0")
    dialog.locator("[name='targets.1.shots']").press("Tab")
    page.wait_for_function("document.querySelector('[data-volley=attack]')?.disabled === false")
    fire(page, dialog, GURPS_HIT)
    gallery.card(page, "gurps", "card", "referee")
    page.wait_for_function("document.querySelector('[data-volley=attack]')?.disabled === false")
    fire(page, dialog, GURPS_JAM)
    page.locator("[data-volley=unjam]").wait_for()
    gallery.take(page, dialog, "gurps", "dialog-jammed", "referee")
    gallery.card(page, "gurps", "card-jammed", "referee")
    fire(page, dialog, GURPS_UNJAM, "[data-volley=unjam]")
    gallery.card(page, "gurps", "card-unjam", "referee")
    page.wait_for_function("document.querySelector('[data-volley=attack]')?.disabled === false")
    fire(page, dialog, GURPS_CRITICAL)
    gallery.card(page, "gurps", "card-critical", "referee")
    cards(page).last.locator(".volley-card__undo").click()
    cards(page).last.locator(".volley-card__undone").wait_for()
    gallery.card(page, "gurps", "card-undone", "referee")
    dialog.locator(".sandbox-close").click()
    profile_editor(page, gallery, "gurps", "Sgt. Hale")

    player = open_page(table, lang, gallery.theme, "gurps", "player")
    pdialog = open_attack_dialog(player, "Sgt. Hale", FIRE[lang], chart="Raider")
    gallery.take(player, pdialog, "gurps", "dialog", "player")
    gallery.card(player, "gurps", "card", "player", index=0)


def megatraveller(table: Table, gallery: Gallery) -> None:
    lang = gallery.lang
    page = open_page(table, lang, gallery.theme, "megatraveller")
    open_attack_dialog(page, "Kira Rhyne", FIRE[lang])
    dialog = page.locator(".volley-attack-dialog").first
    wait_for_chart(dialog, "Cpl. Dace")
    gallery.take(page, dialog, "megatraveller", "dialog", "referee")
    dialog.locator("select[name=allocation]").select_option("defer")
    fire(page, dialog, MT_POOL)
    step = page.locator(".volley-mt-allocation")
    wait_for_chart(step, "Vargr raider")
    gallery.take(page, step, "megatraveller", "allocation", "referee")
    gallery.card(page, "megatraveller", "card-pending", "referee")
    step.locator("select[name='cluster.2']").select_option("0")
    step.locator(".volley-mt__blocked").wait_for()
    gallery.take(page, step, "megatraveller", "allocation-refused", "referee")
    step.locator("select[name='cluster.0']").select_option("1")
    page.wait_for_function(
        "document.querySelector('.volley-mt-allocation [data-volley=allocate]')?.disabled === false"
    )
    count = cards(page).count()
    page.locator("#dice").fill(MT_TO_HIT)
    step.locator("[data-volley=allocate]").click()
    page.wait_for_function(f"document.querySelectorAll('.volley-card').length > {count}")
    step.locator(".volley-mt-split__settled").wait_for()
    page.wait_for_function("document.querySelector('.volley-card__settled') !== null")
    gallery.card(page, "megatraveller", "card-settled", "referee", index=0)
    gallery.card(page, "megatraveller", "card", "referee")
    step.locator(".sandbox-close").click()

    dialog.locator("select[name=weapon]").select_option(index=1)
    page.wait_for_function(
        "document.querySelector('.volley-mt__state')?.textContent.startsWith('Submachinegun')"
        " || document.querySelector('.volley-mt__state')?.textContent.startsWith('Пистолет-пулемёт')"
    )
    page.locator("[data-volley=unsling]").wait_for()
    gallery.take(page, dialog, "megatraveller", "dialog-slung", "referee")
    fire(page, dialog, "", "[data-volley=unsling]")
    gallery.card(page, "megatraveller", "card-unsling", "referee")
    page.locator("[data-volley=ready]").wait_for()
    fire(page, dialog, "", "[data-volley=ready]")
    gallery.card(page, "megatraveller", "card-ready", "referee")
    dialog.locator(".sandbox-close").click()
    profile_editor(page, gallery, "megatraveller", "Kira Rhyne")

    player = open_page(table, lang, gallery.theme, "megatraveller", "player")
    open_attack_dialog(player, "Kira Rhyne", FIRE[lang])
    pdialog = player.locator(".volley-attack-dialog").first
    wait_for_chart(pdialog, "Vargr raider")
    gallery.take(player, pdialog, "megatraveller", "dialog", "player")
    gallery.card(player, "megatraveller", "card", "player")


def pick_sector(page: Any, dialog: Any, lang: str) -> None:
    dialog.get_by_role("button", name=PICK_SECTOR[lang]).click()
    page.wait_for_function("document.querySelector('.volley-attack--picking') !== null")
    page.locator("#board").click(position={"x": 388, "y": 184})
    page.wait_for_function("document.querySelector('.volley-attack--picking') === null")


def d100(table: Table, gallery: Gallery) -> None:
    lang = gallery.lang
    page = open_page(table, lang, gallery.theme, "d100")
    dialog = open_attack_dialog(page, "Vex", FIRE[lang], chart="Heretic")
    gallery.take(page, dialog, "d100", "dialog-single", "referee")
    fire(page, dialog, D100_HEAD)
    gallery.card(page, "d100", "card-locations", "referee")
    # A suppression test the referee calls for Vex: the card says failed, and has no Hits column.
    dialog.locator("details.volley-d100__morale summary").click()
    fire(page, dialog, D100_TEST, "[data-volley=suppression_test]")
    gallery.take(page, dialog, "d100", "dialog-morale", "referee")
    gallery.card(page, "d100", "card-test", "referee")
    cards(page).last.locator(".volley-card__undo").click()
    cards(page).last.locator(".volley-card__undone").wait_for()
    gallery.card(page, "d100", "card-test-undone", "referee")
    dialog.locator("details.volley-d100__morale summary").click()
    dialog.locator("select[name=weapon]").select_option(index=1)
    page.wait_for_function(
        "document.querySelector('select[name=mode] option[value=suppressing_full]') !== null"
    )
    dialog.locator("select[name=mode]").select_option("suppressing_full")
    dialog.locator(".volley-d100__sector").wait_for()
    pick_sector(page, dialog, lang)
    wait_for_chart(dialog, "Cultist")
    gallery.take(page, dialog, "d100", "dialog-suppressing", "referee")
    fire(page, dialog, D100_SUPPRESSION)
    gallery.card(page, "d100", "card-suppressing", "referee")

    dialog.locator("select[name=weapon]").select_option(index=0)
    page.wait_for_function("document.querySelector('select[name=mode] option[value=long_burst]') !== null")
    dialog.locator("select[name=mode]").select_option("long_burst")
    wait_for_chart(dialog, "Heretic")
    gallery.take(page, dialog, "d100", "dialog-burst", "referee")
    dialog.locator("select[name=mode]").select_option("overwatch")
    pick_sector(page, dialog, lang)
    dialog.locator("[name=trigger]").fill(
        "anyone crosses the bridge" if lang == "en" else "кто-то идёт по мосту"
    )
    gallery.take(page, dialog, "d100", "dialog-overwatch", "referee")
    fire(page, dialog, "", "[data-volley=overwatch]")
    gallery.card(page, "d100", "card-overwatch-set", "referee")
    page.wait_for_function("document.querySelector('.volley-d100__order') !== null")
    gallery.take(page, dialog, "d100", "dialog-overwatch-standing", "referee")
    dialog.locator(".sandbox-close").click()
    profile_editor(page, gallery, "d100", "Vex")

    player = open_page(table, lang, gallery.theme, "d100", "player")
    pdialog = open_attack_dialog(player, "Vex", FIRE[lang])
    pdialog.locator(".volley-d100__order").wait_for()
    gallery.take(player, pdialog, "d100", "dialog-overwatch-standing", "player")
    # The player's log: the hit in the head, the suppression test, then the suppressing fire.
    gallery.card(player, "d100", "card-suppressing", "player", index=2)
    pdialog.locator(".sandbox-close").click()

    # Back at the referee's: the trigger is met, the order's single shots at the two tokens in its sector.
    dialog = open_attack_dialog(page, "Vex", FIRE[lang])
    dialog.locator(".volley-d100__order").wait_for()
    dialog.locator("[data-volley=trigger_met]").click()
    page.wait_for_function("document.querySelector('[data-volley=trigger_back]') !== null")
    wait_for_chart(dialog, "Cultist")
    gallery.take(page, dialog, "d100", "dialog-overwatch-trigger", "referee")
    fire(page, dialog, "", "[data-volley=overwatch_fire]")
    gallery.card(page, "d100", "card-overwatch-fire", "referee")


SYSTEMS: dict[str, Callable[[Table, Gallery], None]] = {
    "gurps": gurps,
    "megatraveller": megatraveller,
    "d100": d100,
}


CASES = [(system, lang, theme) for system in SYSTEMS for lang, theme in LANGS_AND_THEMES] if WHOLE else SAMPLE


@pytest.mark.parametrize(("system", "lang", "theme"), CASES)
def test_gallery(table: Table, tmp_path: Path, system: str, lang: str, theme: str) -> None:
    gallery = Gallery(lang, theme, WHOLE or tmp_path / "gallery")
    SYSTEMS[system](table, gallery)
    assert gallery.problems == []
    assert table.pages.errors == []


def test_the_sample_covers_every_system_language_and_theme() -> None:
    """The suite's sample draws each system, both languages and both themes (scripts/gallery draws all)."""
    assert {system for system, _, _ in SAMPLE} == set(SYSTEMS)
    assert {(lang, theme) for _, lang, theme in SAMPLE} <= set(LANGS_AND_THEMES)
    assert {lang for _, lang, _ in SAMPLE} == {"en", "ru"} and {theme for _, _, theme in SAMPLE} == {
        "light",
        "dark",
    }
