// Sandbox start-up, in core's order: the stand-in Foundry globals with the world the sandbox's "server"
// keeps (IndexedDB, stand-in/store.js), a game system that rebuilds the status list (as some do), the
// real module, then init, i18nInit, setup, the scene and the chat log drawn with the messages already
// there, and ready (v13 Game#setupGame; the chat log is rendered before `ready` fires). The referee's
// page holds the bridge; a player's page (?view=player, shown in a frame) reaches it through a GM's.
//
// Query: view=player, scene=gurps|megatraveller|d100, lang=en|ru, theme=dark|light (Foundry's interface
// themes); as=coreferee opens the page as a second game master, as=assistant as an assistant GM;
// tab=N (2, 3...) is another browser of the same user (its own socket id); token=none leaves the access
// token out of this page's settings (to see the bridge move to another GM's browser); hidden=1 starts
// the page as a background tab (document.hidden); dice3d=never|instant installs a Dice So Nice stand-in
// whose show() never resolves, or resolves once the tab is visible; foundry=13|14 (default 14) is the
// Foundry generation the stand-in plays (stand-in/generations.js); address=keep leaves a GM browser's bridge
// address as it is instead of pointing it at the sandbox's bridge.
// settle=lone lets a GM page that is the only GM page open take the bridge at once; settle=<ms> sets the
// page's settle time (see below).

import { SCENE_BY_SYSTEM, SCENES, USERS } from "./scenes.js";
import { compatWarnings, readGeneration } from "./stand-in/generations.js";
import { hookErrors } from "./stand-in/hooks.js";
import { coreStatusEffects, installFoundry } from "./stand-in/index.js";
import { Table } from "./ui.js";

const params = new URLSearchParams(location.search);
const view = params.get("view") === "player" ? "player" : "referee";
const lang = params.get("lang") === "ru" ? "ru" : "en";
const askedScene = SCENE_BY_SYSTEM[params.get("scene") ?? ""] ?? null;
const as = view === "referee" ? params.get("as") : null;
const coReferee = as === "coreferee";
const assistant = as === "assistant";
const tab = Math.max(1, Number.parseInt(params.get("tab") ?? "1", 10) || 1);
const userId = view === "player" ? USERS[1].id : coReferee ? USERS[2].id : assistant ? USERS[3].id : USERS[0].id;
/** The referee's first browser: it sets the world up (rule system, scene) when it opens. */
const primary = view === "referee" && !as && tab === 1;
const pasteToken = params.get("token") !== "none";
const generation = readGeneration(params);
const byId = (id) => document.getElementById(id);

/** What a test (or a curious referee in the console) can reach. */
const sandbox = {
  ready: false,
  bootError: null,
  view,
  lang,
  tab,
  diceSent: [],
  /** The hooks of core's start-up, in the order they fired, with "chatLog" where the log was drawn. */
  bootOrder: [],
  hookErrors,
  /** The Foundry generation this page plays (13 or 14), and the compatibility warnings it logged. */
  generation,
  compatWarnings,
  /** Make this page a background tab (`document.hidden`, `visibilityState`, `visibilitychange`), or not. */
  setHidden,
  /** A Dice So Nice stand-in: `show()` resolves once the tab is visible, or never (`{resolve: false}`). */
  installDiceSoNice,
  /** Resolves once every change this page made is kept by the sandbox's "server". */
  flush: () => sandboxWorld?.world.store.flush(),
};
globalThis.sandbox = sandbox;
document.documentElement.lang = lang;
document.body.classList.add(`sandbox--${view}`);
// Foundry v13 draws its interface in a dark or a light theme; the module's colours must read in both.
document.body.classList.add(params.get("theme") === "dark" ? "theme-dark" : "theme-light");

let table = null;

let hidden = false;
Object.defineProperty(document, "hidden", { configurable: true, get: () => hidden });
Object.defineProperty(document, "visibilityState", { configurable: true, get: () => (hidden ? "hidden" : "visible") });
function setHidden(value) {
  if (hidden === Boolean(value)) return;
  hidden = Boolean(value);
  document.dispatchEvent(new Event("visibilitychange"));
}
if (params.get("hidden") === "1") hidden = true;

/** Resolves when the page is visible (Dice So Nice animates in animation frames: not in a background tab). */
function whenVisible() {
  if (!document.hidden) return Promise.resolve();
  return new Promise((resolve) => {
    const seen = () => {
      if (document.hidden) return;
      document.removeEventListener("visibilitychange", seen);
      resolve();
    };
    document.addEventListener("visibilitychange", seen);
  });
}

/**
 * Dice So Nice, as a test needs it: `game.dice3d.show(data, user, synchronize, whisper, blind)` records
 * each call (`sandbox.dice3d.shown`) and resolves once the tab is visible, or never; and, as Dice So Nice
 * does on every reader's page, a created message with rolls this reader may see is animated there
 * (`sandbox.dice3d.animated`: message ids).
 */
function installDiceSoNice({ resolve = true } = {}) {
  const record = { shown: [], animated: [], resolve };
  sandbox.dice3d = record;
  game.modules.set("dice-so-nice", { id: "dice-so-nice", active: true });
  game.dice3d = {
    show(data, user = game.user, synchronize = false, whisper = null, blind = false) {
      record.shown.push({ throws: data?.throws?.length ?? 0, user: user?.id ?? null, synchronize, whisper, blind, hidden: document.hidden });
      return record.resolve ? whenVisible().then(() => true) : new Promise(() => {});
    },
    isEnabled: () => true,
  };
  Hooks.on("createChatMessage", (message) => {
    if (message.isRoll && message.visible && message.isContentVisible) record.animated.push(message.id);
  });
  Hooks.callAll("diceSoNiceReady", game.dice3d);
  return record;
}

/**
 * Scripted dice: the referee's page adds the faces typed in the dice box to the next attack or action.
 * A two-step attack scripted so (`"allocation": "defer"`) must be allocated with scripted dice too (the
 * bridge will not roll a pool the player never saw): its `allocate` gets the first step's faces again,
 * then whatever is typed for the to-hit rolls.
 */
function scriptDice() {
  const Native = globalThis.WebSocket;
  /** The faces of scripted first steps, by request id. */
  const steps = new Map();
  class ScriptingWebSocket extends Native {
    send(data) {
      const box = byId("dice");
      const faces = (box?.value ?? "").trim().split(/[\s,]+/).filter(Boolean).map(Number);
      const typed = faces.length && faces.every((n) => Number.isInteger(n) && n > 0);
      try {
        const message = JSON.parse(data);
        if (message.type === "allocate" && steps.has(message.pending_id) && !message.dice) {
          message.dice = [...steps.get(message.pending_id), ...(typed ? faces : [])];
          if (typed) box.value = "";
          sandbox.diceSent.push({ id: message.id, faces: message.dice });
          ui.notifications.info(game.i18n.format("SANDBOX.DiceUsed", { faces: message.dice.join(" ") }));
          return super.send(JSON.stringify(message));
        }
      } catch {
        // not a message we script
      }
      if (typed) {
        try {
          const message = JSON.parse(data);
          if ((message.type === "attack" || message.type === "action") && message.request && !message.request.dice) {
            message.request.dice = faces;
            if (message.request.allocation === "defer") steps.set(message.id, faces);
            box.value = "";
            sandbox.diceSent.push({ id: message.id, faces });
            ui.notifications.info(game.i18n.format("SANDBOX.DiceUsed", { faces: faces.join(" ") }));
            return super.send(JSON.stringify(message));
          }
        } catch {
          // not a message we script
        }
      }
      return super.send(data);
    }
  }
  globalThis.WebSocket = ScriptingWebSocket;
}

/** Show a scene: the board, the world's rule system, the targets this user starts with. */
function showScene(sceneId, { broadcast }) {
  const scene = game.scenes.get(sceneId);
  if (!scene) return;
  table.closeHud();
  canvas.scene = scene;
  const select = byId("scene-select");
  if (select) select.value = scene.system;
  byId("board").replaceChildren();
  if (broadcast && game.user.isGM) {
    if (game.settings.get("volley", "ruleSystem") !== scene.system) void game.settings.set("volley", "ruleSystem", scene.system);
    sandboxWorld.world.sync.broadcastScene(scene.id);
    sandboxWorld.world.store.put("meta/scene", scene.id);
  }
  table.setTargets(SCENES.find((s) => s.id === scene.id).tokens.filter((t) => t.target).map((t) => t.id));
  table.renderBoard();
  table.renderCombat();
}

function shell() {
  byId("banner").textContent = game.i18n.localize("SANDBOX.Banner");
  for (const [id, key] of [
    ["scene-label", "SANDBOX.Scene"],
    ["view-label", "SANDBOX.View"],
    ["lang-label", "SANDBOX.Language"],
    ["dice-label", "SANDBOX.Dice"],
    ["dice-hint", "SANDBOX.DiceHint"],
    ["chat-heading", "SANDBOX.Chat"],
    ["bridge-label", "SANDBOX.Bridge"],
    ["bridge-stop", "SANDBOX.StopBridge"],
    ["bridge-start", "SANDBOX.StartBridge"],
    ["player-note", "SANDBOX.PlayerView"],
    ["reset", "SANDBOX.Reset"],
    ["settings", "SANDBOX.Settings"],
    ["combat-label", "SANDBOX.Combat"],
  ]) {
    const el = byId(id);
    if (el) el.textContent = game.i18n.localize(key);
  }
  byId("chat-log").setAttribute("aria-label", game.i18n.localize("SANDBOX.ChatLog"));
  byId("view-select").options[0].textContent = game.i18n.localize("SANDBOX.Referee");
  byId("view-select").options[1].textContent = game.i18n.localize("SANDBOX.Player");
  byId("lang-select").value = lang;
  byId("scene-select").addEventListener("change", (event) => {
    const scene = SCENE_BY_SYSTEM[event.target.value];
    if (scene) showScene(scene.id, { broadcast: true });
  });
  byId("view-select").addEventListener("change", (event) => showView(event.target.value));
  byId("lang-select").addEventListener("change", (event) => {
    const next = new URLSearchParams(location.search);
    next.set("lang", event.target.value);
    next.set("foundry", String(generation));
    next.set("scene", canvas.scene.system);
    location.search = next.toString();
  });
  // Foundry's Configure Settings, as far as modules' menus go (the table rules menu among them).
  byId("settings").addEventListener("click", async () => {
    const { SandboxSettings } = await import("./settings.js");
    const open = foundry.applications.instances?.get?.("sandbox-settings");
    if (open) open.bringToFront?.();
    else await new SandboxSettings().render({ force: true });
  });
  // A fresh world for every page: the kept one goes, every open page reloads.
  byId("reset").addEventListener("click", async () => {
    sandboxWorld.world.store.clear();
    await sandboxWorld.world.store.flush();
    sandboxWorld.world.sync.post({ op: "reset" });
    location.reload();
  });
  for (const [id, action] of [
    ["bridge-stop", "stop"],
    ["bridge-start", "start"],
  ]) {
    byId(id).addEventListener("click", () => void fetch(`/sandbox/bridge/${action}`, { method: "POST" }));
  }
  // The viewed scene's encounter: begun on the first click, then one turn on per click.
  byId("next-turn").addEventListener("click", () => {
    const combat = game.combat;
    if (combat) void (combat.started ? combat.nextTurn() : combat.startCombat());
  });
  // A referee correcting a mistake: the turn goes back (Foundry's Previous turn).
  byId("previous-turn").addEventListener("click", () => void game.combat?.previousTurn());
  byId("board").addEventListener("click", () => table.closeHud());
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") table.closeHud();
  });
}

/** Referee's page, or the player's view in a frame over the table (the referee's page keeps running). */
function showView(which) {
  let frame = byId("player-view");
  if (which === "player") {
    table.closeHud(); // the referee's HUD would float over the player's view
    if (!frame) {
      frame = document.createElement("iframe");
      frame.id = "player-view";
      frame.title = game.i18n.localize("SANDBOX.Player");
      frame.src = `/sandbox/?view=player&scene=${canvas.scene.system}&lang=${lang}&theme=${params.get("theme") ?? "light"}&foundry=${generation}`;
      byId("player-pane").append(frame);
    }
    document.body.classList.add("sandbox--showing-player");
  } else {
    document.body.classList.remove("sandbox--showing-player");
  }
  byId("view-select").value = which;
}

let sandboxWorld = null;

try {
  // Only a GM's browser gets the bridge's token; every page learns which world this sandbox run keeps.
  const config = view === "referee" ? await (await fetch("/sandbox/config.json")).json() : {};
  const { world: worldId } = await (await fetch("/sandbox/world.json")).json();
  sandboxWorld = await installFoundry({
    lang,
    userId,
    worldId,
    scenes: SCENES,
    users: USERS,
    generation,
    browser: String(tab),
    notify: (level, text) => table?.notify(level, text),
    onChange: () => table?.changed(),
    onScene: (id) => showScene(id, { broadcast: false }),
    onReset: () => location.reload(),
  });
  sandbox.world = sandboxWorld.world;
  sandbox.notifications = sandboxWorld.notifications;
  sandbox.socketId = sandboxWorld.socketId;
  table = new Table({ world: sandboxWorld.world });
  sandbox.table = table;
  const keptScene = game.scenes.get(sandboxWorld.world.meta?.scene ?? "");
  const firstScene = askedScene ?? keptScene ?? SCENES[0];
  canvas.scene = game.scenes.get(firstScene.id);
  let chatDrawn = false;
  const draw = (message) => {
    if (chatDrawn) table.renderMessage(message);
  };
  Hooks.on("createChatMessage", draw);
  Hooks.on("updateChatMessage", draw);
  Hooks.on("deleteChatMessage", (message) => table.removeMessage(message));
  for (const name of ["init", "i18nInit", "setup", "ready"]) Hooks.on(name, () => sandbox.bootOrder.push(name));
  // Like some game systems, rebuild the status list during setup and ready: the module must cope.
  // v13: a fresh array each time. v14, as Twodsix 7.x does it: its own statuses merged into core's
  // registry at setup (hooks/setup.js), then, with its "reduce status icons" setting, the registry
  // replaced by a plain object of the ones it keeps (settings/DisplaySettings.js updateStatusIcons).
  Hooks.on("setup", () => {
    if (generation >= 14) foundry.utils.mergeObject(CONFIG.statusEffects, { aiming: { id: "aiming", name: "Aiming", img: "icons/svg/target.svg" } });
    else CONFIG.statusEffects = coreStatusEffects();
  });
  Hooks.once("ready", () => {
    const kept = ["dead", "unconscious", "prone", "aiming"]; // Twodsix keeps a fixed list: a module's own go
    if (generation >= 14) CONFIG.statusEffects = Object.fromEntries(Object.entries(CONFIG.statusEffects).filter(([id]) => kept.includes(id)));
    else CONFIG.statusEffects = coreStatusEffects();
  });
  if (view === "referee") scriptDice();
  const dice3d = params.get("dice3d");
  if (dice3d === "never" || dice3d === "instant") installDiceSoNice({ resolve: dice3d === "instant" });
  await import("/modules/volley/scripts/volley.js");
  Hooks.callAll("init");
  Hooks.callAll("i18nInit");
  shell();
  // Where the bridge is: each GM browser's own setting (the sandbox's bridge is on this machine, so no
  // confirmation is asked); and the rule system of the scene the referee opened (a world setting).
  // `?address=keep` leaves this browser's address as it is (a test of the address itself).
  if (game.user.isGM && params.get("address") !== "keep") {
    const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`;
    // (A module from before its address was the browser's own kept it in the world setting bridgeUrl.)
    const setting = sandboxWorld.registered.has("volley.bridgeAddress") ? "bridgeAddress" : "bridgeUrl";
    if (game.settings.get("volley", setting) !== url) await game.settings.set("volley", setting, url);
  }
  if (view === "referee" && pasteToken) await game.settings.set("volley", "token", config.token);
  if (primary && game.settings.get("volley", "ruleSystem") !== firstScene.system) await game.settings.set("volley", "ruleSystem", firstScene.system);
  sandboxWorld.presence.announce();
  addEventListener("pagehide", () => sandboxWorld.presence.leave());
  // Foundry's client knows who is connected before `ready`; give the other pages a moment to answer.
  await new Promise((resolve) => setTimeout(resolve, 150));
  // ?settle=lone: a GM page the sandbox knows to be the only GM page at its table need not wait for
  // other browsers of its user to answer before it takes the bridge (the module's settle time, which
  // Foundry's client, knowing users but not their tabs, cannot skip). The tests ask for it.
  // ?settle=<ms>: this page's settle time, as a table whose Foundry server relays slowly sets it
  // (CONFIG.volley.presence.settleMs): a test that holds the other browsers' answers back uses it.
  const settle = params.get("settle") ?? "";
  let settleMs = null;
  if (settle === "lone" && game.user.isGM && sandboxWorld.presence.otherGmPages() === 0) settleMs = 0;
  else if (/^\d+$/.test(settle)) settleMs = Number(settle);
  if (settleMs !== null) {
    CONFIG.volley = { ...CONFIG.volley, presence: { ...CONFIG.volley?.presence, settleMs } };
  }
  Hooks.callAll("setup");
  // The canvas and the chat log, drawn before `ready` as core draws them, the log with every message
  // the world already has (each through renderChatMessageHTML).
  showScene(firstScene.id, { broadcast: primary });
  table.renderPlayers();
  chatDrawn = true;
  table.renderLog(game.messages.contents);
  sandbox.bootOrder.push("chatLog");
  game.ready = true;
  Hooks.callAll("ready");
  // The module's ready is asynchronous: wait for its API.
  for (let i = 0; i < 200 && !game.modules.get("volley").api; i += 1) await new Promise((r) => setTimeout(r, 25));
  sandbox.ready = true;
} catch (error) {
  sandbox.bootError = String(error?.stack ?? error);
  console.error(error);
  throw error;
}
