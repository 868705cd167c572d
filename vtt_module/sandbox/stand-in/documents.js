// The documents the module touches (users, actors and their items, tokens, scenes; chat messages in
// messages.js, combats in combat.js), kept in step between the sandbox's pages the way Foundry's server
// keeps real clients in step: a change is checked against the user's rights first, as the server checks
// it, then kept (store.js), broadcast (sync.js) and applied everywhere with the same hooks. A change the user may not make
// rejects its promise, as Foundry's does, and reaches no other page.
//
// TEST STAND-IN, NOT FOUNDRY. Where it has to choose how Foundry behaves, the comment names the v13
// source or type it followed (foundry-vtt-types 13.345.1, or v13 code quoted in public repositories).
//
// What it does not model: the server is not a separate process; a page that posts to the sandbox's
// BroadcastChannel or writes IndexedDB itself bypasses the checks (as a hacked Foundry server would).
// Receiving pages check the claimed user's rights again, so a change sent through the documents' API
// of one page never lands on another unless that user may make it.
//
// This file holds the document classes; the world a page builds from them and the records it loads
// back are world.js; the channel between the pages and what a page does with a change it hears are
// sync.js.

import { findStatus } from "./generations.js";
import { Hooks } from "./hooks.js";
import { deepClone, expandObject, getProperty, isPlainObject, mergeObject } from "./utils.js";
import { postChange } from "./sync.js";

/** CONST.DOCUMENT_OWNERSHIP_LEVELS */
export const OWNERSHIP = Object.freeze({ INHERIT: -1, NONE: 0, LIMITED: 1, OBSERVER: 2, OWNER: 3 });
/** CONST.USER_ROLES */
export const ROLES = Object.freeze({ NONE: 0, PLAYER: 1, TRUSTED: 2, ASSISTANT: 3, GAMEMASTER: 4 });
/**
 * CONST.USER_PERMISSIONS' default roles, for the permissions the stand-in checks (types:
 * common/constants.d.mts, `SETTINGS_MODIFY.defaultRole: USER_ROLES.ASSISTANT`).
 */
const PERMISSION_ROLES = Object.freeze({ SETTINGS_MODIFY: ROLES.ASSISTANT, MESSAGE_WHISPER: ROLES.PLAYER, TOKEN_CONFIGURE: ROLES.TRUSTED });

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

/** The error Foundry's server answers a refused write with (its message, as the client shows it). */
export function permissionError(user, action, doc) {
  const error = new Error(`User ${user?.name ?? "unknown"} lacks permission to ${action} ${doc.documentName} [${doc.id}]`);
  error.name = "PermissionError";
  return error;
}

/** Keys of an update that Foundry's data model never lets a client write. */
const IMMUTABLE = new Set(["_id", "id", "_stats"]);

/** Shared by every document: flags, update with Foundry's update semantics, permissions. */
export class Document {
  static documentName = "Document";

  constructor(world, data) {
    this.world = world;
    this.id = data.id ?? data._id;
    this.name = data.name ?? "";
    this.flags = deepClone(data.flags ?? {});
    this.ownership = { default: OWNERSHIP.NONE, ...(data.ownership ?? {}) };
  }

  get documentName() {
    return this.constructor.documentName;
  }

  get _id() {
    return this.id;
  }

  getFlag(scope, key) {
    return getProperty(this.flags?.[scope], key);
  }

  async setFlag(scope, key, value) {
    return this.update({ [`flags.${scope}.${key}`]: value });
  }

  async unsetFlag(scope, key) {
    const parts = String(key).split(".");
    const last = parts.pop();
    return this.update({ [`flags.${scope}.${[...parts, `-=${last}`].join(".")}`]: null });
  }

  /**
   * v13 ClientDocumentMixin / common Document#getUserLevel: the user's level from `ownership` (their own
   * entry, else `default`); a GM is OWNER of everything (client-document.mjs `permission`:
   * `if ( game.user.isGM ) return DOCUMENT_OWNERSHIP_LEVELS.OWNER`); an embedded document has its parent's.
   */
  getUserLevel(user) {
    if (!user) return OWNERSHIP.NONE;
    if (user.isGM) return OWNERSHIP.OWNER;
    const own = this.ownership?.[user.id];
    if (own !== undefined && own !== OWNERSHIP.INHERIT) return own;
    return this.ownership?.default ?? OWNERSHIP.NONE;
  }

  testUserPermission(user, level, { exact = false } = {}) {
    const wanted = typeof level === "string" ? OWNERSHIP[level] : Number(level);
    const have = this.getUserLevel(user);
    return exact ? have === wanted : have >= wanted;
  }

  get permission() {
    return this.getUserLevel(this.world.me);
  }

  get isOwner() {
    return this.testUserPermission(this.world.me, "OWNER");
  }

  /**
   * v13 Document#canUserModify(user, action, data): the document's own test for the action, else the
   * ownership level its metadata names (update and delete: OWNER by default).
   */
  canUserModify(user, action, _data = {}) {
    return this.testUserPermission(user, "OWNER");
  }

  /** Keys this document takes from an update, and how a change to them is kept. */
  _applyChanges(expanded) {
    mergeObject(this, expanded);
  }

  /**
   * Update: checked against the user's rights (the promise rejects, nothing changes anywhere, as
   * Foundry's server refuses it), then applied here, kept, told to the other pages, with the update hook.
   */
  async update(changes, { fromSync: _f, userId: _u, ...options } = {}) {
    return this._update(changes, options, { fromSync: false, userId: this.world.me.id });
  }

  /** The update as the "server" runs it: `userId` is who asks (this page's user, or another page's). */
  async _update(changes, options, { fromSync, userId }) {
    const author = userId;
    const user = this.world.users.get(author);
    const expanded = expandObject(deepClone(changes ?? {}));
    for (const key of Object.keys(expanded)) if (IMMUTABLE.has(key)) delete expanded[key];
    if (!this.canUserModify(user, "update", expanded)) {
      const error = permissionError(user, "update", this);
      if (fromSync) {
        console.warn(`sandbox: refused a change from another page: ${error.message}`);
        return this;
      }
      throw error;
    }
    this._applyChanges(expanded);
    if (!fromSync) {
      this.world.keep(this);
      postChange({ op: "update", doc: this.syncKind, id: this.syncId, changes: deepClone(changes), userId: author, options });
    }
    this._onUpdate(expanded, options, author);
    this.world.changed();
    return this;
  }

  _onUpdate(changed, options, userId) {
    Hooks.callAll(`update${this.documentName}`, this, changed, options, userId);
  }

  /** How other pages find this document. */
  get syncKind() {
    return this.documentName;
  }

  get syncId() {
    return this.id;
  }

  /** The record the store keeps for this document (null: not kept). */
  get storeKey() {
    return null;
  }

  toStore() {
    return null;
  }
}

export class User extends Document {
  static documentName = "User";

  constructor(world, data) {
    const role = data.role ?? (data.isGM ? ROLES.GAMEMASTER : ROLES.PLAYER);
    super(world, data);
    this.role = role;
    this.active = data.active ?? false;
    this.targets = new Set();
    this.character = null;
  }

  /** v13 User#isGM: an assistant GM is a GM too (`hasRole("ASSISTANT")`). */
  get isGM() {
    return this.role >= ROLES.ASSISTANT;
  }

  get isSelf() {
    return this.id === this.world.me?.id;
  }

  hasRole(role, { exact = false } = {}) {
    const level = typeof role === "string" ? ROLES[role] : Number(role);
    return exact ? this.role === level : this.role >= level;
  }

  /** v13 BaseUser#hasPermission: the role the world's permission config gives it (defaults here). */
  hasPermission(permission) {
    if (this.role === ROLES.GAMEMASTER) return true;
    const role = PERMISSION_ROLES[permission];
    return role !== undefined && this.role >= role;
  }

  /**
   * v13 BaseUser: a user may update itself (not its role), a GM anyone (a full GM only may change roles
   * (`#canUpdate`: assistants may not promote)).
   */
  canUserModify(user, action, data = {}) {
    if (!user) return false;
    if (action === "update" && "role" in data) return user.role === ROLES.GAMEMASTER;
    if (user.isGM) return true;
    return action === "update" && user.id === this.id;
  }

  _applyChanges(expanded) {
    for (const key of ["flags", "name", "role"]) if (key in expanded) mergeObject(this, { [key]: expanded[key] });
  }

  get storeKey() {
    return `user/${this.id}`;
  }

  toStore() {
    return { flags: deepClone(this.flags), role: this.role };
  }
}

/** The update keys an actor takes: Foundry writes `system.*`, flags, name, img... and embedded items. */
const ACTOR_FIELDS = ["name", "img", "type", "system", "flags", "ownership"];

export class Item extends Document {
  static documentName = "Item";

  constructor(world, data, actor) {
    super(world, data);
    this.parent = actor;
    this.type = data.type ?? "item";
    this.system = deepClone(data.system ?? {});
  }

  get actor() {
    return this.parent;
  }

  /** v13: an embedded document's rights are its parent's. */
  getUserLevel(user) {
    return this.parent.getUserLevel(user);
  }

  _applyChanges(expanded) {
    for (const key of ["name", "img", "type", "system", "flags"]) if (key in expanded) mergeObject(this, { [key]: expanded[key] });
    this.parent._itemsChanged();
  }

  get syncKind() {
    return "Item";
  }

  get syncId() {
    return `${this.parent.syncKind}:${this.parent.syncId}|${this.id}`;
  }

  /** An item is kept in its actor's record (or its token's delta). */
  get storeKey() {
    return this.parent.storeKey;
  }

  toStore() {
    return this.parent.toStore();
  }

  toObject() {
    return { _id: this.id, name: this.name, type: this.type, system: deepClone(this.system), flags: deepClone(this.flags) };
  }
}

export class Actor extends Document {
  static documentName = "Actor";

  constructor(world, data) {
    super(world, data);
    this.type = data.type ?? "character";
    this.img = data.img ?? "";
    this.system = deepClone(data.system ?? {});
    this.statuses = new Set(data.statuses ?? []);
    this.items = new Collection();
    for (const item of data.items ?? []) this.items.set(item._id ?? item.id, new Item(world, item, this));
    /** @type {TokenDocument | null} the token whose synthetic actor this is (unlinked tokens only) */
    this.token = null;
  }

  /** A synthetic actor (an unlinked token's) is `isToken`; a world actor is not. */
  get isToken() {
    return this.token !== null;
  }

  toObject(_source = true) {
    return {
      _id: this.id,
      name: this.name,
      type: this.type,
      img: this.img,
      system: deepClone(this.system),
      flags: deepClone(this.flags),
      items: this.items.map((item) => item.toObject()),
      ownership: { ...this.ownership },
    };
  }

  /** The active tokens of this actor on the viewed scene (a synthetic actor's own token only). */
  getActiveTokens(_linked = false, document = false) {
    const tokens = this.token ? [this.token] : (canvas?.scene?.tokens?.filter((t) => t.actorLink && t.actorId === this.id) ?? []);
    return tokens.map((token) => (document ? token : token.object));
  }

  /** v13 BaseActor#canUpdate: ownership is required (types: common/documents/actor.d.mts). */
  canUserModify(user, action, data) {
    return super.canUserModify(user, action, data);
  }

  _applyChanges(expanded) {
    for (const key of ACTOR_FIELDS) if (key in expanded) mergeObject(this, { [key]: expanded[key] });
    // `items` in an actor update: Foundry merges embedded changes by _id.
    if (Array.isArray(expanded.items)) {
      for (const change of expanded.items) {
        const item = this.items.get(change._id);
        if (item) item._applyChanges(expandObject(change));
      }
    }
  }

  /** The linked actors of every token on every scene re-draw from their world actor on a change. */
  _onUpdate(changed, options, userId) {
    for (const token of allTokens(this.world)) if (!token.actorLink && token.actorId === this.id) token.rebuildActor();
    super._onUpdate(changed, options, userId);
  }

  get storeKey() {
    return `actor/${this.id}`;
  }

  toStore() {
    return { ...this.toObject(), statuses: [...this.statuses] };
  }

  /** An embedded item changed (a synthetic actor copies its items into its delta). */
  _itemsChanged() {}

  _setStatus(id, on) {
    if (on) this.statuses.add(id);
    else this.statuses.delete(id);
  }

  async updateEmbeddedDocuments(kind, updates, options = {}) {
    if (kind !== "Item") throw new Error(`the sandbox's actors embed Items only, not ${kind}`);
    const done = [];
    for (const { _id, ...changes } of updates) {
      const item = this.items.get(_id);
      if (item) done.push(await item.update(changes, options));
    }
    return done;
  }

  /** v13: creating an embedded Item needs OWNER of the actor; `createItem` fires on every page. */
  async createEmbeddedDocuments(kind, data, { fromSync: _f, userId: _u, ...options } = {}) {
    if (kind !== "Item") throw new Error(`the sandbox's actors embed Items only, not ${kind}`);
    return this._createItems(data, options, { fromSync: false, userId: this.world.me.id });
  }

  async _createItems(data, options, { fromSync, userId }) {
    const author = userId;
    const user = this.world.users.get(author);
    if (!this.canUserModify(user, "update", {})) {
      if (fromSync) return [];
      throw permissionError(user, "create Item in", this);
    }
    const made = data.map((d) => new Item(this.world, { ...deepClone(d), id: d._id ?? d.id ?? randomId() }, this));
    for (const item of made) this.items.set(item.id, item);
    this._itemsChanged();
    this._afterItems(fromSync, { op: "createItems", data: made.map((i) => i.toObject()) }, author);
    for (const item of made) Hooks.callAll("createItem", item, options, author);
    this.world.changed();
    return made;
  }

  async deleteEmbeddedDocuments(kind, ids, { fromSync: _f, userId: _u, ...options } = {}) {
    if (kind !== "Item") throw new Error(`the sandbox's actors embed Items only, not ${kind}`);
    return this._deleteItems(ids, options, { fromSync: false, userId: this.world.me.id });
  }

  async _deleteItems(ids, options, { fromSync, userId }) {
    const author = userId;
    const user = this.world.users.get(author);
    if (!this.canUserModify(user, "update", {})) {
      if (fromSync) return [];
      throw permissionError(user, "delete Item in", this);
    }
    const gone = ids.map((id) => this.items.get(id)).filter(Boolean);
    for (const item of gone) this.items.delete(item.id);
    this._itemsChanged();
    this._afterItems(fromSync, { op: "deleteItems", ids: gone.map((i) => i.id) }, author);
    for (const item of gone) Hooks.callAll("deleteItem", item, options, author);
    this.world.changed();
    return gone;
  }

  _afterItems(fromSync, message, userId) {
    if (fromSync) return;
    this.world.keep(this);
    postChange({ ...message, doc: this.syncKind, id: this.syncId, userId });
  }

  /**
   * Foundry v13: an unknown status id is an error, not a no-op; the status is an ActiveEffect embedded
   * in the actor, so only the actor's owner may toggle it.
   */
  async toggleStatusEffect(id, { active } = {}) {
    return this._toggleStatus(id, active, { fromSync: false, userId: this.world.me.id });
  }

  async _toggleStatus(id, active, { fromSync, userId }) {
    if (!findStatus(CONFIG.statusEffects, id)) {
      throw new Error(`Invalid status ID "${id}" provided to Actor#toggleStatusEffect`);
    }
    const author = userId;
    const user = this.world.users.get(author);
    if (!this.canUserModify(user, "update", {})) {
      if (fromSync) return this.statuses.has(id);
      throw permissionError(user, "create ActiveEffect in", this);
    }
    const on = active ?? !this.statuses.has(id);
    this._setStatus(id, on);
    if (!fromSync) {
      this.world.keep(this);
      postChange({ op: "status", doc: this.syncKind, id: this.syncId, status: id, active: on, userId: author });
    }
    const token = this.token ?? this.getActiveTokens(false, true)[0] ?? null;
    Hooks.callAll("applyTokenStatusEffect", token?.object, id, on);
    this.world.changed();
    return on;
  }
}

/**
 * An unlinked token's synthetic actor: its world actor's data with the token's own changes (its
 * ActorDelta) over it. Every write goes to the delta, never to the world actor (v13 `ActorDelta`:
 * types client/documents/actor-delta.d.mts); `updateActor` fires for the synthetic actor and
 * `updateToken` for its token with the `delta` change (the stand-in's reading of core's
 * `ActorDelta#_onUpdate`, which forwards to the synthetic actor's own handlers).
 */
export class SyntheticActor extends Actor {
  constructor(world, base, token) {
    super(world, { ...base.toObject(), id: base.id, statuses: [] });
    this.token = token;
    this.baseActor = base;
    this.rebuild();
  }

  rebuild() {
    const source = this.baseActor.toObject();
    const delta = this.token.delta;
    this.system = mergeObject(deepClone(source.system), deepClone(delta.system ?? {}));
    this.flags = mergeObject(deepClone(source.flags), deepClone(delta.flags ?? {}));
    this.img = delta.img ?? source.img;
    this.name = this.token.name;
    this.items = new Collection();
    const items = delta.items ?? source.items;
    for (const item of items) this.items.set(item._id, new Item(this.world, item, this));
    this.statuses = new Set(delta.statuses ?? this.baseActor.statuses);
  }

  /** v13: a synthetic actor's rights are its world actor's (the delta may not set ownership here). */
  getUserLevel(user) {
    return this.baseActor.getUserLevel(user);
  }

  get syncKind() {
    return "ActorDelta";
  }

  get syncId() {
    return this.token.syncId;
  }

  _applyChanges(expanded) {
    super._applyChanges(expanded);
    const delta = this.token.delta;
    for (const key of ["system", "flags"]) if (key in expanded) delta[key] = mergeObject(delta[key] ?? {}, deepClone(expanded[key]));
    for (const key of ["name", "img"]) if (key in expanded) delta[key] = expanded[key];
    if ("items" in expanded) delta.items = this.items.map((item) => item.toObject());
  }

  _onUpdate(changed, options, userId) {
    Hooks.callAll("updateActor", this, changed, options, userId);
    Hooks.callAll("updateToken", this.token, { delta: changed }, options, userId);
  }

  _itemsChanged() {
    this.token.delta.items = this.items.map((item) => item.toObject());
  }

  _setStatus(id, on) {
    super._setStatus(id, on);
    this.token.delta.statuses = [...this.statuses];
  }

  get storeKey() {
    return this.token.storeKey;
  }

  toStore() {
    return this.token.toStore();
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
    this.actorId = data.actorId;
    /** A player's own character is linked to its world actor; the referee's mooks are not. */
    this.actorLink = Boolean(data.actorLink);
    /** v13 ActorDelta: the unlinked token's own changes to its world actor. */
    this.delta = deepClone(data.delta ?? {});
    this.object = { id: this.id, document: this, get name() { return this.document.name; }, get actor() { return this.document.actor; } };
    this.synthetic = null;
  }

  get baseActor() {
    return this.world.actors.get(this.actorId) ?? null;
  }

  /** Linked: the world actor itself. Unlinked: a synthetic actor of its own (the same object each time). */
  get actor() {
    const base = this.baseActor;
    if (!base) return null;
    if (this.actorLink) return base;
    this.synthetic ??= new SyntheticActor(this.world, base, this);
    return this.synthetic;
  }

  rebuildActor() {
    this.synthetic?.rebuild();
  }

  /** v13 TokenDocument: its rights are its actor's (BaseToken#getUserLevel reads the actor's). */
  getUserLevel(user) {
    return this.baseActor?.getUserLevel(user) ?? super.getUserLevel(user);
  }

  _applyChanges(expanded) {
    for (const key of ["x", "y", "name", "hidden", "flags", "width", "height"]) if (key in expanded) mergeObject(this, { [key]: expanded[key] });
    if (isPlainObject(expanded.delta) && this.synthetic) this.synthetic._applyChanges(expanded.delta);
  }

  get syncId() {
    return `${this.parent.id}/${this.id}`;
  }

  get storeKey() {
    return `token/${this.syncId}`;
  }

  toStore() {
    return { x: this.x, y: this.y, name: this.name, hidden: this.hidden, flags: deepClone(this.flags), delta: deepClone(this.delta) };
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

  get isView() {
    return canvas?.scene === this;
  }
}

export function randomId() {
  const abc = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (n) => abc[n % abc.length]).join("");
}

/** Every token document of every scene. */
export function allTokens(world) {
  return world.scenes.contents.flatMap((scene) => scene.tokens.contents);
}
