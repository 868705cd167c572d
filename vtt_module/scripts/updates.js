/**
 * Apply a result's token updates to the VTT: module flags and status effects.
 *
 * The bridge sends absolute values (`{"token": id, "state": {"weapon.loaded": 5}, "statuses_add":
 * ["suppressed"]}`), never deltas, so applying the same result twice must change nothing the second
 * time. The plan therefore compares every value with what the token has now and keeps only the
 * differences; a status is switched on or off explicitly, never toggled blind.
 *
 * Flags live under `flags.volley.<name>` on the token document (an unlinked token keeps its own rounds
 * and jam). Flag names are checked: dotted identifiers only, so no update can reach outside the
 * module's namespace or into an object's prototype.
 *
 * Pure: tokens are reached through a small handle the caller builds from Foundry documents.
 */

import { isPlainObject } from "./protocol.js";

export const FLAG_SCOPE = "volley";

const FLAG_NAME = /^[A-Za-z][A-Za-z0-9_-]*(\.[A-Za-z][A-Za-z0-9_-]*)*$/;
const FORBIDDEN_PARTS = new Set(["__proto__", "prototype", "constructor"]);
const STATUS_ID = /^[A-Za-z0-9_.-]{1,64}$/;

/**
 * @typedef {{token: string, state: Record<string, unknown>, add: string[], remove: string[]}} TokenChange
 * @typedef {{
 *   getFlag(name: string): unknown, hasStatus(id: string): boolean,
 *   update(changes: Record<string, unknown>): Promise<unknown>,
 *   setStatus(id: string, active: boolean): Promise<unknown>
 * }} TokenHandle
 * @typedef {{token: string, changes: Record<string, unknown>, add: string[], remove: string[]}} TokenPlan
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
 * Equal as JSON values; a missing flag and null are the same ("nothing there").
 * @param {unknown} a
 * @param {unknown} b
 */
function sameValue(a, b) {
  if ((a === undefined || a === null) && (b === undefined || b === null)) return true;
  if (typeof a !== "object" || typeof b !== "object") return Object.is(a, b) || a === b;
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * What has to change on one token for it to hold `change`: only the differences.
 * @param {TokenChange} change
 * @param {Pick<TokenHandle, "getFlag" | "hasStatus">} token
 * @returns {TokenPlan}
 */
export function planTokenUpdate(change, token) {
  /** @type {Record<string, unknown>} */
  const changes = {};
  for (const [name, value] of Object.entries(change.state)) {
    if (!sameValue(token.getFlag(name), value)) changes[`flags.${FLAG_SCOPE}.${name}`] = value;
  }
  // A status both added and removed in one result ends removed (the later instruction wins).
  const add = change.add.filter((id) => !change.remove.includes(id) && !token.hasStatus(id));
  const remove = change.remove.filter((id) => token.hasStatus(id));
  return { token: change.token, changes, add: [...new Set(add)], remove: [...new Set(remove)] };
}

/** @param {TokenPlan} plan */
export function isEmptyPlan(plan) {
  return Object.keys(plan.changes).length === 0 && plan.add.length === 0 && plan.remove.length === 0;
}

/**
 * Apply the bridge's updates. Tokens the scene does not have are reported, not fatal.
 * @param {unknown} updates
 * @param {(tokenId: string) => TokenHandle | null | undefined} findToken
 * @returns {Promise<{applied: TokenPlan[], problems: string[]}>}
 */
export async function applyUpdates(updates, findToken) {
  const { changes, problems } = readUpdates(updates);
  /** @type {TokenPlan[]} */
  const applied = [];
  for (const change of changes) {
    const token = findToken(change.token);
    if (!token) {
      problems.push(`token ${change.token} is not on this scene`);
      continue;
    }
    const plan = planTokenUpdate(change, token);
    if (isEmptyPlan(plan)) continue;
    if (Object.keys(plan.changes).length > 0) await token.update(plan.changes);
    // A status the VTT does not know must not stop the flags or the other statuses from landing.
    for (const [ids, active] of /** @type {const} */ ([
      [plan.add, true],
      [plan.remove, false],
    ])) {
      for (const id of ids) {
        try {
          await token.setStatus(id, active);
        } catch (error) {
          problems.push(`token ${change.token}: status ${id}: ${error instanceof Error ? error.message : error}`);
        }
      }
    }
    applied.push(plan);
  }
  return { applied, problems };
}
