// The world one sandbox page sees (TEST STAND-IN, NOT FOUNDRY): the users, actors, scenes with their
// tokens, and chat messages, built from a scene's description (createWorld), and the kept records put
// back on them as the server hands a world to a client that connects (loadRecords). The document
// classes are documents.js; keeping the pages in step is sync.js.

import { Actor, allTokens, Collection, Item, Scene, User } from "./documents.js";
import { findToken } from "./sync.js";
import { deepClone } from "./utils.js";

/** The world one sandbox page sees: the same documents in every page, one of them "me". */
export function createWorld({ scenes, users, me }) {
  const world = {
    users: new Collection(),
    actors: new Collection(),
    scenes: new Collection(),
    messages: new Collection(),
    settings: new Map(),
    me: null,
    store: null,
    onChange: () => {},
    changed() {
      this.onChange();
    },
    /** Keep one document's record (the sandbox's server storage). */
    keep(doc) {
      const key = doc.storeKey;
      if (key && this.store) this.store.put(key, doc.toStore());
    },
    forget(key) {
      this.store?.delete(key);
    },
  };
  for (const user of users) world.users.set(user.id, new User(world, user));
  world.me = world.users.get(me);
  for (const scene of scenes) {
    const tokens = scene.tokens.map((token) => {
      const actorId = token.actor.id ?? `${token.id}-actor`;
      world.actors.set(actorId, new Actor(world, { ...token.actor, id: actorId, name: token.name, ownership: token.ownership }));
      return { ...token, actorId, actorLink: token.actorLink ?? Boolean(token.ownership) };
    });
    world.scenes.set(scene.id, new Scene(world, { ...scene, tokens }));
  }
  return world;
}

/**
 * Put the kept records back on the world's documents, without hooks (the world as the server hands it
 * to a client that connects: before `init`).
 */
export function loadRecords(world, entries, ChatMessageClass) {
  const messages = [];
  for (const [key, value] of entries) {
    const [kind, ...rest] = key.split("/");
    const id = rest.join("/");
    if (kind === "actor") {
      const actor = world.actors.get(id);
      if (!actor) continue;
      actor.flags = deepClone(value.flags ?? {});
      actor.system = deepClone(value.system ?? {});
      actor.statuses = new Set(value.statuses ?? []);
      actor.items = new Collection((value.items ?? []).map((item) => [item._id, new Item(world, item, actor)]));
    } else if (kind === "token") {
      const token = findToken(world, id);
      if (!token) continue;
      Object.assign(token, { x: value.x, y: value.y, name: value.name, hidden: value.hidden, flags: deepClone(value.flags ?? {}), delta: deepClone(value.delta ?? {}) });
      token.synthetic = null;
    } else if (kind === "user") {
      const user = world.users.get(id);
      if (user) {
        user.flags = deepClone(value.flags ?? {});
        user.role = value.role ?? user.role;
      }
    } else if (kind === "msg") messages.push(value);
    else if (kind === "setting") world.settings.set(id, value);
    else if (kind === "combat") world.combats?.get(id)?.restore(value);
    else if (kind === "meta") world.meta = { ...(world.meta ?? {}), [id]: value };
  }
  messages.sort((a, b) => (a.timestamp ?? 0) - (b.timestamp ?? 0));
  for (const data of messages) world.messages.set(data._id, new ChatMessageClass(world, { ...data, id: data._id }));
  for (const token of allTokens(world)) token.rebuildActor();
}
