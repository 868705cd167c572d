/**
 * Game-system adapters: read an actor's weapons and skills from the installed game system, and say how
 * rounds spent are written back to that system's own fields. Pure modules, no Foundry globals: each takes
 * the plain data of a document (`actor.toObject(false)`: the prepared data, so derived values such as a
 * GURPS attack's effective skill or a DH2e characteristic's total are there) and returns plain data
 * (see ../profile/types.js).
 *
 * One adapter per game system, each naming the version of the system it was read from:
 * - `gurps` (GURPS Game Aid) for Volley's GURPS rules: ./gurps.js
 * - `dark-heresy-2nd` (Dark Heresy 2nd Edition) for the d100 rules: ./dark-heresy-2e.js
 * - `twodsix` (Twodsix, Cepheus & Traveller) for the MegaTraveller rules: ./twodsix.js
 *
 * Each adapter names the versions of its game system it reads (`adapter.supported`); `adapterForGame`
 * sets `adapter.notice` when the installed version is outside them, and the module says so once.
 *
 * The game system owns what it has a field for (rounds loaded, where it counts them); Volley's flags keep
 * the rest (jams, malfunctions, spoiled rounds, bracing, the fire selector, and the rounds of a weapon
 * whose system does not count them). `stateForRequest` and `stateForFlags` split a weapon's state that way.
 */

import { darkHeresyAdapter } from "./dark-heresy-2e.js";
import { gurpsAdapter } from "./gurps.js";
import { isRecord, versionNotice } from "./reading.js";
import { twodsixAdapter } from "./twodsix.js";

/**
 * @typedef {import("../profile/types.js").GameSystemAdapter} GameSystemAdapter
 * @typedef {import("../profile/types.js").VolleyWeapon} VolleyWeapon
 * @typedef {import("../profile/types.js").WeaponState} WeaponState
 */

/** Each supported `game.system.id`, with the adapter built for it. */
const ADAPTERS = Object.freeze({
  gurps: gurpsAdapter,
  "dark-heresy-2nd": darkHeresyAdapter,
  twodsix: twodsixAdapter,
});

/** Other names the same systems go by: the adapter's file name for DH2e. */
const ALIASES = Object.freeze(/** @type {Record<string, keyof typeof ADAPTERS>} */ ({ "dark-heresy-2e": "dark-heresy-2nd" }));

/** The game system ids Volley reads characters from. */
export const SUPPORTED_GAME_SYSTEMS = Object.freeze(Object.keys(ADAPTERS));

/**
 * The adapter for a game system id (`game.system.id`), or null when Volley has none for it (the Volley
 * profile in `flags.volley` is used then).
 * @param {string} gameSystemId
 * @param {object} [options] readings to override, as the chosen adapter's factory takes them
 *   (GURPS_DEFAULTS, DARK_HERESY_DEFAULTS, TWODSIX_DEFAULTS)
 * @returns {GameSystemAdapter | null}
 */
export function adapterFor(gameSystemId, options = {}) {
  if (typeof gameSystemId !== "string") return null;
  const id = gameSystemId.trim().toLowerCase();
  const key = Object.hasOwn(ADAPTERS, id) ? /** @type {keyof typeof ADAPTERS} */ (id) : ALIASES[id];
  if (key === undefined || !Object.hasOwn(ADAPTERS, key)) return null;
  return ADAPTERS[key](/** @type {any} */ (options));
}

/**
 * The adapter for the world's game system, as `game` describes it: its id, its version (a notice when
 * it is outside what the adapter reads) and the game system's settings the adapter needs (GGA's "Use
 * Foundry Items"; Twodsix's rule set and autofire rules). Null when Volley has no adapter for the system.
 * @param {{system?: {id?: unknown, version?: unknown, compatibility?: unknown}, release?: {generation?: unknown},
 *   settings?: {get: (scope: string, key: string) => unknown}}} game
 * @returns {GameSystemAdapter | null}
 */
export function adapterForGame(game) {
  const id = typeof game?.system?.id === "string" ? game.system.id : "";
  /** @type {Record<string, unknown>} */
  const options = {};
  if (id === "gurps") {
    try {
      options.useFoundryItems = game.settings?.get("gurps", "use-foundry-items") === true;
    } catch {
      options.useFoundryItems = false; // the setting is not registered (an older or newer GGA)
    }
  }
  if (id === "twodsix") {
    // The world's rule set and autofire rules decide what a lone RoF means ("Auto 3" or a burst of 3).
    for (const [option, key] of [["ruleset", "ruleset"], ["autofireRules", "autofireRulesUsed"]]) {
      try {
        const value = game.settings?.get("twodsix", key);
        options[option] = typeof value === "string" && value.trim() !== "" ? value : null;
      } catch {
        options[option] = null; // not registered: Twodsix's defaults apply
      }
    }
  }
  const adapter = adapterFor(id, options);
  if (adapter === null) return null;
  // An adapter may read more than the version to say which build the table runs (DH2e: the fork or the original).
  const notice = adapter.noticeFor ? adapter.noticeFor(game) : adapter.supported ? versionNotice(adapter.supported, game?.system?.version) : null;
  return notice === null ? adapter : { ...adapter, notice };
}

/**
 * The weapon state to send with a request. What the game system holds wins (its rounds loaded), Volley's
 * saved flags give the rest (jams, spoiled rounds, selector...), and a weapon whose rounds nobody has
 * counted yet starts with a full magazine.
 * @param {VolleyWeapon} weapon as `readActor` returned it
 * @param {unknown} saved the weapon's state kept in Volley's flags (anything not an object counts as none)
 * @returns {WeaponState}
 */
export function stateForRequest(weapon, saved) {
  /** @type {WeaponState} */
  const state = { ...(isRecord(saved) ? saved : {}), ...weapon.state };
  const capacity = weapon.stats.capacity;
  if (state.loaded === undefined && typeof capacity === "number" && Number.isSafeInteger(capacity) && capacity > 0) {
    state.loaded = capacity;
  }
  return state;
}

/**
 * The part of a weapon's new state Volley keeps in its flags: everything the game system has no field
 * for. The rest goes to the system through `adapter.writeState`.
 * @param {VolleyWeapon} weapon as `readActor` returned it
 * @param {WeaponState} state the new state (a result's `weapon` values)
 * @returns {WeaponState}
 */
export function stateForFlags(weapon, state) {
  const held = new Set(Object.keys(weapon.state));
  return Object.fromEntries(Object.entries(state).filter(([key]) => !held.has(key)));
}
