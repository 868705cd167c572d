// A stand-in for the few Foundry VTT globals Volley's module touches. TEST HARNESS, NOT FOUNDRY:
// it mimics the shapes the module relies on (v13 names: foundry.applications.api.DialogV2,
// foundry.applications.handlebars, ChatMessage, Hooks, game.settings/i18n/socket/users, the Token HUD
// render hook passing an HTMLElement) just well enough to run the real module in a real browser.

const byId = (id) => document.getElementById(id);

/** Split "a.b.c" paths into nested objects (how Foundry's update() reads dotted keys). */
function setPath(target, path, value) {
  const parts = path.split(".");
  let o = target;
  for (const p of parts.slice(0, -1)) o = o[p] ??= {};
  o[parts.at(-1)] = value;
}

function getPath(target, path) {
  return path.split(".").reduce((o, k) => (o === undefined || o === null ? undefined : o[k]), target);
}

// --- Hooks ---------------------------------------------------------------------------------------
const hooks = new Map();
const Hooks = {
  on(name, fn) {
    if (!hooks.has(name)) hooks.set(name, []);
    hooks.get(name).push({ fn, once: false });
  },
  once(name, fn) {
    if (!hooks.has(name)) hooks.set(name, []);
    hooks.get(name).push({ fn, once: true });
  },
  callAll(name, ...args) {
    const list = hooks.get(name) ?? [];
    hooks.set(name, list.filter((h) => !h.once));
    for (const h of list) h.fn(...args);
  },
};

// --- documents -----------------------------------------------------------------------------------
class FakeActor {
  constructor() {
    this.statuses = new Set();
  }
  async toggleStatusEffect(id, { active }) {
    if (!CONFIG.statusEffects.some((s) => s.id === id)) throw new Error(`Invalid status ID "${id}"`);
    if (active) this.statuses.add(id);
    else this.statuses.delete(id);
    harness.render();
  }
}

class FakeTokenDocument {
  constructor({ id, name, x, y, owner, flags = {} }) {
    Object.assign(this, { id, name, x, y, owner });
    this.flags = { volley: structuredClone(flags) };
    this.actor = new FakeActor();
    this.updates = [];
  }
  get isOwner() {
    return this.owner === game.user.id || game.user.isGM;
  }
  testUserPermission(user, level) {
    return level === "OWNER" && (user.isGM || user.id === this.owner);
  }
  getFlag(scope, key) {
    return getPath(this.flags[scope] ?? {}, key);
  }
  async update(changes) {
    this.updates.push(structuredClone(changes));
    for (const [path, value] of Object.entries(changes)) setPath(this, path, value);
    harness.render();
    return this;
  }
}

class FakeToken {
  constructor(document) {
    this.document = document;
    this.id = document.id;
  }
}

// --- the world -----------------------------------------------------------------------------------
const users = [
  { id: "gm0000000000000a", name: "Referee", isGM: true, active: true },
  { id: "pl0000000000000b", name: "Player", isGM: false, active: true },
];
const me = { ...users[0], targets: new Set() };

const sceneTokens = new Map();
for (const t of [
  new FakeTokenDocument({
    id: "tokHale000000001",
    name: "Sgt. Hale",
    x: 30,
    y: 40,
    owner: users[1].id,
    flags: { skill: 14, weapon: { name: "MP5", rof: 13, rcl: 2, loaded: 30, capacity: 30, malf: 17, jammed: false } },
  }),
  new FakeTokenDocument({ id: "tokRaider0000002", name: "Raider", x: 330, y: 60, owner: null }),
  new FakeTokenDocument({ id: "tokLookout000003", name: "Lookout <b>2</b>", x: 330, y: 200, owner: null }),
]) {
  sceneTokens.set(t.id, t);
}
const placeables = new Map([...sceneTokens.values()].map((d) => [d.id, new FakeToken(d)]));
const scene = { id: "scene00000000001", tokens: sceneTokens };

const settings = new Map();
const strings = await (await fetch("/modules/volley/lang/en.json")).json();
const localize = (key) => getPath(strings, key) ?? key;

const socketHandlers = [];
const socketChannel = new BroadcastChannel("volley-harness-socket");
socketChannel.onmessage = ({ data: { name, data, sender } }) => {
  for (const h of socketHandlers) if (h.name === name) h.fn(data, sender);
};
const chat = [];
const notifications = [];
const moduleEntry = { id: "volley", version: "0.1.0-harness", api: null };

const game = {
  world: { id: "harness-world" },
  user: me,
  users: {
    get contents() {
      return users;
    },
    get: (id) => users.find((u) => u.id === id),
  },
  settings: {
    register(scope, key, config) {
      settings.set(`${scope}.${key}`, { config, value: config.default });
    },
    get(scope, key) {
      return settings.get(`${scope}.${key}`)?.value;
    },
    async set(scope, key, value) {
      const entry = settings.get(`${scope}.${key}`);
      entry.value = value;
      entry.config.onChange?.(value);
    },
  },
  i18n: {
    localize,
    format: (key, data) => localize(key).replace(/{(\w+)}/g, (_, k) => String(data[k] ?? "")),
  },
  // The module socket between harness pages (tabs) of one browser: a BroadcastChannel, which like
  // Foundry's socket reaches every other client but not the sender, and tells who sent it.
  socket: {
    emitted: [],
    emit(name, data) {
      this.emitted.push({ name, data });
      socketChannel.postMessage({ name, data, sender: me.id });
    },
    on(name, fn) {
      socketHandlers.push({ name, fn });
    },
  },
  modules: { get: (id) => (id === "volley" ? moduleEntry : undefined) },
  messages: {
    get contents() {
      return chat;
    },
  },
  scenes: { contents: [scene] },
};

const ui = {
  notifications: Object.fromEntries(
    ["info", "warn", "error"].map((level) => [
      level,
      (message) => {
        notifications.push({ level, message });
        const div = document.createElement("div");
        div.className = `notification ${level}`;
        div.textContent = message;
        byId("notifications").append(div);
      },
    ]),
  ),
};

const CONFIG = { statusEffects: [{ id: "prone", name: "Prone", img: "icons/svg/falling.svg" }] };

// --- templates and dialogs -----------------------------------------------------------------------
const hb = Handlebars.create();
hb.registerHelper("localize", (key) => localize(key));
const templates = new Map();
async function getTemplate(path) {
  if (!templates.has(path)) {
    const response = await fetch(`/${path}`);
    if (!response.ok) throw new Error(`template ${path}: HTTP ${response.status}`);
    templates.set(path, hb.compile(await response.text()));
  }
  return templates.get(path);
}

class DialogV2 {
  /** Like DialogV2.wait: content and buttons inside one <form>; resolves with the button callback's value. */
  static wait(config) {
    return new Promise((resolve) => {
      const dialog = new DialogV2();
      const element = document.createElement("dialog");
      element.className = ["harness-dialog", ...(config.classes ?? [])].join(" ");
      element.open = true;
      const title = document.createElement("h2");
      title.textContent = config.window?.title ?? "";
      const form = document.createElement("form");
      form.innerHTML = config.content; // the module's own template output
      // Foundry cleans string content (foundry.utils.cleanHTML); assume the worst case for the
      // module, that no data- attribute survives, so the module cannot come to rely on one.
      for (const el of form.querySelectorAll("*")) {
        for (const name of el.getAttributeNames()) if (name.startsWith("data-")) el.removeAttribute(name);
      }
      const footer = document.createElement("footer");
      for (const b of config.buttons) {
        const button = document.createElement("button");
        button.type = "submit";
        button.dataset.action = b.action;
        button.textContent = b.label;
        button.addEventListener("click", async (event) => {
          event.preventDefault();
          const value = b.callback ? await b.callback(event, button, dialog) : b.action;
          element.remove();
          config.close?.();
          resolve(value);
        });
        footer.append(button);
      }
      form.append(footer);
      element.append(title, form);
      dialog.element = element;
      byId("dialogs").append(element);
      config.render?.(new Event("render"), dialog);
    });
  }
}

const foundryNs = {
  applications: {
    api: { DialogV2 },
    handlebars: {
      getTemplate,
      renderTemplate: async (path, data) => (await getTemplate(path))(data),
    },
  },
};

const ChatMessage = {
  getSpeaker: ({ token } = {}) => ({ alias: token?.name ?? "Gamemaster", token: token?.id ?? null }),
  async create(data) {
    const message = { ...structuredClone(data), id: `msg${chat.length}` };
    chat.push(message);
    const li = document.createElement("li");
    li.className = "chat-message";
    li.dataset.messageId = message.id;
    li.innerHTML = data.content; // Foundry also inserts message content as HTML
    byId("chat-log").prepend(li);
    return message;
  },
};

const canvas = { scene, tokens: { get: (id) => placeables.get(id) } };

// --- harness controls (what a test drives) ------------------------------------------------------
const harness = {
  chat,
  notifications,
  scene,
  users,
  render() {
    const board = byId("board");
    for (const doc of sceneTokens.values()) {
      let el = board.querySelector(`[data-token-id="${doc.id}"]`);
      if (!el) {
        el = document.createElement("div");
        el.className = "harness-token";
        el.dataset.tokenId = doc.id;
        el.style.left = `${doc.x}px`;
        el.style.top = `${doc.y}px`;
        el.innerHTML = '<strong class="name"></strong><div class="loaded"></div><div class="statuses"></div>';
        el.addEventListener("click", () => harness.showHud(doc.id));
        board.append(el);
      }
      el.querySelector(".name").textContent = doc.name;
      const loaded = doc.getFlag("volley", "weapon.loaded");
      el.querySelector(".loaded").textContent = loaded === undefined ? "" : String(loaded);
      el.querySelector(".statuses").textContent = [...doc.actor.statuses].join(", ");
      el.classList.toggle("targeted", me.targets.has(placeables.get(doc.id)));
    }
  },
  /** The user targets these tokens (Foundry: T key / targeting tool). */
  target(...ids) {
    me.targets.clear();
    for (const id of ids) me.targets.add(placeables.get(id));
    harness.render();
  },
  /** Open the Token HUD over a token, firing v13's render hook with an HTMLElement. */
  showHud(tokenId) {
    byId("token-hud")?.remove();
    const token = placeables.get(tokenId);
    const hud = document.createElement("div");
    hud.id = "token-hud";
    hud.className = "token-hud";
    hud.innerHTML = '<div class="col left"></div><div class="col middle"></div><div class="col right"></div>';
    hud.style.left = `${token.document.x}px`;
    hud.style.top = `${token.document.y + 70}px`;
    byId("board").append(hud);
    Hooks.callAll("renderTokenHUD", { object: token, document: token.document }, hud, {}, {});
  },
  /** Log in as another user of the world (a player) before the module starts. */
  actAs(userId) {
    const user = users.find((u) => u.id === userId);
    Object.assign(me, user, { targets: me.targets });
  },
};

Object.assign(globalThis, { Hooks, game, ui, CONFIG, foundry: foundryNs, ChatMessage, canvas, harness });
