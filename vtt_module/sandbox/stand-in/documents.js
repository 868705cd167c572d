// The documents the module touches (users, actors, tokens, chat messages, scenes; combats in combat.js), kept in step
// between the sandbox's clients (the referee's page and the player's view) the way Foundry's server
// keeps real clients in step: every change is broadcast and applied everywhere, with the same hooks.

import { Hooks } from "./hooks.js";
import { deepClone, expandObject, getProperty, mergeObject } from "./utils.js";

const OWNER = 3;
const db = new BroadcastChannel("volley-sandbox-db");

export class Collection extends Map {
  get contents() {
    return [...this.values()];
  }
  find(fn) {
    return this.contents.find(fn);
  }
  filter(fn) {
    return this.contents.filter(fn);
  }
  some(fn) {
    return this.contents.some(fn);
  }
  map(fn) {
    return this.contents.map(fn);
  }
  getName(name) {
    return this.find((doc) => doc.name === name);
  }
}

/** Tell the other clients about a change (they apply it with `fromSync`). */
export function postChange(message) {
  db.postMessage(message);
}

/** Shared by every document: flags, update with Foundry's update semantics, permissions. */
export class Document {
  static documentName = "Document";

  constructor(world, data) {
    this.world = world;
    this.id = data.id;
    this.name = data.name ?? "";
    this.flags = deepClone(data.flags ?? {});
    this.ownership = { ...(data.ownership ?? {}) };
  }

  get documentName() {
    return this.constructor.documentName;
  }

  getFlag(scope, key) {
    return getProperty(this.flags?.[scope], key);
  }

  async setFlag(scope, key, value) {
    return this.update({ [`flags.${scope}.${key}`]: value });
  }

  testUserPermission(user, level) {
    if (user?.isGM) return true;
    const wanted = level === "OWNER" ? OWNER : Number(level);
    return (this.ownership[user?.id] ?? this.ownership.default ?? 0) >= wanted;
  }

  get isOwner() {
    return this.testUserPermission(this.world.me, "OWNER");
  }

  /** Apply an update here, tell the other clients, fire the update hook. */
  async update(changes, { fromSync = false, userId } = {}) {
    const expanded = expandObject(deepClone(changes));
    for (const key of Object.keys(expanded)) {
      if (!["flags", "name", "content", "x", "y", "role", "active"].includes(key)) delete expanded[key];
    }
    mergeObject(this, expanded);
    const author = userId ?? this.world.me.id;
    if (!fromSync) db.postMessage({ op: "update", doc: this.documentName, id: this.syncId, changes, userId: author });
    Hooks.callAll(`update${this.documentName}`, this, expanded, {}, author);
    this.world.changed();
    return this;
  }

  /** How other clients find this document (tokens are found through their scene). */
  get syncId() {
    return this.id;
  }
}

export class User extends Document {
  static documentName = "User";

  constructor(world, data) {
    super(world, data);
    this.isGM = Boolean(data.isGM);
    this.role = data.isGM ? 4 : 1;
    this.active = data.active ?? false;
    this.targets = new Set();
  }
}

export class Actor extends Document {
  static documentName = "Actor";

  constructor(world, data) {
    super(world, data);
    this.type = data.type ?? "character";
    this.system = deepClone(data.system ?? {});
    this.statuses = new Set(data.statuses ?? []);
    this.items = new Collection();
    /** @type {TokenDocument | null} the token whose synthetic actor this is */
    this.token = null;
  }

  get isToken() {
    return this.token !== null;
  }

  toObject() {
    return { _id: this.id, name: this.name, type: this.type, system: deepClone(this.system), flags: deepClone(this.flags), items: [] };
  }

  getActiveTokens(_linked = false, document = false) {
    const token = this.token;
    if (!token) return [];
    return [document ? token : token.object];
  }

  /** Foundry v13: an unknown status id is an error, not a no-op. */
  async toggleStatusEffect(id, { active, fromSync = false } = {}) {
    if (!CONFIG.statusEffects.some((status) => status.id === id)) {
      throw new Error(`Invalid status ID "${id}" provided to Actor#toggleStatusEffect`);
    }
    const on = active ?? !this.statuses.has(id);
    if (on) this.statuses.add(id);
    else this.statuses.delete(id);
    if (!fromSync) db.postMessage({ op: "status", id: this.id, status: id, active: on });
    Hooks.callAll("applyTokenStatusEffect", this.token?.object, id, on);
    this.world.changed();
    return on;
  }
}

export class TokenDocument extends Document {
  static documentName = "Token";

  constructor(world, data, scene) {
    super(world, data);
    this.parent = scene;
    this.x = data.x;
    this.y = data.y;
    // In grid squares, as in Foundry; the board draws a token 140 px wide on a 70 px grid.
    this.width = data.width ?? 2;
    this.height = data.height ?? 1;
    this.hidden = Boolean(data.hidden);
    this.actorLink = false;
    this.actor = new Actor(world, { ...data.actor, id: data.actor.id ?? `${data.id}-actor`, name: data.name, ownership: data.ownership });
    this.actor.token = this;
    this.object = { id: this.id, document: this, get name() { return this.document.name; } };
  }

  get syncId() {
    return `${this.parent.id}/${this.id}`;
  }
}

export class Scene {
  constructor(world, data) {
    this.id = data.id;
    this.name = data.name;
    this.system = data.system;
    /** Foundry's scene grid: `distance` units of `units` per `size` pixels. */
    this.grid = { type: 1, size: 70, distance: 1, units: "m", ...(data.grid ?? {}) };
    this.tokens = new Collection();
    for (const token of data.tokens) this.tokens.set(token.id, new TokenDocument(world, token, this));
  }
}

export class ChatMessage extends Document {
  static documentName = "ChatMessage";

  constructor(world, data) {
    super(world, data);
    this.content = data.content ?? "";
    this.author = data.author ?? null;
    this.speaker = deepClone(data.speaker ?? {});
    this.whisper = [...(data.whisper ?? [])];
    this.blind = Boolean(data.blind);
    this.timestamp = data.timestamp ?? Date.now();
  }

  toObject() {
    return {
      _id: this.id,
      content: this.content,
      author: this.author,
      speaker: deepClone(this.speaker),
      whisper: [...this.whisper],
      blind: this.blind,
      flags: deepClone(this.flags),
      timestamp: this.timestamp,
    };
  }
}

/** The world one sandbox client sees: the same documents in every client, one of them "me". */
export function createWorld({ scenes, users, me }) {
  const world = {
    users: new Collection(),
    scenes: new Collection(),
    messages: new Collection(),
    settings: new Map(),
    me: null,
    onChange: () => {},
    changed() {
      this.onChange();
    },
  };
  for (const user of users) world.users.set(user.id, new User(world, user));
  world.me = world.users.get(me);
  for (const scene of scenes) world.scenes.set(scene.id, new Scene(world, scene));
  return world;
}

/** Every token document of every scene. */
export function allTokens(world) {
  return world.scenes.contents.flatMap((scene) => scene.tokens.contents);
}

function findActor(world, id) {
  return allTokens(world).find((token) => token.actor.id === id)?.actor ?? null;
}

function findDocument(world, kind, id) {
  switch (kind) {
    case "Actor":
      return findActor(world, id);
    case "User":
      return world.users.get(id);
    case "ChatMessage":
      return world.messages.get(id);
    case "Combat":
      return world.combats?.get(id) ?? null;
    case "Token": {
      const [sceneId, tokenId] = String(id).split("/");
      return world.scenes.get(sceneId)?.tokens.get(tokenId) ?? null;
    }
    default:
      return null;
  }
}

/** Create a chat message (ChatMessage.create), here and in every other client. */
export async function createMessage(world, data, { fromSync = false } = {}) {
  const id = data._id ?? data.id ?? `msg${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  if (world.messages.has(id)) return world.messages.get(id);
  const message = new ChatMessage(world, { ...deepClone(data), id });
  world.messages.set(id, message);
  if (!fromSync) db.postMessage({ op: "create", doc: "ChatMessage", data: message.toObject() });
  Hooks.callAll("createChatMessage", message, {}, data.author ?? world.me.id);
  world.changed();
  return message;
}

/** What a client that opens later needs to catch up (the referee's page answers, and keeps it over a reload). */
export function snapshot(world) {
  return {
    actors: allTokens(world).map((token) => ({ id: token.actor.id, flags: token.actor.flags, statuses: [...token.actor.statuses] })),
    users: world.users.contents.map((user) => ({ id: user.id, flags: user.flags, active: user.active })),
    messages: world.messages.contents.map((message) => message.toObject()),
    settings: Object.fromEntries(world.settings),
    combats: (world.combats?.contents ?? []).map((combat) => ({ id: combat.id, round: combat.round, turn: combat.turn, flags: combat.flags })),
  };
}

/**
 * Listen to the other clients. `onSetting` applies a world setting; `onScene` shows a scene.
 * A client that is not the referee asks for a snapshot when it starts.
 */
export function connectWorld(world, { onSetting, onScene, applySnapshot }) {
  db.onmessage = async ({ data }) => {
    switch (data.op) {
      case "update": {
        const doc = findDocument(world, data.doc, data.id);
        if (doc) await doc.update(data.changes, { ...(data.options ?? {}), fromSync: true, userId: data.userId });
        break;
      }
      case "status": {
        const actor = findActor(world, data.id);
        if (actor) await actor.toggleStatusEffect(data.status, { active: data.active, fromSync: true });
        break;
      }
      case "create":
        await createMessage(world, data.data, { fromSync: true });
        break;
      case "setting":
        onSetting(data.key, data.value);
        break;
      case "scene":
        onScene(data.id);
        break;
      case "presence?":
        db.postMessage({ op: "connected", user: world.me.id, active: true, flags: world.me.flags });
        break;
      case "connected": {
        const user = world.users.get(data.user);
        if (user && user.id !== world.me.id && data.flags) user.flags = deepClone(data.flags);
        if (user && user.id !== world.me.id && user.active !== data.active) {
          user.active = data.active;
          Hooks.callAll("userConnected", user, data.active);
          world.changed();
        }
        break;
      }
      case "snapshot?":
        if (world.me.isGM) db.postMessage({ op: "snapshot", to: data.from, state: snapshot(world) });
        break;
      case "snapshot":
        if (data.to === world.me.id) applySnapshot(data.state);
        break;
      default:
    }
  };
  return {
    broadcastSetting: (key, value) => db.postMessage({ op: "setting", key, value }),
    broadcastScene: (id) => db.postMessage({ op: "scene", id }),
    askSnapshot: () => db.postMessage({ op: "snapshot?", from: world.me.id }),
    /** This client's user logs in or out (Foundry: the userConnected hook on every other client). */
    announce: (active) => db.postMessage({ op: "connected", user: world.me.id, active, flags: world.me.flags }),
    /** Who else is connected? Every open page answers with its user. */
    askPresence: () => db.postMessage({ op: "presence?" }),
  };
}

export { findActor };
