/**
 * What the three game-system adapters share: reading numbers out of documents that other people's code
 * wrote (a number here, the same number as a string there), and reporting a field that cannot be read.
 *
 * An adapter never guesses. When a field is missing or says something Volley cannot use, it records a
 * problem naming the exact path in the actor's data (`system.ranged.00001.rof`), and the weapon is left
 * out of the dialog's list; the dialog shows the problem, so the referee knows which field to fix.
 * Each problem carries a message key and its values (so the module can show it in the table's
 * language, as `VOLLEY.Adapter.<key>`) and an English `message` for logs and as the fallback text.
 *
 * A weapon that is not one Volley fires (a sword, a grenade for rules that have none, a weapon the
 * system itself would not fire) is not a problem: nothing needs fixing. It is *refused*, once, with the
 * reason (`refused.*` keys), and the dialog lists it under the problems so no weapon vanishes in silence.
 * Every weapon item an adapter looks at ends up in exactly one place: read, refused, or left out with
 * the problems that name its broken fields.
 *
 * Each adapter also names the versions of its game system it was read from and tested against
 * (`SupportedVersions`); `versionNotice` says, once, when the installed version is outside them.
 *
 * Pure: plain data in, plain data out; no Foundry globals.
 */

/**
 * @typedef {import("../profile/types.js").AdapterProblem & {key: string, values: Record<string, unknown>}} Problem
 * @typedef {Problem & {name: string}} Refusal  a weapon Volley does not fire, and why
 * @typedef {{system: string, min: string, below: string, tested: string, foundry?: {min: number, max: number}}} SupportedVersions
 *   the versions an adapter reads: from `min` up to (not including) `below`; `tested` is the release
 *   its fixtures follow; `foundry`: the Foundry generations those versions run on
 */

/**
 * The English text of every problem an adapter can report, by key (`{name}` is filled from values).
 * The module's language files hold the same keys under `VOLLEY.Adapter.`.
 */
export const PROBLEM_TEXTS = Object.freeze({
  "actor.invalid": "not an actor's data (expected the object from actor.toObject(false))",
  "field.missing": "{what} is missing",
  "field.not_number": "{value} is not a whole number ({what})",
  "field.out_of_range": "{value} is out of range for {what} ({min}..{max})",
  "gurps.rof.invalid": '{value} is not a rate of fire (a number such as 13, or shots x pellets such as "3x9")',
  "gurps.rcl.invalid": "{value} is not a recoil (a whole number, 1 or more)",
  "gurps.shots.invalid": '{value} is not a magazine Volley can count (rounds, "+1" in the chamber, reload time: "30+1(3)")',
  "gurps.malf.invalid": "{value} is not a malfunction number Volley can use (3 to 19; very reliable Malf N+ is not modelled: write Malf 18 or 19)",
  "gurps.ammo.ambiguous": "{count} pieces of equipment named {name} track uses; Volley cannot tell which holds the rounds",
  "gurps.ammo.mismatch": "Max Uses {maxuses} is neither the magazine ({magazine}) nor the magazine with the chambered round ({full}) of {name}",
  "gurps.ammo.over": "{uses} rounds loaded is more than {name} holds ({capacity})",
  "dh2.class.unknown": "{value} is not a ranged weapon class Volley knows (Pistol, Basic, Heavy, Thrown)",
  "dh2.not_equipped": "{name} is not equipped; Dark Heresy fires equipped weapons only",
  "dh2.clip.over": "{value} rounds in the clip is more than it holds ({max})",
  "dh2.range.invalid": "{value} is not a range in metres",
  "dh2.original_build": "this Dark Heresy 2nd Edition {version} is the original, which declares Foundry 12 only; on Foundry {foundry} install the fork {fork} (the same system id and data). Volley reads what it can",
  "twodsix.rof.invalid": "{value} is not a rate of fire Volley can read (figures such as 1/4, 3, or Auto)",
  "twodsix.burst.invalid": "{value}: a MegaTraveller burst is 2, 3 or 4 rounds",
  "twodsix.kind.unknown": "cannot tell whether {name} is a pistol, a rifle or a heavy weapon (set its range band or weapon type)",
  "twodsix.magazine.missing": "the linked magazine {id} is not among the actor's items",
  "twodsix.magazine.none": "{name} has no magazine: link a magazine or set its default magazine size",
  "twodsix.magazine.over": "{value} rounds is more than the magazine holds ({max})",
  "twodsix.skill.missing": "{name} names no skill and the actor has no untrained skill",
  "twodsix.skill.unknown": "skill item {id} is not among the actor's items",
  "refused.melee": "{name} is a melee weapon; Volley fires ranged weapons only",
  "refused.thrown": "{name} is thrown (a grenade or a thrown weapon); these rules fire guns only",
  "refused.natural": "{name} has no weapon type, range or magazine, and nothing in its data says it is a gun (a bite, a claw, a tool): Volley does not fire it (give a gun its range, or the weapon type \"ranged\", to fire it)",
  "refused.grenade": "{name} is thrown, not fired: Shots 1 and no Rcl, as GCS writes a grenade or a Molotov (Throwing skill, B356); these rules fire guns only",
  "refused.spray": "{name} has Spray: Dark Heresy rolls no to-hit for it (everyone in a 30° arc tests Agility or takes a hit), and Volley's d100 rules have no such attack; fire it from the system's own sheet",
  "refused.jet": "{name} fires a jet or a stream (RoF {value}), not rapid fire",
  "refused.no_rof": "{name} has no rate of fire: not a weapon Volley fires",
  "refused.no_class": "{name} has no weapon class ({value}); give it Pistol, Basic, Heavy or Thrown to fire it",
  "refused.not_equipped": "{name} is not equipped; Dark Heresy fires equipped weapons only",
  "refused.item_attack": "{name} is a ranged attack kept on an Item (GURPS Game Aid 1.0); this Volley reads the attacks of GGA 0.18 ({supported})",
  "version.outside": "{system} {version} is outside the versions this Volley reads ({supported}); it reads what it can and names what it cannot",
});

/**
 * A version's numbers ("0.18.22" -> [0, 18, 22]; "1.0.0-alpha" -> [1, 0, 0]), or null.
 * @param {unknown} version
 * @returns {number[] | null}
 */
function versionNumbers(version) {
  if (typeof version !== "string") return null;
  const match = /^\s*v?(\d{1,6}(?:\.\d{1,6}){0,3})/.exec(version);
  return match === null ? null : match[1].split(".").map(Number);
}

/**
 * Compare two versions part by part (missing parts count as 0): negative, 0 or positive.
 * @param {number[]} a
 * @param {number[]} b
 */
function compareVersions(a, b) {
  for (let i = 0; i < Math.max(a.length, b.length); i += 1) {
    const diff = (a[i] ?? 0) - (b[i] ?? 0);
    if (diff !== 0) return diff;
  }
  return 0;
}

/**
 * The notice to show when the installed game system's version is outside what the adapter was read
 * from, or null when it is inside (or when no version is known: nothing to say then).
 * A pre-release ("1.0.0-alpha") counts as its release.
 * @param {SupportedVersions} supported
 * @param {unknown} installed `game.system.version`
 * @returns {Problem | null}
 */
export function versionNotice(supported, installed) {
  const version = versionNumbers(installed);
  if (version === null) return null;
  const min = versionNumbers(supported.min) ?? [0];
  const below = versionNumbers(supported.below) ?? [Number.MAX_SAFE_INTEGER];
  if (compareVersions(version, min) >= 0 && compareVersions(version, below) < 0) return null;
  const values = { system: supported.system, version: String(installed).trim(), supported: supportedText(supported) };
  return { field: "game.system.version", key: "version.outside", values, message: `game.system.version: ${fill(PROBLEM_TEXTS["version.outside"], values)}` };
}

/**
 * A version range in symbols, the same in every language: ">= 0.18.0 < 1.0.0".
 * @param {SupportedVersions} supported
 */
export function supportedText(supported) {
  return `>= ${supported.min} < ${supported.below}`;
}

/**
 * The problems found while reading one actor.
 */
export class ProblemLog {
  /** @type {Problem[]} */
  problems = [];

  /** @type {Refusal[]} */
  refused = [];

  /**
   * Record that the weapon at `field` is not one Volley fires, and why.
   * @param {string} field the weapon's path in the actor's data
   * @param {string} name the weapon's name
   * @param {keyof typeof PROBLEM_TEXTS} key a `refused.*` key
   * @param {Record<string, unknown>} [values]
   */
  refuse(field, name, key, values = {}) {
    const all = { name: quoted(name), ...values };
    this.refused.push({ field, name, key, values: all, message: `${field}: ${fill(PROBLEM_TEXTS[key], all)}` });
  }

  /**
   * Record that `field` could not be read.
   * @param {string} field the path in the actor's data
   * @param {keyof typeof PROBLEM_TEXTS} key
   * @param {Record<string, unknown>} [values]
   */
  add(field, key, values = {}) {
    this.problems.push({ field, key, values, message: `${field}: ${fill(PROBLEM_TEXTS[key], values)}` });
  }

  /** How many problems so far: compare before and after reading a weapon to see whether it failed. */
  get count() {
    return this.problems.length;
  }
}

/**
 * @param {string} template
 * @param {Record<string, unknown>} values
 */
function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

/**
 * A value as a problem message quotes it: strings in quotes, everything cut to 40 characters.
 * @param {unknown} value
 * @returns {string}
 */
export function quoted(value) {
  let text;
  if (typeof value === "string") text = JSON.stringify(value);
  else if (value === undefined) text = "undefined";
  else {
    try {
      text = JSON.stringify(value) ?? String(value);
    } catch {
      text = String(value);
    }
  }
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

/**
 * @param {unknown} value
 * @returns {value is Record<string, any>}
 */
export function isRecord(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A whole number written as text: optional sign (ASCII or the minus sign), ASCII digits. */
const INTEGER_TEXT = /^\s*([+\-\u2212]?)\s*(\d{1,9})\s*$/;

/**
 * A whole number, from a number or from text that is one ("12", " -2 ", "+1"); null otherwise.
 * Game systems store the same field as either, depending on who last saved it.
 * @param {unknown} value
 * @returns {number | null}
 */
export function integerOf(value) {
  if (typeof value === "number") return Number.isSafeInteger(value) ? value : null;
  if (typeof value !== "string") return null;
  const match = INTEGER_TEXT.exec(value);
  if (match === null) return null;
  const size = Number(match[2]);
  return match[1] === "" || match[1] === "+" ? size : -size;
}

/**
 * A finite number (not necessarily whole), from a number or numeric text; null otherwise.
 * @param {unknown} value
 * @returns {number | null}
 */
export function numberOf(value) {
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value !== "string" || !/^\s*[+-]?(\d+(\.\d*)?|\.\d+)\s*$/.test(value)) return null;
  return Number(value);
}

/**
 * Read a whole number at `field`, within `min..max`, or record why not.
 * @param {ProblemLog} log
 * @param {string} field
 * @param {unknown} value
 * @param {{what: string, min?: number, max?: number}} rule
 * @returns {number | null}
 */
export function readInteger(log, field, value, { what, min = -1e9, max = 1e9 }) {
  if (value === undefined || value === null || value === "") {
    log.add(field, "field.missing", { what });
    return null;
  }
  const number = integerOf(value);
  if (number === null) {
    log.add(field, "field.not_number", { value: quoted(value), what });
    return null;
  }
  if (number < min || number > max) {
    log.add(field, "field.out_of_range", { value: number, what, min, max });
    return null;
  }
  return number;
}

/**
 * The embedded items of an actor's data, each with its id (documents from `toObject()` list them
 * in an array; a collection's `contents` is accepted too).
 * @param {Record<string, any>} actor
 * @returns {Record<string, any>[]}
 */
export function itemsOf(actor) {
  /** @type {unknown[]} */
  const items = Array.isArray(actor.items) ? actor.items : Array.isArray(actor.items?.contents) ? actor.items.contents : [];
  return items.filter(/** @returns {item is Record<string, any>} */ (item) => isRecord(item) && typeof item._id === "string");
}

/**
 * Check a weapon state before writing it back: rounds loaded must be a whole number of 0 or more.
 * A bad state is a bug in the caller, so it throws rather than writing nonsense to the document.
 * @param {unknown} state
 * @returns {number | undefined} the rounds loaded, or undefined when the state says nothing about them
 */
export function loadedOf(state) {
  if (!isRecord(state)) throw new TypeError("state: expected the weapon's state object");
  if (state.loaded === undefined) return undefined;
  const loaded = state.loaded;
  if (typeof loaded !== "number" || !Number.isSafeInteger(loaded) || loaded < 0) {
    throw new RangeError(`state.loaded: ${quoted(loaded)} is not a number of rounds`);
  }
  return loaded;
}
