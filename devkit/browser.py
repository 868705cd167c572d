"""The browser tests' kit, shared with the scripts that drive a sandbox (soaks, benchmarks): the
``volley sandbox`` process, the pages, and the steps a referee takes. The tests import it as
``browserkit`` (``tests/browser/browserkit.py``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from devkit.budget import BUDGET_S, SLOWDOWN

ROOT = Path(__file__).resolve().parents[1]

# ``SLOWDOWN``: how much slower than an idle developer machine this one is (``VOLLEY_TEST_SLOWDOWN``);
# ``BUDGET_S``: the longest any single wait (a page to boot, a card to appear, a turn to change) may
# take before the test fails (``devkit.budget``). Everything else is a fraction or a multiple of it.
#: What a test waits, once, before asserting that something did NOT happen (no card, no notice): long
#: enough for a wrong effect to show on this machine. Scaled like the budget; the only pause taken.
SETTLE_S = 0.5 * SLOWDOWN
#: The module's own request timeout (``connection.js`` ``REQUEST_TIMEOUT_MS``): "at once" in a test
#: means well before it, whatever the machine.
MODULE_REQUEST_TIMEOUT_S = 15.0

#: Debian's Chromium, driven by Playwright (``VOLLEY_CHROMIUM`` elsewhere).
CHROMIUM = Path(os.environ.get("VOLLEY_CHROMIUM", "/usr/bin/chromium"))
#: What Debian's Chromium needs to run headless here, and nothing that reaches the network.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def ms(seconds: float) -> int:
    """Playwright's unit."""
    return round(seconds * 1000)


def settle(page: Any, seconds: float = SETTLE_S) -> None:
    """Give a wrong effect the chance to show before asserting there is none (see ``SETTLE_S``)."""
    page.wait_for_timeout(ms(seconds))


#: Accessible names other test suites rely on (the issue fixes them; the sandbox page keeps them).
FIRE = "Fire"
WEAPON = "Weapon"
SCENE = "Scene"

SHOOTER = "Sgt. Hale"
TARGETS = ("Raider", "Lookout", "Sentry")
#: The referee's connection state, or null where this browser holds none. In parentheses, because
#: `??` binds looser than `===`: unbracketed, `<state> ?? null === 'ready'` is any state at all.
CONNECTION_STATE = "(game.modules.get('volley').api?.connection()?.state ?? null)"
MP5 = "canvas.scene.tokens.get('tokHale000000001').actor.flags.volley.profile.weapons[0]"


class Sandbox:
    """``volley sandbox --no-open`` on a free port: its page, its bridge, its throwaway data directory."""

    START_TIMEOUT_S = BUDGET_S

    def __init__(self, workdir: Path) -> None:
        self.log_path = workdir / "sandbox.log"
        self.process: subprocess.Popen[str] | None = None
        self.url = ""
        self.lines: list[str] = []

    def start(self) -> None:
        """Start ``volley sandbox`` and wait until it listens."""
        self.launch()
        self.wait_started()

    def launch(self) -> None:
        """Start the process, without waiting for it (``wait_started`` does): a test run starts the next
        test's sandbox while the current test plays (tests/browser/conftest.py ``SandboxPool``)."""
        # Fixed seeds: a test that fires without scripted dice rolls the same dice every run, so an
        # unlucky malfunction (a GURPS MP5 jams on 17+, about 1 attack in 54) cannot fail it one run in
        # fifty. VOLLEY_SANDBOX_SEED_BASE tries the suite against other rolls.
        seed_base = os.environ.get("VOLLEY_SANDBOX_SEED_BASE", "1")
        command = [sys.executable, "-m", "bridge.cli", "sandbox", "--no-open", "--port", "0"]
        command += ["--seed-base", seed_base]
        # The rules worker starts on the first attack, cold (most browser tests fire none): its warm-up
        # only fills caches, about a second of CPU per sandbox, per test.
        command += ["--no-warm-up"]
        log = self.log_path.open("a", encoding="utf-8")
        self.process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=log, text=True)

    def wait_started(self) -> None:
        """Until the sandbox prints its address (``RuntimeError`` if it says anything else, or if the wait
        took longer than ``START_TIMEOUT_S``: counted from this call, as a spare may have been launched a
        whole test earlier)."""
        assert self.process is not None and self.process.stdout is not None, "launch() first"
        deadline = time.monotonic() + self.START_TIMEOUT_S
        line = self.process.stdout.readline()
        if not line.startswith("Sandbox: ") or time.monotonic() > deadline:
            self.stop()
            raise RuntimeError(f"volley sandbox said {line!r}:\n{self.log()}")
        self.lines.append(line)
        self.url = line.removeprefix("Sandbox: ").strip()

    @property
    def origin(self) -> str:
        return self.url.removesuffix("/sandbox")

    def post(self, path: str) -> Any:
        request = urllib.request.Request(self.origin + path, method="POST", data=b"")
        with urllib.request.urlopen(request, timeout=BUDGET_S / 2) as response:
            return json.loads(response.read())

    def stop(self) -> None:
        """SIGTERM (the bridge drains, the data directory goes), SIGKILL if it hangs."""
        if self.process is None:
            return
        self.process.terminate()
        try:
            out, _ = self.process.communicate(timeout=BUDGET_S / 2)
            self.lines.extend(out.splitlines(keepends=True))
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")[-4000:]


#: A page's notifications (the last ones, expired too) and open windows, for a failing test's report.
SEEN_ON_PAGE = """() => ({
  notes: (window.sandbox?.notifications ?? []).slice(-8).map((n) => `${n.level}: ${n.text}`),
  windows: [...document.querySelectorAll('.sandbox-window')]
    .map((w) => `${w.getAttribute('aria-label') ?? w.id} [${w.className}]`),
})"""


class Pages:
    """Opens pages in one browser context (so the sandbox's clients share their BroadcastChannels)
    and collects every uncaught page error, which the tests assert stays empty."""

    #: Console lines kept per run for a failure's report (the last ones: what led up to it).
    CONSOLE_KEPT = 40

    def __init__(self, context: Any) -> None:
        self.context = context
        self.errors: list[str] = []
        #: Every page's console warnings and errors, newest last, for the report of a failing test.
        self.console: list[str] = []
        #: Foundry compatibility (deprecation) warnings that Volley's own code caused, on any page: the
        #: stand-in logs each as core does, with its stack (stand-in/generations.js). A test fails on one.
        self.volley_warnings: list[str] = []

    def new(self) -> Any:
        """A page in a window of its own, as each player's and referee's browser is at a real table.

        ``new_page`` would open a tab in the first page's window, and Chromium draws only a window's front
        tab at full rate: in a tab behind, an animation frame took ~2 s, and Playwright waits for frames
        before each click and between the polls of ``wait_for_function``. A test that went back to its
        first page after opening a second waited ~2 s per step (34 s for one d100 test, 4 s with this).
        So every page after the first is opened by the first as a window (``popup``, ``noopener``: no
        link between the two that the sandbox could see).
        """
        opener = next((page for page in self.context.pages if not page.is_closed()), None)
        if opener is None:
            page = self.context.new_page()
        else:
            with self.context.expect_page() as opened:
                opener.evaluate("() => { window.open('about:blank', '_blank', 'popup,noopener'); }")
            page = opened.value
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.on("console", self._console)
        page.set_default_timeout(ms(BUDGET_S))
        page.set_default_navigation_timeout(ms(BUDGET_S))
        return page

    def _console(self, message: Any) -> None:
        if message.type not in ("warning", "error"):
            return
        if is_volley_compat_warning(message.text):
            self.volley_warnings.append(message.text[:2000])
        where = message.location.get("url", "").rsplit("/", 1)[-1]
        self.console.append(f"{message.type}: {message.text[:300]} ({where})")
        del self.console[: -self.CONSOLE_KEPT]

    def report(self) -> str:
        """What the pages said, for a failing test: uncaught errors, console warnings and errors, and each
        open page's notifications and open windows (what a user would have seen on the screen)."""
        lines = [f"page error: {error}" for error in self.errors[-10:]] + self.console
        for index, page in enumerate(page for page in self.context.pages if not page.is_closed()):
            for frame in page.frames:
                try:
                    # wait_for_function, not evaluate: it has a timeout, so a hung page cannot hang this.
                    seen = frame.wait_for_function(SEEN_ON_PAGE, timeout=2_000).json_value()
                except Exception as error:  # a page that is gone or hung says so, the report goes on
                    lines.append(f"page {index} {frame.url[-60:]}: unreadable ({type(error).__name__})")
                    continue
                where = f"page {index} {frame.url[-60:]}"
                lines.append(f"{where}: windows {seen['windows']}; notices {seen['notes']}")
        return "\n".join(lines)


def is_volley_compat_warning(text: str) -> bool:
    """A compatibility warning as core logs it ("Deprecated since Version N" and the caller's stack),
    called from the module's own code (a frame under /modules/volley/)."""
    return "Deprecated since Version" in text and "/modules/volley/" in text


class Shots:
    """Screenshots of a test run: kept under the run's artefacts (``$VOLLEY_ARTEFACTS``, else
    ``.artefacts/browser/<time>/``); with ``VOLLEY_UPDATE_IMAGES=1`` the ones the README shows are also
    copied to ``docs/images/``."""

    README_IMAGES = ROOT / "docs" / "images"

    def __init__(self) -> None:
        base = os.environ.get("VOLLEY_ARTEFACTS")
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
        self.directory = Path(base) if base else ROOT / ".artefacts" / "browser" / stamp
        self.directory.mkdir(parents=True, exist_ok=True)
        self.update_readme = os.environ.get("VOLLEY_UPDATE_IMAGES") == "1"

    def take(self, locator: Any, name: str) -> Path:
        path = self.directory / f"{name}.png"
        locator.screenshot(path=str(path))
        assert path.stat().st_size > 3_000, f"{name}: the screenshot is nearly empty"
        if self.update_readme:
            self.README_IMAGES.mkdir(parents=True, exist_ok=True)
            (self.README_IMAGES / path.name).write_bytes(path.read_bytes())
        return path


#: The Foundry generations the stand-in plays (``?foundry=``); 14 unless a test asks for another.
GENERATIONS = (13, 14)
DEFAULT_GENERATION = 14


@dataclass(frozen=True)
class Table:
    """Everything one browser test needs: the sandbox, a way to open pages, a place for screenshots, and
    the Foundry generation its pages play (``generation``: 13 or 14)."""

    sandbox: Sandbox
    pages: Pages
    shots: Shots
    generation: int = DEFAULT_GENERATION

    @property
    def query(self) -> str:
        """What every page of this test adds to its address (the generation it plays)."""
        return f"&foundry={self.generation}"

    def open(
        self,
        *,
        lang: str = "en",
        scene: str = "gurps",
        view: str = "referee",
        extra: str = "",
        page: Any = None,
    ) -> Any:
        """A sandbox page, booted (the module loaded, init/setup/ready done)."""
        # The test's first page is its only one: a GM page need not wait for others to answer before it
        # takes the bridge (the sandbox's ``settle=lone``, checked again by the page itself). Every later
        # page waits as a browser at a real table does.
        first = not any(not opened.is_closed() for opened in self.pages.context.pages)
        page = page or self.pages.new()
        lone = "&settle=lone" if first and "settle=" not in extra else ""
        page.goto(f"{self.sandbox.url}?lang={lang}&scene={scene}&view={view}{self.query}{lone}{extra}")
        wait_booted(page)
        return page

    def ready(self, **how: Any) -> Any:
        """A sandbox page (``open``'s arguments) once the referee's browser holds the bridge."""
        page = self.open(**how)
        wait_connected(page)
        return page

    def watched(self, **how: Any) -> tuple[Any, list[dict[str, Any]]]:
        """A page as ``ready`` gives it, and every message it sends to the bridge from its boot on."""
        page = self.pages.new()
        sent = frames_sent(page)
        return self.ready(page=page, **how), sent


@dataclass(frozen=True)
class PlayerView:
    """The sandbox's player's view, a frame over the table: ``frame`` to find things in it (a
    ``FrameLocator``), ``page`` to run script in it (its ``Frame``)."""

    frame: Any
    page: Any


def player_view(page: Any, shooter: str = SHOOTER, *, view: str = "View") -> PlayerView:
    """Switch the sandbox to the player's view (``view``: the switch's name in the page's language)
    and wait until its page has booted and shows ``shooter``."""
    page.get_by_role("combobox", name=view).select_option("player")
    frame = page.frame_locator("#player-view")
    frame.get_by_role("button", name=shooter, exact=True).wait_for()
    player = page.frames[1]
    player.wait_for_function("window.sandbox && window.sandbox.ready")
    return PlayerView(frame=frame, page=player)


#: The sandbox's users (vtt_module/sandbox/scenes.js): ?as= and ?view= open a page as one of them.
REFEREE_ID = "gm0000000000000a"
PLAYER_ID = "pl0000000000000b"
COREFEREE_ID = "gm0000000000000c"
ASSISTANT_ID = "as0000000000000d"


def open_as(
    table: Table, user: str = "referee", *, tab: int = 1, scene: str = "gurps", extra: str = ""
) -> Any:
    """A page of one sandbox user, in a browser of its own: ``user`` is referee, player, coreferee or
    assistant; ``tab`` 2, 3... is another browser of the same user (its own socket id)."""
    how = {"player": "&view=player", "coreferee": "&as=coreferee", "assistant": "&as=assistant"}.get(user, "")
    view = "player" if user == "player" else "referee"
    more = how.replace("&view=player", "") + (f"&tab={tab}" if tab > 1 else "") + extra
    return table.open(scene=scene, view=view, extra=more)


def refusal(page: Any, script: str) -> str | None:
    """Run ``script`` (an expression giving a promise) on the page: the message it rejects with, or None
    if it resolved (how a test sees the stand-in refuse what Foundry refuses)."""
    return page.evaluate(
        f"Promise.resolve().then(() => {script}).then(() => null, (e) => String(e?.message ?? e))"
    )


def set_message_mode(page: Any, mode: str) -> None:
    """Choose who reads this user's rolls, as the chat controls do: ``mode`` is v14's name (public, gm,
    blind, self, ic); a v13 page gets its roll mode (publicroll...; ic is public there)."""
    legacy = {"public": "publicroll", "ic": "publicroll", "gm": "gmroll"}
    legacy |= {"blind": "blindroll", "self": "selfroll"}
    page.evaluate(
        "([mode, legacy]) => game.release.generation >= 14"
        " ? game.settings.set('core', 'messageMode', mode) : game.settings.set('core', 'rollMode', legacy)",
        [mode, legacy[mode]],
    )


def set_hidden(page: Any, hidden: bool = True) -> None:
    """Make a page a background tab (``document.hidden``), or bring it back."""
    page.evaluate(f"sandbox.setHidden({'true' if hidden else 'false'})")


def wait_booted(page: Any) -> None:
    page.wait_for_function("window.sandbox && (window.sandbox.ready || window.sandbox.bootError)")
    error = page.evaluate("window.sandbox.bootError ?? null")
    assert error is None, error


def reload_kept(page: Any) -> None:
    """Reload a page once the sandbox's "server" has kept every change the page made (the stand-in writes
    each change as it happens; ``sandbox.flush()`` waits until those writes are committed), and wait
    until it has booted again."""
    page.evaluate("sandbox.flush()")
    page.reload()
    wait_booted(page)


def wait_state(page: Any, state: str) -> None:
    """Until this browser's connection to the bridge is in ``state`` (``CONNECTION_STATE``)."""
    page.wait_for_function(f"{CONNECTION_STATE} === {state!r}")


def wait_connected(page: Any) -> None:
    """Until this browser's connection has had the bridge's ``welcome`` (its state is ``ready``)."""
    wait_state(page, "ready")


#: A window that is open, not one closing: Volley's windows turn ``inert`` the moment Close is pressed
#: (foundry/focus.js ``leaving``), and the stand-in, like Foundry, keeps a closing window in the page with
#: the class ``minimizing`` while it animates away (up to a second). A locator for "the" dialog or editor
#: that does not exclude it matches two windows when one is opened right after another closed (Playwright's
#: strict mode fails), and role locators see it too: it is visible for the animation's first 0.12 s.
OPEN_WINDOW = ":not([inert]):not(.minimizing)"
#: The attack dialog the Token HUD's Fire opens: not MegaTraveller's allocation (its second step), and
#: not one that is closing (see ``OPEN_WINDOW``).
ATTACK_DIALOG = f"[role=dialog].volley-attack-dialog:not(.volley-mt-allocation){OPEN_WINDOW}"
#: The profile editor (the HUD's Volley weapons), not one closing.
PROFILE_EDITOR = f"form.volley-profile{OPEN_WINDOW}"


def open_dialog(where: Any) -> Any:
    """The dialogs (``role=dialog``) open on a page, or in a frame (a ``FrameLocator``), never one that is
    closing (``OPEN_WINDOW``): where a test means "the dialog on the screen"."""
    return where.get_by_role("dialog").and_(where.locator(OPEN_WINDOW))


def open_attack_dialog(page: Any, shooter: str = SHOOTER, fire: str = FIRE, *, chart: str = "") -> Any:
    """Token (a button named by the token's name) -> Token HUD -> Fire -> the attack dialog; with
    ``chart``, once the odds chart of that target is drawn. ``page`` may be a player's view's frame."""
    page.get_by_role("button", name=shooter, exact=True).click()
    page.locator("#token-hud").get_by_role("button", name=fire, exact=True).click()
    # Wait for the attack dialog itself: with another dialog open (the table rules menu), waiting for
    # any dialog returned before the attack dialog was drawn, or failed on two (strict mode) when it was.
    page.locator(ATTACK_DIALOG).wait_for()
    dialog = open_dialog(page)
    if chart:
        wait_for_chart(dialog, chart)
    return dialog


def notice_text(dialog: Any) -> str:
    """What the attack dialog's footer notice reads now."""
    return str(dialog.locator(".volley-attack__notice").inner_text()).strip()


def notice_reads(dialog: Any, text: str) -> str:
    """The attack dialog's footer notice once it reads ``text`` (the notice as it then reads, for the
    caller to assert on): the dialog redraws its footer after the reply that also put the card in the
    chat, so a card on the page does not yet mean the footer says so."""
    dialog.locator(".volley-attack__notice").filter(has_text=text).wait_for()
    return notice_text(dialog)


def wait_for_chart(dialog: Any, target: str) -> Any:
    """The odds chart of one target (an image whose name describes every bar)."""
    chart = dialog.get_by_role("img", name=target)
    chart.first.wait_for()
    return chart.first


def frames_sent(page: Any) -> list[dict[str, Any]]:
    """Every message this page sends to the bridge, parsed, as it is sent (call before the page boots)."""
    sent: list[dict[str, Any]] = []

    def watch(socket: Any) -> None:
        socket.on("framesent", lambda payload: sent.append(json.loads(payload)))

    page.on("websocket", watch)
    return sent


def sent_with_id(sent: list[dict[str, Any]], request_id: str) -> dict[str, Any]:
    """The message a page sent with this request id (``frames_sent`` collects them): the id itself, or
    the bridge's key of a user's request id (``<user id>.<id>``, relay.js requestKey)."""
    return next(frame for frame in sent if frame.get("id") in (request_id, *keys_of(frame, request_id)))


def keys_of(frame: dict[str, Any], request_id: str) -> tuple[str, ...]:
    """The key the referee's browser sends a user's request under, if the frame names its user."""
    user = frame.get("user")
    return (f"{user}.{request_id}",) if isinstance(user, str) else ()


def cards(page: Any) -> Any:
    return page.get_by_role("log").locator(".volley-card")


def hits_of(card: Any, name: str) -> str:
    """The hits a card shows for one target, as written."""
    return (
        card.locator("tr.volley-card__row").filter(has_text=name).locator(".volley-card__hits").inner_text()
    )


def fire_first(page: Any, dialog: Any, fire: str = FIRE) -> Any:
    """Press the dialog's Fire on a table with no card yet; once the card is posted, its flags."""
    dialog.get_by_role("button", name=fire, exact=True).click()
    cards(page).first.wait_for()
    return chat_flags(page)


def enter_fires_nothing(page: Any, field: Any) -> None:
    """Enter in one of the dialog's fields fires nothing (firing is a button): no card once it settles."""
    field.press("Enter")
    settle(page)
    assert cards(page).count() == 0


def message_of(card: Any) -> Any:
    """The chat message a card sits in (for a screenshot with its header)."""
    return card.locator("xpath=ancestor::li[1]")


def chat_flags(page: Any, index: int = -1) -> Any:
    return page.evaluate(f"game.messages.contents.at({index}).flags.volley")
