/**
 * The referee's books (issue #31): the state Volley keeps is the referee's, and every change to it is
 * either Volley's own, put back, or told.
 *
 * At a real Foundry table an actor's owner may update any of its flags from the console, whatever
 * Volley's settings say (a setting only locks Volley's own editor). So the browser holding the bridge
 * watches every update of an actor:
 * - Volley's own flags (`flags.volley.state`: the token's target lock, overwatch order, the holds of
 *   pending attacks; `adapterState`: jams, spoiled rounds and the selector of a game system's weapons;
 *   `books`: this record) are written by the holder's browser alone. A change to them by a user who is
 *   not a game master is put back from the holder's copy, and the referee is told once, by name.
 * - `flags.volley.profile` (the character's numbers and Volley's own weapons) is the same, unless the
 *   world setting "Players edit Volley profiles" lets players edit it: then the change stands.
 * - A change that stands outside Volley (a player's profile edit where allowed, the game system's own
 *   sheet reloading a Twodsix, GGA or DH2e weapon, a game master's console or editor) is found at the
 *   weapon's next card: Volley keeps, per weapon, the state it last wrote (`flags.volley.books`), and
 *   the next request of that weapon compares it with the state found. What differs is said on the
 *   card and journalled with its applied mark (docs/protocol.md, `applied`), so the session report can
 *   list it.
 *
 * Pure: plain data in, plain data out (foundry/keeper.js is the glue).
 */

import { magazineOf } from "./adapters/identity.js";
import { isPlainObject } from "./protocol.js";
import { sameValue } from "./updates.js";

/** The actor flags Volley keeps under `flags.volley`. */
export const VOLLEY_FLAGS = Object.freeze(["profile", "state", "adapterState", "books"]);
/** Where the record of each weapon's state as Volley last left it is kept. */
export const BOOKS_FLAG = "books";

/**
 * @typedef {{field: string, from: unknown, to: unknown}} FieldChange a field and its two values
 * @typedef {{state: Record<string, unknown>, key: string | null, at: number, outside: boolean}} WeaponBooks
 *   a weapon's state as Volley last wrote it, the request that did, and when; `outside`: a change made
 *   outside Volley since that request was said on a card and stands in `state` (a pending attack's card,
 *   or an undone card that had said one), so the weapon no longer holds that request's values and Undo
 *   of its card would overwrite the change
 */

/**
 * Which of Volley's flags an update by a user touches that the user may not change.
 * @param {unknown} changedVolley the update's `flags.volley` (as the update hook gives it)
 * @param {{isGM: boolean, playersEditProfiles: boolean}} who
 * @returns {string[]} the flags to put back
 */
export function forbiddenFlags(changedVolley, { isGM, playersEditProfiles }) {
  if (isGM || !isPlainObject(changedVolley)) return [];
  return Object.keys(changedVolley)
    .map((key) => (key.startsWith("-=") ? key.slice(2) : key))
    .filter((key) => VOLLEY_FLAGS.includes(key) && !(key === "profile" && playersEditProfiles));
}

/**
 * Every leaf an update sets, as a dotted path and its value; arrays and non-objects are leaves, a
 * deletion (`-=key`, `_del`) is a leaf at the key it deletes.
 * @param {unknown} changed
 * @param {string} [prefix]
 * @returns {[string, unknown][]}
 */
export function leaves(changed, prefix = "") {
  if (!isPlainObject(changed)) return prefix ? [[prefix, changed]] : [];
  /** @type {[string, unknown][]} */
  const out = [];
  for (const [raw, value] of Object.entries(changed)) {
    const key = raw.startsWith("-=") ? raw.slice(2) : raw;
    if (["__proto__", "prototype", "constructor"].includes(key)) continue;
    const path = prefix ? `${prefix}.${key}` : key;
    if (isPlainObject(value) && Object.keys(value).length > 0 && !raw.startsWith("-=")) out.push(...leaves(value, path));
    else out.push([path, raw.startsWith("-=") ? undefined : value]);
  }
  return out;
}

/**
 * @param {unknown} object
 * @param {string} path
 */
function valueAt(object, path) {
  /** @type {any} */
  let node = object;
  for (const part of path.split(".")) {
    if (!isPlainObject(node) && !Array.isArray(node)) return undefined;
    node = /** @type {any} */ (node)[part];
  }
  return node;
}

/**
 * The update that puts back what a user changed in the flags they may not change: every leaf they
 * set gets the value the holder's copy held before (null where there was none: Volley's readers take
 * null for nothing, and a null is written the same way in every Foundry version, where a deletion is
 * not). Also the changes as the referee is told them.
 * @param {unknown} changedVolley the update's `flags.volley`
 * @param {unknown} before the holder's copy of the actor's `flags.volley` before the update
 * @param {string[]} flags the flags to put back (`forbiddenFlags`)
 * @returns {{update: Record<string, unknown>, changes: FieldChange[]}}
 */
export function revertOf(changedVolley, before, flags) {
  /** @type {Record<string, unknown>} */
  const update = {};
  /** @type {FieldChange[]} */
  const changes = [];
  if (!isPlainObject(changedVolley)) return { update, changes };
  for (const [path, value] of leaves(changedVolley)) {
    if (!flags.includes(path.split(".")[0] ?? "")) continue;
    const old = valueAt(before, path);
    if (sameValue(old, value)) continue;
    update[`flags.volley.${path}`] = old === undefined ? null : structuredClone(old);
    changes.push({ field: path, from: old ?? null, to: value ?? null });
  }
  return { update, changes };
}

/**
 * A weapon's state as plain JSON, for the books and for comparing (what `JSON.stringify` keeps).
 * @param {unknown} state
 * @returns {Record<string, unknown>}
 */
export function plainState(state) {
  if (!isPlainObject(state)) return {};
  /** @type {Record<string, unknown>} */
  const out = {};
  for (const [key, value] of Object.entries(state)) {
    if (value === undefined || typeof value === "function") continue;
    out[key] = value === null || typeof value !== "object" ? value : JSON.parse(JSON.stringify(value));
  }
  return out;
}

/**
 * The books of one weapon, read defensively (a flag anyone with the right could have edited).
 * @param {unknown} books the actor's `flags.volley.books`
 * @param {string} magazine the weapon's magazine key
 * @returns {WeaponBooks | null}
 */
export function weaponBooks(books, magazine) {
  const entry = isPlainObject(books) ? books[magazine] : null;
  if (!isPlainObject(entry) || !isPlainObject(entry.state)) return null;
  return {
    state: plainState(entry.state),
    key: typeof entry.key === "string" ? entry.key : null,
    at: Number(entry.at) || 0,
    outside: entry.outside === true,
  };
}

/**
 * What changed in a weapon's state since Volley last wrote it: each field whose value differs, with
 * the value Volley left and the value found. Nothing when Volley has no books of the weapon yet.
 * @param {WeaponBooks | null} books
 * @param {unknown} now the weapon's state as read now
 * @returns {FieldChange[]}
 */
export function changedSince(books, now) {
  if (!books) return [];
  const found = plainState(now);
  /** @type {FieldChange[]} */
  const changes = [];
  for (const field of new Set([...Object.keys(books.state), ...Object.keys(found)])) {
    const was = books.state[field];
    const is = found[field];
    if (!sameValue(was, is)) changes.push({ field, from: was ?? null, to: is ?? null });
  }
  return changes;
}

/**
 * The changes as the referee reads them: a change to the profile's weapon list is told weapon by
 * weapon and field by field ("Autorifle: state.loaded 3 → 20"); a weapon's adapter state by the
 * weapon's name; anything else by its flag's path.
 * @param {FieldChange[]} changes from `revertOf`
 * @param {{id: string, name: string, magazine?: string}[]} weapons the actor's weapons (for names)
 * @returns {(FieldChange & {weapon: string | null})[]}
 */
export function namedChanges(changes, weapons) {
  /** @type {(FieldChange & {weapon: string | null})[]} */
  const out = [];
  const nameOf = (/** @type {string} */ key) => weapons.find((w) => w.id === key || w.magazine === key)?.name ?? null;
  for (const change of changes) {
    const parts = change.field.split(".");
    if (change.field === "profile.weapons" && (Array.isArray(change.from) || Array.isArray(change.to))) {
      out.push(...weaponListChanges(change.from, change.to));
    } else if (parts[0] === "adapterState" && parts.length >= 2) {
      out.push({ ...change, weapon: nameOf(parts[1] ?? "") ?? parts[1] ?? null, field: parts.slice(2).join(".") || "state" });
    } else {
      out.push({ ...change, weapon: null });
    }
  }
  return out;
}

/**
 * Two versions of a profile's weapon list, field by field.
 * @param {unknown} before
 * @param {unknown} after
 */
function weaponListChanges(before, after) {
  const list = (/** @type {unknown} */ value) => (Array.isArray(value) ? value.filter(isPlainObject) : []);
  const old = new Map(list(before).map((w) => [String(w.id), w]));
  const now = new Map(list(after).map((w) => [String(w.id), w]));
  /** @type {(FieldChange & {weapon: string | null})[]} */
  const out = [];
  for (const id of new Set([...old.keys(), ...now.keys()])) {
    const a = old.get(id);
    const b = now.get(id);
    const weapon = String(b?.name ?? a?.name ?? id);
    if (!a || !b) {
      out.push({ weapon, field: "weapon", from: a ? "present" : null, to: b ? "present" : null });
      continue;
    }
    for (const group of ["state", "stats"]) {
      const ga = isPlainObject(a[group]) ? a[group] : {};
      const gb = isPlainObject(b[group]) ? b[group] : {};
      for (const field of new Set([...Object.keys(ga), ...Object.keys(gb)])) {
        if (!sameValue(ga[field], gb[field])) out.push({ weapon, field: `${group}.${field}`, from: ga[field] ?? null, to: gb[field] ?? null });
      }
    }
    for (const field of ["name", "skill", "system"]) {
      if (!sameValue(a[field], b[field])) out.push({ weapon, field, from: a[field] ?? null, to: b[field] ?? null });
    }
  }
  return out;
}

/**
 * The hold a pending two-step attack has on a weapon: `{key, at}` in the token's Volley state, under
 * the weapon's magazine, or null.
 * @param {Record<string, unknown> | undefined} tokenState the token's Volley state
 * @param {{id: string, magazine?: string}} weapon
 * @returns {{key: string, at: number, state: Record<string, unknown> | null} | null} `state`: the weapon's
 *   state when the attack was rolled (holds written before it have none)
 */
export function holdOf(tokenState, weapon) {
  const holds = tokenState?.pending;
  const hold = typeof holds === "object" && holds !== null ? /** @type {Record<string, unknown>} */ (holds)[magazineOf(weapon)] : null;
  if (typeof hold !== "object" || hold === null) return null;
  const key = /** @type {any} */ (hold).key;
  const found = /** @type {any} */ (hold).state;
  if (typeof key !== "string" || !key) return null;
  return { key, at: Number(/** @type {any} */ (hold).at) || 0, state: isPlainObject(found) ? plainState(found) : null };
}
