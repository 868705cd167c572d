// Sandbox start-up: the stand-in Foundry globals, a game system that rebuilds the status list (as some
// do), the real module, then Foundry's init, setup and ready. The referee's page holds the bridge; the
// player's view (?view=player, shown in a frame) reaches it through the referee's page.
//
// Query: view=player, scene=gurps|megatraveller|d100, lang=en|ru, theme=dark|light (Foundry's interface
// themes); as=coreferee opens the page as a
// second game master; token=none leaves the access token out of this page's settings (to see the bridge
// move to another GM's browser).

import { SCENE_BY_SYSTEM, SCENES, USERS } from "./scenes.js";
import { snapshot } from "./stand-in/documents.js";
import { coreStatusEffects, installFoundry } from "./stand-in/index.js";
import { Table } from "./ui.js";

const params = new URLSearchParams(location.search);
const view = params.get("view") === "player" ? "player" : "referee";
const lang = params.get("lang") === "ru" ? "ru" : "en";
const firstScene = SCENE_BY_SYSTEM[params.get("scene") ?? ""] ?? SCENES[0];
const coReferee = view === "referee" && params.get("as") === "coreferee";
const userId = view === "player" ? USERS[1].id : coReferee ? USERS[2].id : USERS[0].id;
const pasteToken = params.get("token") !== "none";
const byId = (id) => document.getElementById(id);

/** What a test (or a curious referee in the console) can reach. */
const sandbox = {
  ready: false,
  bootError: null,
  view,
  lang,
  diceSent: [],
};
globalThis.sandbox = sandbox;
document.documentElement.lang = lang;
document.body.classList.add(`sandbox--${view}`);
// Foundry v13 draws its interface in a dark or a light theme; the module's colours must read in both.
document.body.classList.add(params.get("theme") === "dark" ? "theme-dark" : "theme-light");

let table = null;

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
    void game.settings.set("volley", "ruleSystem", scene.system);
    sandboxWorld.sync.broadcastScene(scene.id);
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
    next.set("scene", canvas.scene.system);
    location.search = next.toString();
  });
  byId("reset").addEventListener("click", () => {
    sessionStorage.removeItem(SAVED);
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
      frame.src = `/sandbox/?view=player&scene=${canvas.scene.system}&lang=${lang}&theme=${params.get("theme") ?? "light"}`;
      byId("player-pane").append(frame);
    }
    document.body.classList.add("sandbox--showing-player");
  } else {
    document.body.classList.remove("sandbox--showing-player");
  }
  byId("view-select").value = which;
}

let sandboxWorld = null;
const SAVED = "volley-sandbox-world";
let saving = null;

/** The referee's page keeps the world over a reload (Foundry's server would): actors, chat, settings. */
function keepWorld() {
  if (view !== "referee" || coReferee || !sandbox.ready || saving) return;
  saving = setTimeout(() => {
    saving = null;
    sessionStorage.setItem(SAVED, JSON.stringify({ ...snapshot(sandboxWorld.world), scene: canvas.scene.id }));
  }, 50);
}

try {
  const config = view === "referee" ? await (await fetch("/sandbox/config.json")).json() : {};
  sandboxWorld = await installFoundry({
    lang,
    userId,
    scenes: SCENES,
    users: USERS,
    notify: (level, text) => table?.notify(level, text),
    onChange: () => {
      table?.changed();
      keepWorld();
    },
    onScene: (id) => showScene(id, { broadcast: false }),
  });
  sandbox.world = sandboxWorld.world;
  sandbox.notifications = sandboxWorld.notifications;
  table = new Table({ world: sandboxWorld.world });
  sandbox.table = table;
  canvas.scene = game.scenes.get(firstScene.id);
  Hooks.on("createChatMessage", (message) => table.renderMessage(message));
  Hooks.on("updateChatMessage", (message) => table.renderMessage(message));
  // Like some game systems, rebuild the status list during setup and ready: the module must cope.
  Hooks.on("setup", () => {
    CONFIG.statusEffects = coreStatusEffects();
  });
  Hooks.once("ready", () => {
    CONFIG.statusEffects = coreStatusEffects();
  });
  if (view === "referee") scriptDice();
  // Core's own client setting: the roll mode chosen in the chat controls.
  game.settings.register("core", "rollMode", { scope: "client", config: false, type: String, default: "publicroll" });
  await import("/modules/volley/scripts/volley.js");
  Hooks.callAll("init");
  shell();
  await game.settings.set("volley", "bridgeUrl", `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
  if (view === "referee" && pasteToken) await game.settings.set("volley", "token", config.token);
  if (view === "referee" && !coReferee) await game.settings.set("volley", "ruleSystem", firstScene.system);
  game.user.active = true;
  sandboxWorld.sync.announce(true);
  sandboxWorld.sync.askPresence();
  // Foundry's client knows who is connected before `ready`; give the other pages a moment to answer.
  await new Promise((resolve) => setTimeout(resolve, 150));
  addEventListener("pagehide", () => sandboxWorld.sync.announce(false));
  if (view === "player" || coReferee) sandboxWorld.sync.askSnapshot();
  Hooks.callAll("setup");
  Hooks.callAll("ready");
  showScene(firstScene.id, { broadcast: false });
  table.renderPlayers();
  // The module's ready is asynchronous: wait for its API.
  for (let i = 0; i < 200 && !game.modules.get("volley").api; i += 1) await new Promise((r) => setTimeout(r, 25));
  const saved = view === "referee" && !coReferee ? sessionStorage.getItem(SAVED) : null;
  if (saved) {
    const state = JSON.parse(saved);
    await sandboxWorld.applySnapshot(state);
    if (state.scene && state.scene !== canvas.scene.id && !params.has("scene")) showScene(state.scene, { broadcast: true });
  }
  sandbox.ready = true;
} catch (error) {
  sandbox.bootError = String(error?.stack ?? error);
  console.error(error);
  throw error;
}
