// Installs the stand-in Foundry globals (game, ui, CONFIG, foundry, ChatMessage, canvas, Hooks) for
// one sandbox client: the referee's page or the player's view. TEST STAND-IN, NOT FOUNDRY: it has the
// v13 names and shapes the module relies on, just enough to run the real module in a real browser.

import { ActorSheetV2, ApplicationV2, getTemplate, HandlebarsApplicationMixin, loadTemplates, registerHelpers, renderTemplate } from "./applications.js";
import { Combat } from "./combat.js";
import { allTokens, Collection, connectWorld, createMessage, createWorld } from "./documents.js";
import { Hooks } from "./hooks.js";
import { loadTranslations, makeI18n } from "./i18n.js";
import { installHotbar, Macro, macros } from "./macros.js";
import { deepClone, expandObject, getProperty, mergeObject, setProperty } from "./utils.js";

/** The status effects Foundry's core defines (a few of them): the module must add its own. */
export function coreStatusEffects() {
  return [
    { id: "dead", name: "EFFECT.StatusDead", img: "icons/svg/skull.svg" },
    { id: "unconscious", name: "EFFECT.StatusUnconscious", img: "icons/svg/unconscious.svg" },
    { id: "prone", name: "EFFECT.StatusProne", img: "icons/svg/falling.svg" },
    { id: "blind", name: "EFFECT.StatusBlind", img: "icons/svg/blind.svg" },
  ];
}

/**
 * @param {{lang: string, userId: string, scenes: object[], users: object[], notify: (level: string, text: string) => void,
 *   onChange: () => void, onChat: (message: object) => void, onScene: (id: string) => void}} setup
 */
export async function installFoundry({ lang, userId, scenes, users, notify, onChange, onChat, onScene }) {
  const translations = await loadTranslations(lang);
  const i18n = makeI18n(lang, translations);
  registerHelpers(i18n);
  const world = createWorld({ scenes, users, me: userId });
  // One encounter per scene, made alike in every client (same ids), not begun.
  world.combats = new Collection(world.scenes.contents.map((scene) => new Combat(world, scene)).map((combat) => [combat.id, combat]));
  world.onChange = onChange;
  const me = world.me;

  const settings = new Map();
  const applySnapshot = async (state) => {
    for (const { id, flags, statuses } of state.actors) {
      const token = allTokens(world).find((t) => t.actor.id === id);
      if (!token) continue;
      token.actor.flags = deepClone(flags);
      token.actor.statuses = new Set(statuses);
    }
    for (const { id, flags, active } of state.users) {
      const user = world.users.get(id);
      if (!user || user.id === world.me.id) continue;
      user.flags = deepClone(flags);
      user.active = active;
      Hooks.callAll("updateUser", user, { flags: deepClone(flags) }, {}, user.id);
    }
    for (const message of state.messages) await createMessage(world, message, { fromSync: true });
    for (const { id, round, turn, flags } of state.combats ?? []) world.combats.get(id)?.restore({ round, turn, flags });
    for (const [key, value] of Object.entries(state.settings)) {
      const entry = settings.get(key);
      if (entry && entry.config.scope === "world") {
        entry.value = value;
        world.settings.set(key, value);
        entry.config.onChange?.(value);
      }
    }
    onChange();
  };
  const sync = connectWorld(world, {
    onSetting: (key, value) => {
      const entry = settings.get(key);
      if (!entry || entry.config.scope !== "world") return;
      entry.value = value;
      entry.config.onChange?.(value);
    },
    onScene,
    applySnapshot,
  });

  const socketHandlers = [];
  const socket = new BroadcastChannel("volley-sandbox-socket");
  socket.onmessage = ({ data: { name, data, sender } }) => {
    for (const handler of socketHandlers) if (handler.name === name) handler.fn(data, sender);
  };

  const moduleEntry = { id: "volley", version: "sandbox", api: null };

  const game = {
    world: { id: "volley-sandbox" },
    system: { id: "volley-sandbox" },
    user: me,
    users: Object.defineProperties(world.users, {
      current: { get: () => me },
      /** v13: one active GM, a full GM before an assistant, the lowest id first. */
      activeGM: {
        get: () => world.users.contents.filter((u) => u.active && u.isGM).sort((a, b) => b.role - a.role || (a.id < b.id ? -1 : 1))[0] ?? null,
      },
    }),
    settings: {
      register(scope, key, config) {
        settings.set(`${scope}.${key}`, { config, value: config.default });
      },
      /** v13 ClientSettings#registerMenu: Foundry's settings window opens `new type()`; menus by id. */
      menus: new Map(),
      registerMenu(scope, key, data) {
        this.menus.set(`${scope}.${key}`, { key, namespace: scope, ...data });
      },
      get(scope, key) {
        const entry = settings.get(`${scope}.${key}`);
        if (!entry) throw new Error(`setting ${scope}.${key} is not registered`);
        return entry.value;
      },
      async set(scope, key, value) {
        const id = `${scope}.${key}`;
        const entry = settings.get(id);
        if (!entry) throw new Error(`setting ${id} is not registered`);
        entry.value = value;
        if (entry.config.scope === "world") {
          world.settings.set(id, value);
          sync.broadcastSetting(id, value);
        }
        entry.config.onChange?.(value);
        return value;
      },
    },
    i18n,
    // The module socket: reaches every other client of this sandbox (not the sender), with the sender's id.
    socket: {
      emitted: [],
      emit(name, data) {
        this.emitted.push({ name, data });
        socket.postMessage({ name, data: structuredClone(data), sender: me.id });
      },
      on(name, fn) {
        socketHandlers.push({ name, fn });
      },
    },
    modules: { get: (id) => (id === "volley" ? moduleEntry : undefined) },
    messages: world.messages,
    macros,
    scenes: world.scenes,
    combats: world.combats,
    /** v13: the encounter of the viewed scene. */
    get combat() {
      return world.combats.find((combat) => combat.scene === canvas.scene && combat.active) ?? null;
    },
    actors: { get: (id) => allTokens(world).find((t) => t.actor.id === id)?.actor, get contents() {
      return allTokens(world).map((t) => t.actor);
    } },
  };

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

  const CONFIG = { statusEffects: coreStatusEffects() };

  const ChatMessage = {
    getSpeaker: ({ token } = {}) => ({ alias: token?.name ?? me.name, token: token?.id ?? null, actor: token?.actor?.id ?? null }),
    async create(data) {
      const message = await createMessage(world, data);
      return message;
    },
  };
  world.messageAdded = onChat;

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
    utils: { getProperty, setProperty, mergeObject: (a, b) => mergeObject(a, b), deepClone, expandObject },
    applications: {
      api: { ApplicationV2, HandlebarsApplicationMixin },
      handlebars: { getTemplate, renderTemplate, loadTemplates },
      sheets: { ActorSheetV2 },
    },
  };

  ui.hotbar = installHotbar({ user: me, i18n });
  Object.assign(globalThis, { Hooks, game, ui, CONFIG, foundry: foundryNs, ChatMessage, canvas, Macro });
  return { world, game, notifications, settings, sync, canvas, applySnapshot };
}
