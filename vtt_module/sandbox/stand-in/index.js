// Installs the stand-in Foundry globals (game, ui, CONFIG, CONST, foundry, ChatMessage, Roll, canvas,
// Hooks) for one sandbox page: one browser of one user. TEST STAND-IN, NOT FOUNDRY: it has the v13 or
// v14 names and shapes the module relies on (generations.js says where the two differ), and refuses
// what Foundry's server refuses (documents.js).

import { ActorSheetV2, ApplicationV2, DialogV2, getTemplate, HandlebarsApplicationMixin, loadTemplates, registerHelpers, renderTemplate } from "./applications.js";
import { Combat } from "./combat.js";
import { Die, NumericTerm, OperatorTerm, Roll } from "./dice.js";
import { allTokens, Collection, OWNERSHIP, permissionError, randomId, ROLES } from "./documents.js";
import { Hooks } from "./hooks.js";
import { loadTranslations, makeI18n } from "./i18n.js";
import { installHotbar, Macro, macros } from "./macros.js";
import { ChatMessage as BaseChatMessage, createMessage, deleteMessage } from "./messages.js";
import { WorldStore } from "./store.js";
import { connectWorld } from "./sync.js";
import { deepClone, expandObject, getProperty, mergeObject, setProperty } from "./utils.js";
import { createWorld, loadRecords } from "./world.js";
import {
  legacyToMessageMode,
  logCompatibilityWarning,
  MESSAGE_MODES,
  messageModeToLegacy,
  RELEASES,
  ROLL_MODES,
  statusRegistry,
} from "./generations.js";
import { detachedWindows } from "./applications.js";

/** The status effects Foundry's core defines (a few of them): the module must add its own. */
export function coreStatusEffects() {
  return [
    { id: "dead", name: "EFFECT.StatusDead", img: "icons/svg/skull.svg" },
    { id: "unconscious", name: "EFFECT.StatusUnconscious", img: "icons/svg/unconscious.svg" },
    { id: "prone", name: "EFFECT.StatusProne", img: "icons/svg/falling.svg" },
    { id: "blind", name: "EFFECT.StatusBlind", img: "icons/svg/blind.svg" },
  ];
}

/** CONST.DICE_ROLL_MODES */
const DICE_ROLL_MODES = Object.freeze({ PUBLIC: "publicroll", PRIVATE: "gmroll", BLIND: "blindroll", SELF: "selfroll" });

/**
 * A property that logs a v14 compatibility warning whenever it is read (v13: a plain value).
 * @param {object} target
 * @param {string} key
 * @param {unknown} value
 * @param {number} generation
 * @param {string} message
 */
function deprecatedOnV14(target, key, value, generation, message) {
  if (generation < 14) {
    target[key] = value;
    return;
  }
  Object.defineProperty(target, key, {
    enumerable: true,
    get() {
      logCompatibilityWarning(message, { since: 14, until: 16 });
      return value;
    },
  });
}

/**
 * @param {{lang: string, userId: string, worldId: string, scenes: object[], users: object[], generation?: 13 | 14, browser?: string,
 *   notify: (level: string, text: string) => void, onChange: () => void, onScene: (id: string) => void,
 *   onReset: () => void}} setup
 */
export async function installFoundry({ lang, userId, worldId, scenes, users, generation = 14, browser = "1", notify, onChange, onScene, onReset }) {
  const release = RELEASES[generation] ?? RELEASES[14];
  const translations = await loadTranslations(lang);
  const i18n = makeI18n(lang, translations);
  registerHelpers(i18n);
  const world = createWorld({ scenes, users, me: userId });
  // One encounter per scene, made alike in every page (same ids), not begun.
  world.combats = new Collection(world.scenes.contents.map((scene) => new Combat(world, scene)).map((combat) => [combat.id, combat]));
  world.onChange = onChange;
  const me = world.me;
  me.active = true; // this page's own user is connected (Foundry's client: game.user.active)

  /** ChatMessage as the module sees it: v13's class, its create/getSpeaker statics on this world. */
  class ChatMessage extends BaseChatMessage {
    static get implementation() {
      return ChatMessage;
    }
    /** Only this page's user, never another's: the options cannot say who asks. */
    static async create(data, { fromSync: _f, userId: _u, ...options } = {}) {
      return createMessage(world, data, options);
    }
    static getSpeaker({ scene, actor, token, alias } = {}) {
      const doc = token?.document ?? token ?? (actor?.isToken ? actor.token : null);
      if (doc) return { scene: doc.parent?.id ?? null, token: doc.id, actor: doc.actor?.id ?? null, alias: alias ?? doc.name };
      if (actor) return { scene: (scene ?? canvas.scene)?.id ?? null, actor: actor.id, token: null, alias: alias ?? actor.name };
      return { scene: (scene ?? canvas.scene)?.id ?? null, actor: null, token: null, alias: alias ?? me.name };
    }
    static getWhisperRecipients(name) {
      if (["GM", "DM"].includes(String(name).toUpperCase())) return world.users.filter((u) => u.isGM);
      if (String(name).toLowerCase() === "players") return world.users.filter((u) => !u.isGM);
      const user = world.users.find((u) => u.name.toLowerCase() === String(name).toLowerCase());
      return user ? [user] : [];
    }
    /**
     * v13 ChatMessage.applyRollMode(chatData, rollMode). v14: "ChatMessage.applyRollMode is deprecated in
     * favor of ChatMessage.applyMode" since 14, until 16 (the warning as quoted in JohanFalt/Foundry_WoD20#1396).
     */
    static applyRollMode(chatData, rollMode) {
      if (release.generation >= 14) {
        logCompatibilityWarning("ChatMessage.applyRollMode is deprecated in favor of ChatMessage.applyMode.", { since: 14, until: 16 });
        return ChatMessage.#apply(chatData, rollMode === "roll" ? "roll" : legacyToMessageMode(rollMode));
      }
      return ChatMessage.#apply(chatData, legacyToMessageMode(rollMode === "roll" ? game.settings.get("core", "rollMode") : rollMode));
    }

    /** v14 ChatMessage.applyMode(chatData, mode): a mode of CONFIG.ChatMessage.modes ("roll": the user's). */
    static applyMode(chatData, mode) {
      return ChatMessage.#apply(chatData, mode);
    }

    /**
     * Whisper and blind for a message mode (the v13 roll modes mapped to their v14 names first): public
     * and in-character to no one; gm and blind to the GMs; self to this user; blind is blind.
     */
    static #apply(chatData, mode) {
      if (mode === "roll") mode = game.settings.get("core", "messageMode");
      if (mode === "gm" || mode === "blind") chatData.whisper = ChatMessage.getWhisperRecipients("GM").map((u) => u.id);
      else if (mode === "self") chatData.whisper = [me.id];
      else if (mode === "public" || mode === "ic") chatData.whisper = [];
      chatData.blind = mode === "blind";
      return chatData;
    }
  }
  if (release.generation < 14) delete ChatMessage.applyMode;
  world.ChatMessageClass = ChatMessage;

  // World settings live in the world (every page sees the same values, kept over a reload); client
  // settings in this browser only. Registered configs: this page's.
  const registered = new Map();
  const clientValues = new Map();
  const applySetting = (id, value, fromUserId) => {
    const config = registered.get(id);
    const user = world.users.get(fromUserId);
    if (config && config.scope !== "world") return;
    if (!user?.hasPermission("SETTINGS_MODIFY")) {
      console.warn(`sandbox: refused setting ${id} from ${user?.name ?? fromUserId}`);
      return;
    }
    world.settings.set(id, value);
    config?.onChange?.(value);
  };

  // Who is connected, per browser: every page is one socket (its own id), some pages share a user.
  const socketId = randomId();
  const sockets = new Map(); // socket id -> user id, of the other pages
  const setActive = (user) => {
    const active = user.id === me.id || [...sockets.values()].includes(user.id);
    if (user.active === active) return;
    user.active = active;
    Hooks.callAll("userConnected", user, active);
    world.changed();
  };
  const onPresence = (data) => {
    if (data.op === "presence?") {
      world.sync.post({ op: "hello", user: me.id, socket: socketId });
      return;
    }
    const user = world.users.get(data.user);
    if (!user || data.socket === socketId) return;
    if (data.op === "hello") sockets.set(data.socket, user.id);
    else sockets.delete(data.socket);
    setActive(user);
  };

  world.sync = connectWorld(world, {
    onSetting: applySetting,
    onScene,
    onPresence,
    onReset,
    createMessage: (data, options, remote) => createMessage(world, data, options, remote),
    deleteMessage: (id, options, remote) => deleteMessage(world, id, options, remote),
  });
  // The world as the server hands it over: from the store, before anything else runs.
  world.store = await WorldStore.open(worldId);
  loadRecords(world, await world.store.entries(), ChatMessage);
  await world.sync.start();

  const socketHandlers = [];
  const socket = new BroadcastChannel("volley-sandbox-socket");
  socket.onmessage = ({ data: { name, data, sender, recipients } }) => {
    if (recipients && !recipients.includes(me.id)) return;
    for (const handler of [...socketHandlers]) if (handler.name === name) handler.fn(data, sender);
  };

  const moduleEntry = { id: "volley", version: "sandbox", active: true, api: null };

  // Client settings are this browser's: Foundry keeps them in the browser's localStorage, so they
  // outlive a reload. One sandbox browser is one user's tab (`browser`) in one sandbox run (`worldId`).
  const clientKey = (id) => `volley-sandbox:${worldId}:${userId}:${browser}:${id}`;
  const keepClientSetting = (id, value) => {
    try {
      localStorage.setItem(clientKey(id), JSON.stringify(value ?? null));
    } catch {
      // storage full or refused: the value lasts until the page goes, as before
    }
  };
  const keptClientSetting = (id) => {
    try {
      const raw = localStorage.getItem(clientKey(id));
      return raw === null ? undefined : JSON.parse(raw);
    } catch {
      return undefined;
    }
  };
  /** v14: "The `core.rollMode` client setting is deprecated in favor of `core.messageMode`" (JohanFalt/Foundry_WoD20#1395). */
  const rollModeWarning = () =>
    logCompatibilityWarning("The `core.rollMode` client setting is deprecated in favor of `core.messageMode`", { since: 14, until: 16 });

  const game = {
    /** v13 and v14: `game.release` (generation, build), as GGA's foundry-compat.ts reads it. */
    release: { ...release },
    version: release.version,
    world: { id: "volley-sandbox" },
    system: { id: "volley-sandbox" },
    user: me,
    users: Object.defineProperties(world.users, {
      current: { get: () => me },
      players: { get: () => world.users.filter((u) => !u.isGM) },
      /** v13: one active GM, a full GM before an assistant, the lowest id first. */
      activeGM: {
        get: () => world.users.contents.filter((u) => u.active && u.isGM).sort((a, b) => b.role - a.role || (a.id < b.id ? -1 : 1))[0] ?? null,
      },
    }),
    settings: {
      register(scope, key, config) {
        registered.set(`${scope}.${key}`, { ...config });
      },
      /** v13 ClientSettings#registerMenu: Foundry's settings window opens `new type()`; menus by id. */
      menus: new Map(),
      registerMenu(scope, key, data) {
        this.menus.set(`${scope}.${key}`, { key, namespace: scope, ...data });
      },
      get(scope, key) {
        const id = `${scope}.${key}`;
        if (release.generation >= 14 && id === "core.rollMode") {
          rollModeWarning();
          return messageModeToLegacy(this.get("core", "messageMode"));
        }
        const config = registered.get(id);
        if (!config) throw new Error(`setting ${id} is not registered`);
        if (config.scope !== "world" && !clientValues.has(id)) {
          const kept = keptClientSetting(id);
          if (kept !== undefined) clientValues.set(id, kept);
        }
        const values = config.scope === "world" ? world.settings : clientValues;
        return values.has(id) ? deepClone(values.get(id)) : deepClone(config.default);
      },
      /**
       * A world setting is a Setting document: creating or updating it needs SETTINGS_MODIFY (v13
       * BaseSetting `#canModify`, types common/documents/setting.d.mts; the permission's default
       * role is ASSISTANT, common/constants.d.mts). A player's promise rejects and nothing changes.
       */
      async set(scope, key, value) {
        const id = `${scope}.${key}`;
        if (release.generation >= 14 && id === "core.rollMode") {
          rollModeWarning();
          return this.set("core", "messageMode", legacyToMessageMode(value));
        }
        const config = registered.get(id);
        if (!config) throw new Error(`setting ${id} is not registered`);
        if (config.scope === "world") {
          if (!me.hasPermission("SETTINGS_MODIFY")) throw permissionError(me, "update", { documentName: "Setting", id });
          world.settings.set(id, deepClone(value));
          world.store.put(`setting/${id}`, value);
          world.sync.broadcastSetting(id, deepClone(value), me.id);
        } else {
          clientValues.set(id, deepClone(value));
          keepClientSetting(id, value);
        }
        config.onChange?.(value);
        return value;
      },
    },
    i18n,
    /**
     * The module socket, as Foundry's server relays it: only `module.*` and `system.*` events; to every
     * other browser (other browsers of the same user too, never back to the sender). Each handler is
     * called with exactly two arguments: the event's first argument (the data) and the sender's user
     * id, which the server sets and the sender cannot choose; anything else emitted is not relayed. An
     * options argument `{recipients: [userId...]}` routes the event to those users' browsers only (the
     * issue's reading of v13's server, #32; Foundry's server source is not public). `id`: this
     * browser's own connection id.
     */
    socket: {
      id: socketId,
      emitted: [],
      emit(name, data, options) {
        if (!/^(module|system)\./.test(String(name))) {
          console.warn(`sandbox: Foundry relays module.* and system.* socket events only, not ${name}`);
          return false;
        }
        const recipients = Array.isArray(options?.recipients) ? options.recipients.filter((id) => typeof id === "string") : null;
        this.emitted.push({ name, data, recipients });
        socket.postMessage({ name, data: data === undefined ? null : structuredClone(data), sender: me.id, recipients });
        return true;
      },
      on(name, fn) {
        socketHandlers.push({ name, fn });
        return this;
      },
      off(name, fn) {
        const i = socketHandlers.findIndex((h) => h.name === name && (!fn || h.fn === fn));
        if (i >= 0) socketHandlers.splice(i, 1);
        return this;
      },
    },
    modules: new Map([["volley", moduleEntry]]),
    messages: world.messages,
    macros,
    scenes: world.scenes,
    combats: world.combats,
    actors: world.actors,
    /** v13: the encounter of the viewed scene. */
    get combat() {
      return world.combats.find((combat) => combat.scene === canvas.scene && combat.active) ?? null;
    },
    ready: false,
  };

  // Core's own client setting for who reads a chat message: v13 `core.rollMode` (publicroll, gmroll,
  // blindroll, selfroll); v14 `core.messageMode` (public, gm, blind, self, ic; GGA's foundry-compat.ts,
  // Twodsix 7.x), with `core.rollMode` a deprecated alias of it (settings.get and set above).
  if (release.generation >= 14) {
    game.settings.register("core", "messageMode", { scope: "client", config: false, type: String, default: "public", choices: Object.keys(MESSAGE_MODES) });
  } else {
    game.settings.register("core", "rollMode", { scope: "client", config: false, type: String, default: "publicroll", choices: Object.keys(ROLL_MODES) });
  }

  const notifications = [];
  const ui = {
    notifications: Object.fromEntries(
      ["info", "warn", "error"].map((level) => [
        level,
        (text) => {
          notifications.push({ level, text });
          notify(level, text);
        },
      ]),
    ),
  };

  // v13: CONFIG.statusEffects an array; v14: a registry keyed by id (generations.js statusRegistry).
  // CONFIG.ChatMessage.modes is v14's; CONFIG.Dice.rollModes and CONST.DICE_ROLL_MODES are v13's, kept in
  // v14 with a warning ("`CONST.DICE_ROLL_MODES` is deprecated in favor of configured
  // CONFIG.ChatMessage.modes", types main common/constants.d.mts; CONFIG.Dice.rollModes: dnd5e#6958).
  const CONFIG = {
    statusEffects: release.generation >= 14 ? statusRegistry(coreStatusEffects()) : coreStatusEffects(),
    ChatMessage: { documentClass: ChatMessage },
    Dice: {},
    compatibility: { mode: 1, includePatterns: [], excludePatterns: [] },
  };
  if (release.generation >= 14) CONFIG.ChatMessage.modes = MESSAGE_MODES;
  deprecatedOnV14(CONFIG.Dice, "rollModes", ROLL_MODES, release.generation, "CONFIG.Dice.rollModes is deprecated in favor of CONFIG.ChatMessage.modes");
  const constants = { DOCUMENT_OWNERSHIP_LEVELS: OWNERSHIP, USER_ROLES: ROLES };
  deprecatedOnV14(
    constants,
    "DICE_ROLL_MODES",
    DICE_ROLL_MODES,
    release.generation,
    "`CONST.DICE_ROLL_MODES` is deprecated in favor of configured CONFIG.ChatMessage.modes.",
  );
  const CONST = Object.freeze(constants);

  // The board is the canvas: its element is the view, one board pixel is one canvas pixel (no pan or
  // zoom), and the scene's grid says how many of its distance units a grid square is.
  const board = () => document.getElementById("board");
  const boardOrigin = () => {
    const rect = board().getBoundingClientRect();
    return { left: rect.left + board().clientLeft, top: rect.top + board().clientTop };
  };
  const canvas = {
    scene: world.scenes.contents[0],
    ready: true,
    app: {
      get view() {
        return board();
      },
    },
    get grid() {
      return { ...canvas.scene.grid };
    },
    get dimensions() {
      const { size, distance, units } = canvas.scene.grid;
      return { size, distance, units, distancePixels: size / distance, width: board().clientWidth, height: board().clientHeight };
    },
    canvasCoordinatesFromClient({ x, y }) {
      const origin = boardOrigin();
      return { x: x - origin.left, y: y - origin.top };
    },
    clientCoordinatesFromCanvas({ x, y }) {
      const origin = boardOrigin();
      return { x: x + origin.left, y: y + origin.top };
    },
    tokens: {
      /** The tokens this user controls (a click on a token controls it; shift-click adds: ui.js). */
      controlled: [],
      get: (id) => canvas.scene.tokens.get(id)?.object,
      get placeables() {
        return canvas.scene.tokens.contents.map((t) => t.object);
      },
    },
  };

  const foundryNs = {
    utils: { getProperty, setProperty, mergeObject: (a, b) => mergeObject(a, b), deepClone, expandObject, randomID: randomId, logCompatibilityWarning },
    applications: {
      api: { ApplicationV2, DialogV2, HandlebarsApplicationMixin },
      ...(release.generation >= 14 ? { detached: detachedWindows } : {}),
      handlebars: { getTemplate, renderTemplate, loadTemplates },
      sheets: { ActorSheetV2 },
    },
    dice: { Roll, terms: { Die, OperatorTerm, NumericTerm } },
    documents: { ChatMessage },
  };

  ui.hotbar = installHotbar({ user: me, i18n });
  Object.assign(globalThis, { Hooks, game, ui, CONFIG, CONST, foundry: foundryNs, ChatMessage, Roll, canvas, Macro });

  const presence = {
    /** This page opens: tell the others, and ask who is there. */
    announce() {
      me.active = true;
      world.sync.post({ op: "hello", user: me.id, socket: socketId });
      world.sync.post({ op: "presence?" });
    },
    leave() {
      world.sync.post({ op: "bye", user: me.id, socket: socketId });
    },
    /** How many other pages of this table belong to a GM (as heard since `announce`). */
    otherGmPages() {
      return [...sockets.values()].filter((id) => world.users.get(id)?.isGM).length;
    },
  };
  return { world, game, notifications, canvas, presence, socketId, registered };
}

export { allTokens };
