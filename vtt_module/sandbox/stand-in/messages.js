// Foundry v13's ChatMessage: who may create one with which author, who owns it, who sees it, and the
// document operations (create, update, delete) with their hooks on every page.
//
// Followed: v13 common/documents/chat-message.mjs (BaseChatMessage, schemaVersion 13.341, as published
// in public copies of the common code): `#canCreate` (a GM with any author; anyone else only as the
// author, and with the PLAYER role), `permissions.delete: "OWNER"` (update: Document's default,
// "OWNER"), `getUserLevel` (the author is OWNER), `author`'s DocumentAuthorField (defaults to the
// creating user). Client side, foundry-vtt-types 13.345.1 client/documents/chat-message.d.mts and core's
// getters as quoted by game systems: `isRoll` (it has rolls), `visible` (a whisper is visible to its
// author and recipients, a whispered roll to everyone), `isContentVisible` (a roll's content: the
// whisper's recipients, and its author unless blind).
// TEST STAND-IN, NOT FOUNDRY.

import { Roll } from "./dice.js";
import { Document, OWNERSHIP, permissionError, randomId, ROLES } from "./documents.js";
import { Hooks } from "./hooks.js";
import { deepClone, mergeObject } from "./utils.js";

function rollOf(data) {
  if (data instanceof Roll) return data;
  return Roll.fromData(typeof data === "string" ? JSON.parse(data) : data);
}

export class ChatMessage extends Document {
  static documentName = "ChatMessage";

  constructor(world, data) {
    super(world, data);
    this.type = data.type ?? "base";
    this.style = data.style ?? 0;
    this.content = data.content ?? "";
    this.flavor = data.flavor ?? "";
    /** The stored data's ids (v13 `_source`): `author` is a user id there, the User document here. */
    this._source = { author: (typeof data.author === "object" ? data.author?.id : data.author) ?? world.me?.id ?? null };
    this.speaker = { scene: null, actor: null, token: null, alias: "", ...deepClone(data.speaker ?? {}) };
    this.whisper = [...(data.whisper ?? [])];
    this.blind = Boolean(data.blind);
    this.timestamp = data.timestamp ?? Date.now();
    this.sound = data.sound ?? null;
    this.system = deepClone(data.system ?? {});
    /** Roll instances, from the JSON the document keeps (v13 ChatMessage#_initialize). */
    this.rolls = (data.rolls ?? []).map(rollOf);
    this.ownership = {};
  }

  /** v13: `author` is a ForeignDocumentField, read as the User document (`message.author.isGM`). */
  get author() {
    return this.world.users.get(this._source.author) ?? null;
  }

  /** v13 BaseChatMessage#getUserLevel: the author is OWNER; otherwise Document's (a GM is OWNER). */
  getUserLevel(user) {
    if (user && user.id === this._source.author) return OWNERSHIP.OWNER;
    return super.getUserLevel(user);
  }

  /**
   * Update and delete need OWNER (BaseChatMessage's metadata). A non-GM may not hand a message to
   * another author: the stand-in's reading of the `author` field, as v13's BaseDrawing and BaseMacro
   * `#canUpdate` say it (`if ( !user.isGM && ("author" in data) && (data.author !== user.id) ) return false`).
   */
  canUserModify(user, action, data = {}) {
    if (!user) return false;
    if (action === "update" && !user.isGM && "author" in data && data.author !== user.id) return false;
    return this.testUserPermission(user, "OWNER");
  }

  /** v13 BaseChatMessage.#canCreate. */
  static canCreate(user, doc) {
    if (!user) return false;
    if (user.isGM) return true;
    if (user.id !== doc._source.author) return false; // you cannot impersonate a different user
    return user.hasRole(ROLES.PLAYER);
  }

  /** @deprecated since v12: the author. */
  get user() {
    return this.author;
  }

  get isAuthor() {
    return this._source.author === this.world.me?.id;
  }

  get isRoll() {
    return this.rolls.length > 0;
  }

  get visible() {
    if (this.whisper.length) {
      if (this.isRoll) return true;
      return this.isAuthor || this.whisper.includes(this.world.me.id);
    }
    return true;
  }

  get isContentVisible() {
    if (this.isRoll) {
      const isBlind = this.whisper.length && this.blind;
      if (this.whisper.length) return this.whisper.includes(this.world.me.id) || (this.isAuthor && !isBlind);
      return true;
    }
    return this.visible;
  }

  get alias() {
    return this.speaker.alias || this.user?.name || "";
  }

  _applyChanges(expanded) {
    for (const key of ["content", "flavor", "flags", "whisper", "blind", "speaker", "system", "author", "sound"]) {
      if (!(key in expanded)) continue;
      if (key === "whisper") this.whisper = [...expanded.whisper];
      else if (key === "author") this._source.author = typeof expanded.author === "object" ? expanded.author?.id : expanded.author;
      else if (key === "blind" || key === "content" || key === "flavor" || key === "sound") this[key] = expanded[key];
      else this[key] = mergeObject(this[key] ?? {}, deepClone(expanded[key])); // Foundry merges the diff deeply
    }
    if ("rolls" in expanded) this.rolls = (expanded.rolls ?? []).map(rollOf);
  }

  get storeKey() {
    return `msg/${this.id}`;
  }

  toStore() {
    return this.toObject();
  }

  toObject() {
    return {
      _id: this.id,
      type: this.type,
      style: this.style,
      content: this.content,
      flavor: this.flavor,
      author: this._source.author,
      speaker: deepClone(this.speaker),
      whisper: [...this.whisper],
      blind: this.blind,
      rolls: this.rolls.map((roll) => JSON.stringify(roll.toJSON())),
      flags: deepClone(this.flags),
      system: deepClone(this.system),
      timestamp: this.timestamp,
    };
  }

  async delete({ fromSync: _f, userId: _u, ...options } = {}) {
    return deleteMessage(this.world, this.id, options, { fromSync: false, userId: this.world.me.id });
  }
}

/**
 * Create a chat message (ChatMessage.create): checked as the server checks it (the promise rejects,
 * no page sees it), kept, then created on every page with `createChatMessage`.
 */
export async function createMessage(world, input, options = {}, { fromSync = false, userId = world.me.id } = {}) {
  const author = userId;
  const user = world.users.get(author);
  const data = deepClone({ ...(input ?? {}), rolls: undefined });
  const id = data._id ?? data.id ?? randomId();
  if (world.messages.has(id)) return world.messages.get(id);
  if (typeof data.author === "object" && data.author) data.author = data.author.id;
  data.author ??= author; // DocumentAuthorField: the creating user unless given
  const rolls = [];
  for (const roll of input?.rolls ?? []) {
    const made = rollOf(roll);
    // BaseChatMessage.#validateRoll
    if (!made.evaluated) throw new Error("Roll objects added to ChatMessage documents must be evaluated");
    rolls.push(made);
  }
  const message = new world.ChatMessageClass(world, { ...data, rolls, id });
  if (!ChatMessage.canCreate(user, message)) {
    const error = permissionError(user, "create", message);
    if (fromSync) {
      console.warn(`sandbox: refused a message from another page: ${error.message}`);
      return null;
    }
    throw error;
  }
  if (!fromSync && Hooks.call("preCreateChatMessage", message, data, options, author) === false) return undefined;
  world.messages.set(id, message);
  if (!fromSync) {
    world.keep(message);
    world.sync.post({ op: "create", doc: "ChatMessage", data: message.toObject(), userId: author });
  }
  Hooks.callAll("createChatMessage", message, options, author);
  world.changed();
  return message;
}

/** Delete a chat message (its owner, or a GM): gone from every page, with `deleteChatMessage`. */
export async function deleteMessage(world, id, options = {}, { fromSync = false, userId = world.me.id } = {}) {
  const message = world.messages.get(id);
  if (!message) return undefined;
  const author = userId;
  const user = world.users.get(author);
  if (!message.canUserModify(user, "delete")) {
    const error = permissionError(user, "delete", message);
    if (fromSync) {
      console.warn(`sandbox: refused a deletion from another page: ${error.message}`);
      return undefined;
    }
    throw error;
  }
  world.messages.delete(id);
  if (!fromSync) {
    world.forget(message.storeKey);
    world.sync.post({ op: "delete", doc: "ChatMessage", id, userId: author });
  }
  Hooks.callAll("deleteChatMessage", message, options, author);
  world.changed();
  return message;
}
