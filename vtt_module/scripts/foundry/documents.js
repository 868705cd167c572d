/**
 * Reading and writing the documents Volley uses: tokens, their actors, the actor's weapons and numbers,
 * and their statuses. The referee's browser builds every rules request from what these documents hold.
 *
 * An unlinked token has its own synthetic actor (`token.actor`), so its rounds and jams are its own;
 * writes go through `token.actor`, never `game.actors`, for that reason.
 */

import { adapterFor } from "../adapters/index.js";
import { actorArsenal, weaponStateWrites } from "../profile/weapons.js";
import { FormError } from "../systems/common/fields.js";
import { derivedStatuses } from "../updates.js";
import { MODULE_ID } from "./settings.js";
import { setStatus } from "./statuses.js";

/**
 * @typedef {import("../profile/weapons.js").Arsenal} Arsenal
 * @typedef {import("../profile/types.js").VolleyWeapon} VolleyWeapon
 * @typedef {import("../systems/registry.js").RuleSystemPlugin} RuleSystemPlugin
 * @typedef {import("../systems/registry.js").RequestContext} RequestContext
 * @typedef {import("../systems/registry.js").Choice} Choice
 */

/**
 * A token document by id: the viewed scene first, then every scene.
 * @param {string} tokenId
 * @returns {TokenDocument | null}
 */
export function findTokenDocument(tokenId) {
  const here = canvas?.scene?.tokens?.get(tokenId);
  if (here) return here;
  for (const scene of game.scenes?.contents ?? []) {
    const doc = scene.tokens.get(tokenId);
    if (doc) return doc;
  }
  return null;
}

/**
 * The actor's plain data for the pure readers, with its id (a synthetic actor's too): the prepared data
 * (`toObject(false)`), so values the game system derives (an effective skill, a characteristic's total)
 * are there for the adapters.
 * @param {Actor | null | undefined} actor
 * @returns {Record<string, any>}
 */
export function actorData(actor) {
  if (!actor) return { flags: {} };
  const data = /** @type {Record<string, any>} */ (actor.toObject(false));
  data._id = actor.id;
  return data;
}

/**
 * What a token's actor can fire in `system`.
 * @param {TokenDocument} token
 * @param {string} system
 * @returns {Arsenal}
 */
export function arsenalOf(token, system) {
  return actorArsenal(actorData(token.actor), { system, adapter: adapterFor(game.system.id) });
}

/**
 * The active statuses of a token's actor.
 * @param {TokenDocument} token
 */
function statusesOf(token) {
  return [...(token.actor?.statuses ?? [])].map(String);
}

/**
 * A token's own Volley state (target lock, overwatch order, cover...).
 * @param {TokenDocument} token
 * @returns {Record<string, unknown>}
 */
export function tokenState(token) {
  const state = token.actor?.getFlag(MODULE_ID, "state");
  return typeof state === "object" && state !== null ? /** @type {Record<string, unknown>} */ (state) : {};
}

/**
 * Everything the referee's browser needs to turn a choice into a rules request, read from the documents.
 * @param {Choice} choice
 * @returns {RequestContext}
 */
export function requestContext(choice) {
  const token = findTokenDocument(choice.token);
  if (!token) throw new FormError("token", "VOLLEY.Form.UnknownToken");
  const arsenal = arsenalOf(token, choice.system);
  const weapon = arsenal.weapons.find((w) => w.id === choice.weapon);
  if (!weapon) throw new FormError("weapon", "VOLLEY.Form.UnknownWeapon");
  /** @type {RequestContext["targets"]} */
  const targets = new Map();
  const picked = Array.isArray(choice.targets) ? choice.targets : [];
  const others = Array.isArray(choice.tokens) ? choice.tokens : [];
  const named = [
    ...picked.slice(0, 32).map((entry) => (typeof entry === "object" && entry !== null ? String(/** @type {any} */ (entry).id ?? "") : "")),
    ...others.slice(0, 32).map((id) => (typeof id === "string" ? id : "")),
  ];
  for (const id of named) {
    const doc = id ? findTokenDocument(id) : null;
    if (!doc || !doc.id) continue;
    const theirs = actorArsenal(actorData(doc.actor), { system: choice.system, adapter: adapterFor(game.system.id) });
    targets.set(doc.id, {
      id: doc.id,
      name: doc.name ?? doc.id,
      character: theirs.character,
      statuses: statusesOf(doc),
      state: tokenState(doc),
    });
  }
  return {
    shooter: { id: String(token.id), name: token.name ?? String(token.id), state: tokenState(token) },
    weapon,
    character: arsenal.character,
    targets,
  };
}

/**
 * What a token holds now, for planning a result (updates.js TokenView).
 * @param {TokenDocument} token
 * @param {string} system
 * @returns {import("../updates.js").TokenView}
 */
export function tokenView(token, system) {
  const arsenal = arsenalOf(token, system);
  const state = tokenState(token);
  return {
    weaponState: (weaponId) => arsenal.weapons.find((w) => w.id === weaponId)?.state ?? null,
    state: (key) => foundry.utils.getProperty(state, key),
    hasStatus: (id) => Boolean(token.actor?.statuses?.has(id)),
  };
}

/**
 * @param {TokenDocument} token
 * @param {import("../profile/types.js").DocumentWrite[]} writes
 */
async function applyWrites(token, writes) {
  const actor = token.actor;
  if (!actor) return;
  for (const write of writes) {
    if (write.documentName === "Actor") await actor.update(write.changes);
    else if (write.documentName === "Item") await actor.items.get(write.id)?.update(write.changes);
  }
}

/**
 * How results and undos write to a token (updates.js TokenHandle).
 * @param {TokenDocument} token
 * @param {string} system
 * @returns {import("../updates.js").TokenHandle}
 */
export function tokenHandle(token, system) {
  return {
    setWeaponState: async (weaponId, changes) => {
      const weapon = arsenalOf(token, system).weapons.find((w) => w.id === weaponId);
      if (!weapon) throw new Error(`weapon ${weaponId} is no longer on ${token.name}`);
      await applyWrites(token, weaponStateWrites(actorData(token.actor), weapon, changes, adapterFor(game.system.id)));
    },
    setState: async (changes) => {
      /** @type {Record<string, unknown>} */
      const update = {};
      for (const [key, value] of Object.entries(changes)) update[`flags.${MODULE_ID}.state.${key}`] = value;
      await token.actor?.update(update);
    },
    setStatus: (id, active) => setStatus(token.actor, id, active),
  };
}

/**
 * Bring the statuses Volley derives from state (jammed, overwatch) in line with the token.
 * @param {TokenDocument} token
 * @param {RuleSystemPlugin} plugin
 */
export async function syncDerivedStatuses(token, plugin) {
  const arsenal = arsenalOf(token, plugin.id);
  const wanted = derivedStatuses(arsenal.weapons.map((weapon) => plugin.readout(weapon)), tokenState(token).overwatch);
  await setStatus(token.actor, "jammed", wanted.jammed);
  await setStatus(token.actor, "overwatch", wanted.overwatch);
}

/**
 * Remember the weapon a token last used, so the HUD shows its rounds.
 * @param {TokenDocument} token
 * @param {string} system
 * @param {string} weaponId
 */
export async function rememberCurrentWeapon(token, system, weaponId) {
  if (token.actor?.getFlag(MODULE_ID, `profile.current.${system}`) === weaponId) return;
  await token.actor?.update({ [`flags.${MODULE_ID}.profile.current.${system}`]: weaponId });
}
