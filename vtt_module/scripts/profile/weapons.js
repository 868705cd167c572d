/**
 * An actor's weapons and numbers for the world's rule system, wherever they are kept: read from the
 * game system by an adapter (scripts/adapters/), or from the actor's Volley profile (profile.js) when
 * no adapter serves this game system; and how a weapon's new state is written back to where it came
 * from.
 *
 * An adapter owns the fields it reads (rounds in an item's magazine); state the game system has no
 * field for (a jam, spoiled rounds, the selector) is kept in `flags.volley.adapterState.<magazine>`
 * and laid over what the adapter reads: one entry per physical weapon, under a safe id, whatever rows
 * the game system lists it in (adapters/identity.js).
 *
 * Pure: takes the actor's plain data (`actor.toObject()`), returns plain data and document writes.
 */

import { findWeapon, magazineOf, savedState } from "../adapters/identity.js";
import { stateForFlags, stateForRequest } from "../adapters/index.js";
import { readProfile, storedProfile, withWeaponState } from "./profile.js";

/**
 * @typedef {import("./types.js").VolleyWeapon} VolleyWeapon
 * @typedef {import("./types.js").GameSystemAdapter} GameSystemAdapter
 * @typedef {import("./types.js").DocumentWrite} DocumentWrite
 * @typedef {{field: string, message: string, key?: string, values?: Record<string, unknown>, refused?: boolean, notice?: boolean,
 *   name?: string}} ArsenalProblem
 *   a field that could not be read: an adapter's (with its message key) or the profile's; `refused`: a
 *   weapon the adapter does not offer, and why (a sword, a grenade); `notice`: the version notice, first
 * @typedef {{character: Record<string, unknown>, weapons: VolleyWeapon[], current: string | null,
 *   problems: ArsenalProblem[]}} Arsenal what one actor can fire in one rule system
 */

/** Where adapter weapons keep the state their game system has no field for. */
export const ADAPTER_STATE_FLAG = "adapterState";

/**
 * @param {unknown} value
 * @returns {value is Record<string, any>}
 */
function isRecord(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The actor's weapons of `system`, adapter weapons first, then the Volley profile's own.
 * @param {Record<string, any>} actorData the actor's prepared data (`actor.toObject(false)`, as the adapters read it)
 * @param {{system: string, adapter?: GameSystemAdapter | null}} where
 * @returns {Arsenal}
 */
export function actorArsenal(actorData, { system, adapter = null }) {
  const flags = isRecord(actorData?.flags?.volley) ? actorData.flags.volley : {};
  const profile = readProfile(flags);
  /** @type {ArsenalProblem[]} */
  const problems = profile.problems.map((message) => ({ field: "flags.volley.profile", message }));
  /** @type {Record<string, unknown>} */
  let character = { ...(profile.character[system] ?? {}) };
  /** @type {VolleyWeapon[]} */
  const weapons = [];
  if (adapter && adapter.ruleSystem === system) {
    try {
      const read = adapter.readActor(actorData);
      const overlay = isRecord(flags[ADAPTER_STATE_FLAG]) ? flags[ADAPTER_STATE_FLAG] : {};
      character = { ...character, ...(read.character?.[/** @type {keyof typeof read.character} */ (system)] ?? {}) };
      // What the game system counts wins; Volley's flags give the rest (adapters/index.js).
      for (const weapon of read.weapons) weapons.push({ ...weapon, state: stateForRequest(weapon, savedState(overlay, weapon)) });
      if (adapter.notice) problems.push({ ...adapter.notice, notice: true });
      for (const problem of read.problems) problems.push({ ...problem });
      // A weapon Volley does not fire is listed once with the reason, after the fields to fix.
      for (const refusal of read.refused ?? []) problems.push({ ...refusal, refused: true });
    } catch (error) {
      problems.push({ field: adapter.gameSystem, message: `the adapter could not read this actor (${error instanceof Error ? error.message : error})` });
    }
  }
  weapons.push(...profile.weapons.filter((weapon) => weapon.system === system));
  const wanted = profile.current[system];
  const current = weapons.some((weapon) => weapon.id === wanted) ? (wanted ?? null) : (weapons[0]?.id ?? null);
  return { character, weapons, current, problems };
}

/**
 * The writes that give `weapon` its new state (`changes`: state field -> value, null clears).
 * @param {Record<string, any>} actorData
 * @param {VolleyWeapon} weapon as `actorArsenal` returned it
 * @param {Record<string, unknown>} changes
 * @param {GameSystemAdapter | null} [adapter]
 * @returns {DocumentWrite[]}
 */
export function weaponStateWrites(actorData, weapon, changes, adapter = null) {
  const actorId = String(actorData?._id ?? "");
  const flags = isRecord(actorData?.flags?.volley) ? actorData.flags.volley : {};
  if (weapon.source?.kind === "adapter" && adapter) {
    /** @type {Record<string, unknown>} */
    const state = { ...weapon.state };
    for (const [key, value] of Object.entries(changes)) {
      if (value === null || value === undefined) delete state[key];
      else state[key] = value;
    }
    // The weapon as the game system holds it (not merged with the flags) says which fields are its own.
    const held = findWeapon(adapter.readActor(actorData).weapons, weapon.id) ?? weapon;
    const writes = [...adapter.writeState(actorData, held, state)];
    // Only this magazine's entry is written (a safe key: no "." for Foundry to expand); the others stay.
    // Foundry merges an update into the flag, so a field cleared is written as null, not left out.
    const entry = /** @type {Record<string, unknown>} */ (stateForFlags(held, state));
    for (const [key, value] of Object.entries(changes)) if ((value === null || value === undefined) && !(key in held.state)) entry[key] = null;
    const path = `flags.volley.${ADAPTER_STATE_FLAG}.${magazineOf(held)}`;
    writes.push({ documentName: "Actor", id: actorId, changes: { [path]: entry } });
    return writes;
  }
  const profile = readProfile(flags);
  if (!profile.weapons.some((w) => w.id === weapon.id)) return [];
  const stored = storedProfile({ ...profile, weapons: withWeaponState(profile.weapons, weapon.id, changes) });
  return [{ documentName: "Actor", id: actorId, changes: { "flags.volley.profile.weapons": stored.weapons } }];
}
