/**
 * The actor's Volley profile: its numbers for each rule system and its weapons, kept in the actor's
 * `flags.volley.profile` (shapes in types.js):
 *
 * ```
 * {character: {gurps: {armoury: 12}, d100: {bs: 40, wp: 30}},
 *  weapons: [{id: "w1a2b3c4", system: "gurps", name: "MP5", skill: 14,
 *             stats: {rof: 13, rcl: 2, capacity: 30, malf: 17}, state: {loaded: 30, jammed: false}}],
 *  current: {gurps: "w1a2b3c4"}}
 * ```
 *
 * Each weapon has its own id and its own state, so a burst from one weapon never touches another's
 * rounds. The profile is read defensively (a hand-edited flag with a broken weapon loses that weapon,
 * reported, not the whole profile), and the editor's form is read through the system's notation
 * (`FieldSpec`s), so a typing slip names the field and the rule instead of being saved.
 *
 * Pure: plain data in, plain data out.
 */

import { FormError, readFlag, readInt, readText } from "../fields.js";

/** Where the profile lives under the actor's module flags. */
export const PROFILE_FLAG = "profile";

/** A profile holds no more weapons than this (a hand-edited flag cannot flood the dialog). */
export const MAX_WEAPONS = 24;

const WEAPON_ID = /^[A-Za-z0-9_-]{1,40}$/;

/**
 * @typedef {import("./types.js").VolleyWeapon} VolleyWeapon
 * @typedef {import("../registry.js").FieldSpec} FieldSpec
 * @typedef {import("../registry.js").RuleSystemPlugin} RuleSystemPlugin
 * @typedef {import("../i18n/format.js").Message} Message
 * @typedef {{character: Record<string, Record<string, unknown>>, weapons: VolleyWeapon[],
 *   current: Record<string, string>}} Profile
 * @typedef {{field: string, problem: Message}} FieldProblem
 */

/**
 * @param {unknown} value
 * @returns {value is Record<string, any>}
 */
function isRecord(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A plain-JSON copy (flags hold only JSON). @param {Record<string, unknown>} value */
function plain(value) {
  /** @type {Record<string, unknown>} */
  const out = {};
  for (const [key, v] of Object.entries(value)) {
    if (["__proto__", "prototype", "constructor"].includes(key)) continue;
    if (v === null || ["string", "number", "boolean"].includes(typeof v)) out[key] = v;
    else if (isRecord(v)) out[key] = plain(v);
    else if (Array.isArray(v)) out[key] = JSON.parse(JSON.stringify(v));
  }
  return out;
}

/**
 * The profile in an actor's `flags.volley`, with every broken part left out and reported.
 * @param {unknown} flags the actor's `flags.volley`
 * @returns {Profile & {problems: string[]}}
 */
export function readProfile(flags) {
  const raw = isRecord(flags) && isRecord(flags[PROFILE_FLAG]) ? flags[PROFILE_FLAG] : {};
  /** @type {string[]} */
  const problems = [];
  /** @type {Record<string, Record<string, unknown>>} */
  const character = {};
  if (isRecord(raw.character)) {
    for (const [system, numbers] of Object.entries(raw.character)) if (isRecord(numbers)) character[system] = plain(numbers);
  }
  /** @type {VolleyWeapon[]} */
  const weapons = [];
  const seen = new Set();
  for (const [index, entry] of (Array.isArray(raw.weapons) ? raw.weapons : []).entries()) {
    if (weapons.length >= MAX_WEAPONS) {
      problems.push(`weapons: more than ${MAX_WEAPONS}; the rest are ignored`);
      break;
    }
    if (!isRecord(entry) || typeof entry.id !== "string" || !WEAPON_ID.test(entry.id) || seen.has(entry.id)) {
      problems.push(`weapons[${index}]: no id, or an id used twice; ignored`);
      continue;
    }
    if (typeof entry.system !== "string" || !entry.system) {
      problems.push(`weapons[${index}] (${entry.id}): no rule system; ignored`);
      continue;
    }
    seen.add(entry.id);
    /** @type {VolleyWeapon} */
    const weapon = {
      id: entry.id,
      system: /** @type {import("./types.js").RuleSystemId} */ (entry.system),
      name: typeof entry.name === "string" ? entry.name.slice(0, 80) : "",
      stats: isRecord(entry.stats) ? plain(entry.stats) : {},
      state: isRecord(entry.state) ? plain(entry.state) : {},
      source: { kind: "volley" },
    };
    if (typeof entry.skill === "number" && Number.isFinite(entry.skill)) weapon.skill = entry.skill;
    weapons.push(weapon);
  }
  /** @type {Record<string, string>} */
  const current = {};
  if (isRecord(raw.current)) {
    // An adapter's weapon can be the current one too, so any well-formed id is kept; the arsenal checks it.
    for (const [system, id] of Object.entries(raw.current)) if (typeof id === "string" && WEAPON_ID.test(id)) current[system] = id;
  }
  return { character, weapons, current, problems };
}

/**
 * The profile as it is stored (what `readProfile` reads back unchanged).
 * @param {Profile} profile
 */
export function storedProfile(profile) {
  return {
    character: profile.character,
    weapons: profile.weapons.map(storedWeapon),
    current: profile.current,
  };
}

/** @param {VolleyWeapon} weapon */
function storedWeapon(weapon) {
  /** @type {Record<string, unknown>} */
  const out = { id: weapon.id, system: weapon.system, name: weapon.name, stats: weapon.stats, state: weapon.state };
  if (typeof weapon.skill === "number") out.skill = weapon.skill;
  return out;
}

/**
 * A fresh weapon id that is not in `taken`.
 * @param {Iterable<string>} taken
 * @param {() => number} [random] 0 <= x < 1
 */
export function newWeaponId(taken, random = Math.random) {
  const used = new Set(taken);
  for (;;) {
    const id = `w${Math.floor(random() * 0x100000000)
      .toString(16)
      .padStart(8, "0")}`;
    if (!used.has(id)) return id;
  }
}

/**
 * A new weapon of `plugin`'s system with the notation's defaults.
 * @param {RuleSystemPlugin} plugin
 * @param {Iterable<string>} taken ids already used on the actor
 * @param {string} name
 * @returns {VolleyWeapon}
 */
export function newWeapon(plugin, taken, name) {
  /** @param {FieldSpec[]} specs */
  const defaults = (specs) => {
    /** @type {Record<string, unknown>} */
    const out = {};
    for (const spec of specs) if (spec.default !== null && spec.default !== undefined) out[spec.key] = spec.default;
    return out;
  };
  /** @type {VolleyWeapon} */
  const weapon = {
    id: newWeaponId(taken),
    system: plugin.id,
    name,
    stats: defaults(plugin.profile.stats),
    state: defaults(plugin.profile.state),
    source: { kind: "volley" },
  };
  const skill = plugin.profile.skill;
  if (skill && typeof skill.default === "number") weapon.skill = skill.default;
  return weapon;
}

/**
 * One field as typed, read through its notation.
 * @param {FieldSpec} spec
 * @param {unknown} raw the form's value (a string; a checkbox's boolean)
 * @param {string} field the form's field name, for the refusal
 * @returns {{value: unknown} | {problem: Message}}
 */
export function readField(spec, raw, field) {
  try {
    if (spec.kind === "flag") return { value: readFlag(raw) };
    const text = typeof raw === "string" ? raw.trim() : raw === null || raw === undefined ? "" : String(raw);
    if (text === "") {
      if (spec.optional) return { value: null };
      return { problem: { key: "VOLLEY.Form.Required" } };
    }
    if (spec.kind === "int") {
      const value = readInt(text, field, { min: spec.min, max: spec.max });
      return spec.parse ? spec.parse(String(value)) : { value };
    }
    if (spec.kind === "select") {
      const options = spec.options ?? [];
      if (!options.includes(text)) {
        return { problem: { key: "VOLLEY.Form.OneOf", values: { options: options.join(", "), value: text.slice(0, 20) } } };
      }
      return spec.parse ? spec.parse(text) : { value: text };
    }
    const value = readText(text, field, { max: 80 });
    return spec.parse ? spec.parse(value) : { value };
  } catch (error) {
    if (error instanceof FormError) return { problem: { key: error.key, values: error.values } };
    throw error;
  }
}

/**
 * Read a set of fields from a form's values (`${prefix}${spec.key}`), collecting every problem.
 * @param {FieldSpec[]} specs
 * @param {Record<string, unknown>} values
 * @param {string} prefix
 * @param {FieldProblem[]} problems
 */
function readFields(specs, values, prefix, problems) {
  /** @type {Record<string, unknown>} */
  const out = {};
  for (const spec of specs) {
    const field = `${prefix}${spec.key}`;
    const read = readField(spec, values[field], field);
    if ("problem" in read) problems.push({ field, problem: read.problem });
    else if (read.value !== null) out[spec.key] = read.value;
  }
  return out;
}

/**
 * One weapon from the editor's form, its fields named `${prefix}name`, `${prefix}skill`,
 * `${prefix}stats.<key>`, `${prefix}state.<key>`. Every problem is reported, each naming its field.
 * @param {RuleSystemPlugin} plugin
 * @param {string} id
 * @param {Record<string, unknown>} values
 * @param {string} [prefix]
 * @returns {{weapon: VolleyWeapon, problems: FieldProblem[]}}
 */
export function weaponFromForm(plugin, id, values, prefix = "") {
  /** @type {FieldProblem[]} */
  const problems = [];
  let name = "";
  try {
    name = readText(values[`${prefix}name`], `${prefix}name`, { max: 80, optional: false });
  } catch (error) {
    if (!(error instanceof FormError)) throw error;
    problems.push({ field: `${prefix}name`, problem: { key: error.key, values: error.values } });
  }
  /** @type {VolleyWeapon} */
  const weapon = {
    id,
    system: plugin.id,
    name,
    stats: readFields(plugin.profile.stats, values, `${prefix}stats.`, problems),
    state: readFields(plugin.profile.state, values, `${prefix}state.`, problems),
    source: { kind: "volley" },
  };
  const skillSpec = plugin.profile.skill;
  if (skillSpec) {
    const skill = readFields([skillSpec], values, prefix, problems)[skillSpec.key];
    if (typeof skill === "number") weapon.skill = skill;
  }
  // The rules across fields are checked too when a field is wrong, so every broken rule shows at once
  // (a check looks only at the numbers that were read).
  if (plugin.profile.check) {
    for (const { field, problem } of plugin.profile.check(weapon)) problems.push({ field: `${prefix}${field}`, problem });
  }
  return { weapon, problems };
}

/**
 * A character's numbers for one system from the editor's form (`${prefix}<key>`).
 * @param {RuleSystemPlugin} plugin
 * @param {Record<string, unknown>} values
 * @param {string} [prefix]
 */
export function characterFromForm(plugin, values, prefix = "") {
  /** @type {FieldProblem[]} */
  const problems = [];
  const numbers = readFields(plugin.profile.character, values, prefix, problems);
  return { numbers, problems };
}

/**
 * The form's text for one field of a stored value (what the editor shows).
 * @param {FieldSpec} spec
 * @param {unknown} value
 */
export function fieldText(spec, value) {
  if (spec.kind === "flag") return value === true;
  if (value === null || value === undefined) return "";
  return String(value);
}

/**
 * The weapons list with new state values for one weapon (the weapon that fired); the others untouched.
 * `null` clears a state field (a malfunction that was fixed).
 * @param {VolleyWeapon[]} weapons
 * @param {string} weaponId
 * @param {Record<string, unknown>} changes state field -> new value
 */
export function withWeaponState(weapons, weaponId, changes) {
  return weapons.map((weapon) => {
    if (weapon.id !== weaponId) return weapon;
    /** @type {Record<string, unknown>} */
    const state = { ...weapon.state };
    for (const [key, value] of Object.entries(changes)) {
      if (["__proto__", "prototype", "constructor"].includes(key)) continue;
      if (value === null || value === undefined) delete state[key];
      else state[key] = value;
    }
    return { ...weapon, state };
  });
}
