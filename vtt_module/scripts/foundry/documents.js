/**
 * Reading and writing the documents Volley uses: tokens, their actors, the actor's weapons and numbers,
 * and their statuses. The referee's browser builds every rules request from what these documents hold.
 *
 * An unlinked token has its own synthetic actor (`token.actor`), so its rounds and jams are its own;
 * writes go through `token.actor`, never `game.actors`, for that reason.
 */

import { findWeapon } from "../adapters/identity.js";
import { adapterForGame } from "../adapters/index.js";
import { actorArsenal, weaponStateWrites } from "../profile/weapons.js";
import { FormError } from "../fields.js";
import { metresPerUnit } from "../sector.js";
import { derivedStatuses } from "../updates.js";
import { MODULE_ID } from "./settings.js";
import { setStatus } from "./statuses.js";
import { t } from "./words.js";

/**
 * @typedef {import("../profile/weapons.js").Arsenal} Arsenal
 * @typedef {import("../profile/types.js").VolleyWeapon} VolleyWeapon
 * @typedef {import("../registry.js").RuleSystemPlugin} RuleSystemPlugin
 * @typedef {import("../registry.js").RequestContext} RequestContext
 * @typedef {import("../registry.js").Choice} Choice
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

/** Whether the version notice has been shown in this browser session. */
let versionNoticeShown = false;

/**
 * The adapter for the world's game system (null when Volley has none). When the installed version is
 * outside what the adapter reads, says so once per session; the dialog lists the notice too.
 * @returns {import("../profile/types.js").GameSystemAdapter | null}
 */
function worldAdapter() {
  const adapter = adapterForGame(/** @type {any} */ (game));
  if (adapter?.notice && !versionNoticeShown) {
    versionNoticeShown = true;
    ui.notifications?.warn(`Volley: ${t(`VOLLEY.Adapter.${adapter.notice.key}`, adapter.notice.values)}`);
  }
  return adapter;
}

/**
 * What a token's actor can fire in `system`.
 * @param {TokenDocument} token
 * @param {string} system
 * @returns {Arsenal}
 */
export function arsenalOf(token, system) {
  return actorArsenal(actorData(token.actor), { system, adapter: worldAdapter() });
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
 * A token's centre in pixels on its scene: its top-left corner plus half its size (in grid squares).
 * @param {TokenDocument} token
 * @returns {{x: number, y: number} | null}
 */
export function tokenCentrePixels(token) {
  const size = Number(token.parent?.grid?.size);
  const x = Number(token.x);
  const y = Number(token.y);
  const width = Number(token.width ?? 1);
  const height = Number(token.height ?? 1);
  if (!(size > 0) || ![x, y, width, height].every(Number.isFinite)) return null;
  return { x: x + (width * size) / 2, y: y + (height * size) / 2 };
}

/**
 * Metres per pixel on a token's scene (its grid: `distance` units per `size` pixels, in `units`), or
 * null when the scene's units cannot be turned into metres.
 * @param {Scene | null | undefined} scene
 */
export function metresPerPixel(scene) {
  const grid = scene?.grid;
  const size = Number(grid?.size);
  const distance = Number(grid?.distance);
  const perUnit = metresPerUnit(grid?.units);
  if (!(size > 0) || !(distance > 0) || perUnit === null) return null;
  return (distance * perUnit) / size;
}

/**
 * A token's centre in metres on its scene, for rules that measure (range bands, sectors of fire).
 * @param {TokenDocument} token
 * @returns {import("../registry.js").TokenCentre}
 */
export function tokenCentre(token) {
  const pixels = tokenCentrePixels(token);
  const scale = metresPerPixel(token.parent);
  return pixels && scale !== null ? { x: pixels.x * scale, y: pixels.y * scale } : null;
}

/**
 * A token's centre in grid squares on its scene, for rules that count squares (MegaTraveller's danger
 * space).
 * @param {TokenDocument} token
 * @returns {{x: number, y: number} | null}
 */
export function tokenCentreSquares(token) {
  const pixels = tokenCentrePixels(token);
  const size = Number(token.parent?.grid?.size);
  return pixels && size > 0 ? { x: pixels.x / size, y: pixels.y / size } : null;
}

/**
 * The tokens on a token's scene that this user can see, each with its centre as `where` measures it
 * (metres by default, for sectors of fire; grid squares or pixels for rules that count squares or when
 * the scene has no metres); a token the GM has hidden is left out for players.
 * @param {TokenDocument} token
 * @param {(doc: TokenDocument) => {x: number, y: number} | null} [where]
 * @returns {{id: string, name: string, centre: {x: number, y: number} | null}[]}
 */
export function placedTokens(token, where = tokenCentre) {
  const scene = token.parent;
  if (!scene) return [];
  return scene.tokens.contents
    .filter((doc) => doc.id && (game.user.isGM || !doc.hidden))
    .map((doc) => ({ id: String(doc.id), name: doc.name ?? String(doc.id), centre: where(doc) }));
}

/**
 * Everything the referee's browser needs to turn a choice into a rules request, read from the documents.
 * @param {Choice} choice
 * @param {string} [userId] whose choice it is
 * @returns {RequestContext}
 */
export function requestContext(choice, userId) {
  const token = findTokenDocument(choice.token);
  if (!token) throw new FormError("token", "VOLLEY.Form.UnknownToken");
  const arsenal = arsenalOf(token, choice.system);
  const weapon = findWeapon(arsenal.weapons, choice.weapon);
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
    const theirs = actorArsenal(actorData(doc.actor), { system: choice.system, adapter: worldAdapter() });
    targets.set(doc.id, {
      id: doc.id,
      name: doc.name ?? doc.id,
      character: theirs.character,
      statuses: statusesOf(doc),
      state: tokenState(doc),
      // Measured only on the shooter's scene: a token elsewhere has no distance to it.
      centre: doc.parent === token.parent ? tokenCentre(doc) : null,
    });
  }
  const user = userId ? game.users.get(userId) : null;
  // The token the shooter is locked on (MegaTraveller keeps it as an id): its name, for the log.
  const lock = tokenState(token).target;
  const locked = typeof lock === "string" && lock ? findTokenDocument(lock) : null;
  return {
    shooter: {
      id: String(token.id),
      name: token.name ?? String(token.id),
      statuses: statusesOf(token),
      state: tokenState(token),
      centre: tokenCentre(token),
      ...(locked?.name ? { lockName: locked.name } : {}),
    },
    weapon,
    character: arsenal.character,
    targets,
    requester: { id: String(userId ?? ""), isGM: Boolean(user?.isGM) },
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
    weaponState: (weaponId) => findWeapon(arsenal.weapons, weaponId)?.state ?? null,
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
      const weapon = findWeapon(arsenalOf(token, system).weapons, weaponId);
      if (!weapon) throw new Error(`weapon ${weaponId} is no longer on ${token.name}`);
      await applyWrites(token, weaponStateWrites(actorData(token.actor), weapon, changes, worldAdapter()));
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
