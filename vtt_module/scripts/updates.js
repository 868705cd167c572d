/**
 * A result's token updates, applied to the VTT, and the exact way back for Undo.
 *
 * The bridge sends absolute values per token (`{"token": id, "state": {"weapon.loaded": 27},
 * "statuses_add": ["suppressed"]}`), never deltas, so applying a result twice changes nothing the
 * second time: the plan keeps only what differs from the token now, and a status is switched on or
 * off explicitly, never toggled blind.
 *
 * Where a value lands:
 * - a weapon key (the system says which: `weapon.loaded`, MegaTraveller's `readiness`...) on the token
 *   that fired goes to **the weapon that fired**, by its id, never to a slot shared by all weapons;
 * - any other key is the token's own Volley state (`flags.volley.state.<key>` on its actor: a target
 *   lock, a standing overwatch order, cover);
 * - statuses go through the VTT's status effects.
 *
 * Before anything is written the old value of every field the plan changes is recorded (`before`),
 * and `undoPlans` turns that record back into plans: Undo puts rounds, jams and statuses back as
 * they were, and works after a reload because the record is kept in the chat message's flags.
 *
 * Flag and status names are checked (dotted identifiers only), so no update can reach outside the
 * module's namespace or into an object's prototype. Pure: tokens are reached through small views
 * and handles the glue builds from Foundry documents.
 */

import { isPlainObject } from "./protocol.js";
import { isStanding } from "./standing-orders.js";

export const FLAG_SCOPE = "volley";

const FLAG_NAME = /^[A-Za-z][A-Za-z0-9_-]*(\.[A-Za-z][A-Za-z0-9_-]*)*$/;
const FORBIDDEN_PARTS = new Set(["__proto__", "prototype", "constructor"]);
const STATUS_ID = /^[A-Za-z0-9_.-]{1,64}$/;

/**
 * @typedef {{token: string, state: Record<string, unknown>, add: string[], remove: string[]}} TokenChange
 * @typedef {{
 *   weaponState(weaponId: string): Record<string, unknown> | null,
 *   state(key: string): unknown,
 *   hasStatus(id: string): boolean
 * }} TokenView what one token holds now
 * @typedef {{token: string, weapon: {id: string, changes: Record<string, unknown>} | null,
 *   state: Record<string, unknown>, add: string[], remove: string[]}} TokenPlan
 * @typedef {{token: string, weapon: {id: string, values: Record<string, unknown>} | null,
 *   state: Record<string, unknown>, statuses: Record<string, boolean>}} TokenBefore
 *   the old values of exactly what a plan changes (null: the field was not set)
 * @typedef {{
 *   setWeaponState(weaponId: string, changes: Record<string, unknown>): Promise<unknown>,
 *   setState(changes: Record<string, unknown>): Promise<unknown>,
 *   setStatus(id: string, active: boolean): Promise<unknown>
 * }} TokenHandle how the glue writes to one token
 * @typedef {{token: string, weapon: string | null}} Firing the token that acted and the weapon it used
 */

/** @param {string} name */
export function isFlagName(name) {
  return FLAG_NAME.test(name) && !name.split(".").some((part) => FORBIDDEN_PARTS.has(part));
}

/**
 * Check and merge the bridge's `updates` (several entries for one token are merged in order).
 * @param {unknown} updates
 * @returns {{changes: TokenChange[], problems: string[]}}
 */
export function readUpdates(updates) {
  /** @type {Map<string, TokenChange>} */
  const byToken = new Map();
  /** @type {string[]} */
  const problems = [];
  (Array.isArray(updates) ? updates : []).forEach((raw, index) => {
    if (!isPlainObject(raw) || typeof raw.token !== "string" || !raw.token) {
      problems.push(`updates[${index}]: no token id`);
      return;
    }
    let change = byToken.get(raw.token);
    if (!change) {
      change = { token: raw.token, state: {}, add: [], remove: [] };
      byToken.set(raw.token, change);
    }
    const state = isPlainObject(raw.state) ? raw.state : {};
    for (const [name, value] of Object.entries(state)) {
      if (isFlagName(name)) change.state[name] = value;
      else problems.push(`updates[${index}].state: refused flag name ${JSON.stringify(name)}`);
    }
    for (const [key, list] of /** @type {const} */ ([
      ["statuses_add", change.add],
      ["statuses_remove", change.remove],
    ])) {
      for (const id of Array.isArray(raw[key]) ? raw[key] : []) {
        if (typeof id === "string" && STATUS_ID.test(id)) list.push(id);
        else problems.push(`updates[${index}].${key}: refused status ${JSON.stringify(id)}`);
      }
    }
  });
  return { changes: [...byToken.values()], problems };
}

/**
 * Equal as JSON values; a missing field and null are the same ("nothing there").
 * @param {unknown} a
 * @param {unknown} b
 */
export function sameValue(a, b) {
  if ((a === undefined || a === null) && (b === undefined || b === null)) return true;
  if (typeof a !== "object" || typeof b !== "object") return Object.is(a, b) || a === b;
  return JSON.stringify(a) === JSON.stringify(b);
}

/** @param {unknown} value */
const orNull = (value) => (value === undefined ? null : value);

/**
 * What has to change on the tokens for them to hold a result, and what they held before.
 * @param {unknown} updates the result's `updates`
 * @param {Firing} firing
 * @param {(key: string) => string | null} weaponStateKey the system's mapping of state keys to weapon fields
 * @param {(tokenId: string) => TokenView | null} findView
 * @returns {{plans: TokenPlan[], before: TokenBefore[], problems: string[]}}
 */
export function planResult(updates, firing, weaponStateKey, findView) {
  const { changes, problems } = readUpdates(updates);
  /** @type {TokenPlan[]} */
  const plans = [];
  /** @type {TokenBefore[]} */
  const before = [];
  for (const change of changes) {
    const view = findView(change.token);
    if (!view) {
      problems.push(`token ${change.token} is not on this scene`);
      continue;
    }
    /** @type {TokenPlan} */
    const plan = { token: change.token, weapon: null, state: {}, add: [], remove: [] };
    /** @type {TokenBefore} */
    const old = { token: change.token, weapon: null, state: {}, statuses: {} };
    for (const [key, value] of Object.entries(change.state)) {
      const field = weaponStateKey(key);
      if (field !== null) {
        const weaponId = change.token === firing.token ? firing.weapon : null;
        const current = weaponId ? view.weaponState(weaponId) : null;
        if (!weaponId || !current) {
          problems.push(`token ${change.token}: ${key} names a weapon, but no weapon of this token fired`);
          continue;
        }
        if (sameValue(current[field], value)) continue;
        plan.weapon ??= { id: weaponId, changes: {} };
        old.weapon ??= { id: weaponId, values: {} };
        plan.weapon.changes[field] = value;
        old.weapon.values[field] = orNull(current[field]);
        continue;
      }
      const now = view.state(key);
      if (sameValue(now, value)) continue;
      plan.state[key] = value;
      old.state[key] = orNull(now);
    }
    // A status both added and removed in one result ends removed (the later instruction wins).
    for (const id of new Set(change.add)) {
      if (!change.remove.includes(id) && !view.hasStatus(id)) plan.add.push(id);
    }
    for (const id of new Set(change.remove)) if (view.hasStatus(id)) plan.remove.push(id);
    for (const id of plan.add) old.statuses[id] = false;
    for (const id of plan.remove) old.statuses[id] = true;
    if (isEmptyPlan(plan)) continue;
    plans.push(plan);
    before.push(old);
  }
  return { plans, before, problems };
}

/** @param {TokenPlan} plan */
export function isEmptyPlan(plan) {
  return (
    (plan.weapon === null || Object.keys(plan.weapon.changes).length === 0) &&
    Object.keys(plan.state).length === 0 &&
    plan.add.length === 0 &&
    plan.remove.length === 0
  );
}

/**
 * The plans that put every token back as `before` recorded it. Read defensively: `before` comes back
 * from a chat message's flags, which anyone with the right could have edited.
 * @param {unknown} before
 * @returns {{plans: TokenPlan[], problems: string[]}}
 */
export function undoPlans(before) {
  /** @type {TokenPlan[]} */
  const plans = [];
  /** @type {string[]} */
  const problems = [];
  (Array.isArray(before) ? before : []).forEach((raw, index) => {
    if (!isPlainObject(raw) || typeof raw.token !== "string" || !raw.token) {
      problems.push(`before[${index}]: no token id`);
      return;
    }
    /** @type {TokenPlan} */
    const plan = { token: raw.token, weapon: null, state: {}, add: [], remove: [] };
    const weapon = raw.weapon;
    if (isPlainObject(weapon) && typeof weapon.id === "string" && isPlainObject(weapon.values)) {
      /** @type {Record<string, unknown>} */
      const changes = {};
      for (const [field, value] of Object.entries(weapon.values)) if (isFlagName(field)) changes[field] = value;
      plan.weapon = { id: weapon.id, changes };
    }
    for (const [key, value] of Object.entries(isPlainObject(raw.state) ? raw.state : {})) {
      if (isFlagName(key)) plan.state[key] = value;
      else problems.push(`before[${index}].state: refused flag name ${JSON.stringify(key)}`);
    }
    for (const [id, active] of Object.entries(isPlainObject(raw.statuses) ? raw.statuses : {})) {
      if (!STATUS_ID.test(id)) problems.push(`before[${index}].statuses: refused status ${JSON.stringify(id)}`);
      else if (active === true) plan.add.push(id);
      else plan.remove.push(id);
    }
    if (!isEmptyPlan(plan)) plans.push(plan);
  });
  return { plans, problems };
}

/**
 * Write plans through the glue's handles. A token the scene lacks, or a status the VTT refuses, is
 * reported and does not stop the rest from landing.
 * @param {TokenPlan[]} plans
 * @param {(tokenId: string) => TokenHandle | null | undefined} findHandle
 * @returns {Promise<{applied: TokenPlan[], problems: string[]}>}
 */
export async function applyPlans(plans, findHandle) {
  /** @type {TokenPlan[]} */
  const applied = [];
  /** @type {string[]} */
  const problems = [];
  for (const plan of plans) {
    const token = findHandle(plan.token);
    if (!token) {
      problems.push(`token ${plan.token} is not on this scene`);
      continue;
    }
    if (plan.weapon && Object.keys(plan.weapon.changes).length > 0) await token.setWeaponState(plan.weapon.id, plan.weapon.changes);
    if (Object.keys(plan.state).length > 0) await token.setState(plan.state);
    for (const [ids, active] of /** @type {const} */ ([
      [plan.add, true],
      [plan.remove, false],
    ])) {
      for (const id of ids) {
        try {
          await token.setStatus(id, active);
        } catch (error) {
          problems.push(`token ${plan.token}: status ${id}: ${error instanceof Error ? error.message : error}`);
        }
      }
    }
    applied.push(plan);
  }
  return { applied, problems };
}

/**
 * Statuses the module derives from state, so a referee sees them on the token: `jammed` while any of
 * the token's weapons is jammed, `overwatch` while a standing overwatch order is set.
 * @param {{jammed: boolean}[]} readouts the token's weapons as the system reads them
 * @param {unknown} overwatch the token's `overwatch` state
 */
export function derivedStatuses(readouts, overwatch) {
  return {
    jammed: readouts.some((readout) => readout.jammed),
    overwatch: isStanding(overwatch),
  };
}
