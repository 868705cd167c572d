/**
 * Dark Heresy 2nd Edition (game system id `dark-heresy-2nd`, mrkeathley/dark-heresy-2nd-vtt) for Volley's
 * d100 rules (seed 004, a Dark Heresy 2e / Only War family system).
 *
 * Read from the system's own code at version 1.8.1 (commit 51464f8bf2ead08331c6716cc2c384f899619478):
 * `src/template.json`, `src/module/documents/base-actor.mjs` (`_computeCharacteristics`),
 * `item.mjs` / `item-container.mjs` (nested items), `rules/ammo.mjs` (`useAmmo`, `calculateAmmoAttackSpecials`),
 * `rules/attack-specials.mjs`, `rolls/action-data.mjs` (jams), `rules/config.mjs` and the weapons and
 * attack-specials compendiums (`src/packs/*.yml`). That version declares Foundry 12 compatibility.
 *
 * How DH2e keeps a character:
 * - Characteristics in `system.characteristics.<name>` with `base`, `advance`, `modifier`; the system
 *   prepares `total = base + 5 × advance + modifier`. Volley takes `total` when the data is prepared
 *   (`actor.toObject(false)`, which also carries active effects) and otherwise computes it the same way.
 *   Ballistic Skill is `ballisticSkill`, Willpower `willpower`.
 * - Weapons are embedded items of type `weapon`: `system.class` (Pistol, Basic, Heavy, Thrown, Melee),
 *   `system.type` (Las, Solid Projectile, Grenades/Missiles...), `system.rateOfFire` {single, burst, full},
 *   `system.clip` {value, max}, `system.reload` ("N/A" or empty: the weapon uses no ammunition),
 *   `system.range` (metres), `system.damage`, `system.damageType`, `system.penetration`,
 *   `system.craftsmanship` and `system.equipped` (the system only fires equipped weapons).
 * - Qualities (Reliable, Unreliable, Blast (3)...) are items of type `attackSpecial` nested in the weapon
 *   under `flags["dark-heresy-2nd"].nested`, counted when `system.enabled` (or `equipped`); a loaded
 *   ammunition item sits there too. Weapons not yet migrated keep them as `system.special`
 *   (`{reliable: true, blast: 3}`), which the system turns into nested items on creation.
 * - The system spends ammunition by writing `system.clip.value` on the weapon; Volley does the same.
 *   Jams, spoiled rounds, bracing and reserve rounds have no field in DH2e and stay in Volley's flags.
 *
 * Readings (named, overridable through `darkHeresyAdapter(options)`):
 * - `classes`: Pistol is `pistol`, Basic `rifle`, Heavy `heavy`, Thrown `thrown` (`grenade` when its type
 *   is Grenades/Missiles or Explosives). DH2e has no long-rifle class, so a long rifle reads as a rifle.
 * - `craftsmanship`: Poor counts as one Unreliable, Good as one Reliable (the seed's own example adds a
 *   Reliable for good quality), Best as two (DH2e: best-quality weapons never jam). The rules sum every
 *   source and clamp to -2..+2 (docs/rules/d100.md, Reliability).
 * - A quality named "Never Jams" sets `jam_at` 101 (never), whatever else the weapon has.
 * - Hot-Shot Charge Packs loaded take the Reliable quality away, as the system itself does.
 *
 * Pure: plain actor data in, plain data out.
 */

import { ProblemLog, integerOf, isRecord, itemsOf, loadedOf, numberOf, quoted, readInteger, uniqueId } from "./reading.js";

/**
 * @typedef {import("../profile/types.js").VolleyWeapon} VolleyWeapon
 * @typedef {import("../profile/types.js").WeaponState} WeaponState
 * @typedef {import("../profile/types.js").CharacterNumbers} CharacterNumbers
 * @typedef {import("../profile/types.js").DocumentWrite} DocumentWrite
 * @typedef {import("../profile/types.js").GameSystemAdapter} GameSystemAdapter
 * @typedef {import("./reading.js").Problem} Problem
 */

/** The `game.system.id` of Dark Heresy 2nd Edition. */
export const GAME_SYSTEM = "dark-heresy-2nd";

/** The version of Dark Heresy 2nd Edition this adapter was written against. */
export const READ_FROM = "mrkeathley/dark-heresy-2nd-vtt 1.8.1 (51464f8bf2ead08331c6716cc2c384f899619478)";

/** The flag scope DH2e keeps nested items under. */
const SYSTEM_FLAGS = "dark-heresy-2nd";

/** Volley's readings where the two games differ or DH2e's data is silent; see the header. */
export const DARK_HERESY_DEFAULTS = Object.freeze({
  /** DH2e weapon class (lower case) to the d100 rules' class. */
  classes: Object.freeze(/** @type {Record<string, string>} */ ({ pistol: "pistol", basic: "rifle", heavy: "heavy", thrown: "thrown", "melee/ thrown": "thrown", "melee/thrown": "thrown" })),
  /** DH2e weapon types whose thrown weapons are grenades. */
  grenadeTypes: Object.freeze(["grenades/missiles", "explosives"]),
  /** Craftsmanship to reliability sources, added to the weapon's own qualities. */
  craftsmanship: Object.freeze(/** @type {Record<string, (string | number)[]>} */ ({ poor: ["Unreliable"], common: [], good: ["Reliable"], best: ["Reliable", "Reliable"] })),
});

/** Quality names that carry reliability, as the d100 rules spell them. */
const RELIABILITY_QUALITIES = new Map([
  ["reliable", "Reliable"],
  ["unreliable", "Unreliable"],
  ["very reliable", "Very Reliable"],
  ["very unreliable", "Very Unreliable"],
]);
/** A d100 face no attack roll reaches: the weapon never jams (rules/d100/plan.py, `jam_at`). */
const NEVER_JAMS = 101;
/** DH2e damage types to the d100 rules' letters. */
const DAMAGE_TYPES = new Map([
  ["energy", "E"],
  ["e", "E"],
  ["impact", "I"],
  ["i", "I"],
  ["rending", "R"],
  ["r", "R"],
  ["explosive", "X"],
  ["x", "X"],
]);
/** The d100 rules' damage notation (rules/d100/damage.py). */
const DAMAGE = /^\s*\d+\s*[dD]\s*\d+\s*(?:[+-]\s*\d+)?\s*$/;

/**
 * The Dark Heresy 2nd Edition adapter.
 * @param {Partial<typeof DARK_HERESY_DEFAULTS>} [options]
 * @returns {GameSystemAdapter}
 */
export function darkHeresyAdapter(options = {}) {
  const settings = { ...DARK_HERESY_DEFAULTS, ...options };
  return {
    gameSystem: GAME_SYSTEM,
    ruleSystem: "d100",
    readActor(actor) {
      return readDarkHeresyActor(actor, settings);
    },
    writeState(actor, weapon, state) {
      return writeDarkHeresyState(actor, weapon, state);
    },
  };
}

/**
 * @param {Record<string, any>} actor the actor's prepared data (`actor.toObject(false)`)
 * @param {typeof DARK_HERESY_DEFAULTS} settings
 * @returns {{character: CharacterNumbers, weapons: VolleyWeapon[], problems: Problem[]}}
 */
function readDarkHeresyActor(actor, settings) {
  const log = new ProblemLog();
  /** @type {VolleyWeapon[]} */
  const weapons = [];
  if (!isRecord(actor) || !isRecord(actor.system)) {
    log.add("system", "actor.invalid");
    return { character: {}, weapons, problems: log.problems };
  }
  /** @type {{bs?: number, wp?: number}} */
  const d100 = {};
  const bs = readCharacteristic(actor.system, "ballisticSkill", log);
  if (bs !== null) d100.bs = bs;
  const wp = readCharacteristic(actor.system, "willpower", log);
  if (wp !== null) d100.wp = wp;

  const ids = new Set();
  for (const item of itemsOf(actor)) {
    if (item.type !== "weapon" || !isRecord(item.system)) continue;
    const weapon = readWeapon(item, settings, log);
    if (weapon === null) continue;
    weapons.push({ ...weapon, id: uniqueId(ids, `dark-heresy-2nd:${item._id}`) });
  }
  return { character: { d100 }, weapons, problems: log.problems };
}

/**
 * A characteristic's total as DH2e prepares it.
 * @param {Record<string, any>} system
 * @param {string} name
 * @param {ProblemLog} log
 */
function readCharacteristic(system, name, log) {
  const path = `system.characteristics.${name}`;
  const characteristic = isRecord(system.characteristics) ? system.characteristics[name] : undefined;
  if (!isRecord(characteristic)) {
    log.add(path, "field.missing", { what: name });
    return null;
  }
  const total = numberOf(characteristic.total);
  if (total !== null) return Math.trunc(total);
  const what = `part of ${name}`;
  const base = readInteger(log, `${path}.base`, characteristic.base, { what });
  const advance = readInteger(log, `${path}.advance`, characteristic.advance ?? 0, { what });
  const modifier = readInteger(log, `${path}.modifier`, characteristic.modifier ?? 0, { what });
  if (base === null || advance === null || modifier === null) return null;
  return base + 5 * advance + modifier;
}

/**
 * One weapon item as Volley's d100 weapon, or null: melee weapons quietly, unusable ones with problems.
 * @param {Record<string, any>} item
 * @param {typeof DARK_HERESY_DEFAULTS} settings
 * @param {ProblemLog} log
 * @returns {Omit<VolleyWeapon, "id"> | null}
 */
function readWeapon(item, settings, log) {
  const system = item.system;
  const path = `items.${item._id}.system`;
  const name = typeof item.name === "string" && item.name.trim() !== "" ? item.name.trim() : item._id;
  const className = typeof system.class === "string" ? system.class.trim().toLowerCase() : "";
  if (className === "melee") return null;
  const before = log.count;

  let weaponClass = settings.classes[className];
  if (weaponClass === undefined) log.add(`${path}.class`, "dh2.class.unknown", { value: quoted(system.class) });
  const type = typeof system.type === "string" ? system.type.trim().toLowerCase() : "";
  if (weaponClass === "thrown" && settings.grenadeTypes.includes(type)) weaponClass = "grenade";
  if (system.equipped !== true) log.add(`${path}.equipped`, "dh2.not_equipped", { name: quoted(name) });

  const rof = readRateOfFire(system.rateOfFire, `${path}.rateOfFire`, log);
  const capacity = readInteger(log, `${path}.clip.max`, system.clip?.max, { what: "the clip's size", min: 1, max: 100000 });
  const usesAmmo = typeof system.reload === "string" && system.reload.trim() !== "" && system.reload.trim().toUpperCase() !== "N/A";
  let loaded = null;
  if (usesAmmo) {
    loaded = readInteger(log, `${path}.clip.value`, system.clip?.value, { what: "rounds in the clip", min: 0, max: 100000 });
    if (loaded !== null && capacity !== null && loaded > capacity) {
      log.add(`${path}.clip.value`, "dh2.clip.over", { value: loaded, max: capacity });
    }
  }
  const range = readRange(system.range, `${path}.range`, weaponClass, log);
  if (log.count > before || weaponClass === undefined || rof === null || capacity === null) return null;

  const specials = readQualities(item, log);
  if (log.count > before) return null;
  /** @type {Record<string, unknown>} */
  const stats = { class: weaponClass, rof, capacity, ...reliabilityOf(system.craftsmanship, specials, settings) };
  if (range !== null) stats.range = range;
  Object.assign(stats, damageOf(system), blastOf(specials));
  return {
    system: "d100",
    name,
    stats,
    state: loaded === null ? {} : { loaded },
    source: { kind: "adapter", adapter: GAME_SYSTEM, ref: item._id },
  };
}

/**
 * DH2e's {single, burst, full} as the book's "S/3/-".
 * @param {unknown} value
 * @param {string} field
 * @param {ProblemLog} log
 */
function readRateOfFire(value, field, log) {
  if (!isRecord(value)) {
    log.add(field, "field.missing", { what: "the rate of fire" });
    return null;
  }
  const what = "a rate of fire";
  const single = readInteger(log, `${field}.single`, value.single ?? 0, { what, min: 0, max: 100 });
  const burst = readInteger(log, `${field}.burst`, value.burst ?? 0, { what, min: 0, max: 100 });
  const full = readInteger(log, `${field}.full`, value.full ?? 0, { what, min: 0, max: 100 });
  if (single === null || burst === null || full === null) return null;
  if (single === 0 && burst === 0 && full === 0) {
    log.add(field, "dh2.rof.none");
    return null;
  }
  return [single > 0 ? "S" : "-", burst > 0 ? String(burst) : "-", full > 0 ? String(full) : "-"].join("/");
}

/**
 * Range in metres; none (0 or empty) for thrown weapons and grenades, whose range the rules take from
 * the thrower's Strength bonus.
 * @param {unknown} value
 * @param {string} field
 * @param {string | undefined} weaponClass
 * @param {ProblemLog} log
 * @returns {number | null}
 */
function readRange(value, field, weaponClass, log) {
  const metres = numberOf(value);
  if (metres !== null && metres > 0) return metres;
  if (metres === 0 || value === "" || value === undefined || value === null) return null;
  if (weaponClass === "thrown" || weaponClass === "grenade") return null;
  log.add(field, "dh2.range.invalid", { value: quoted(value) });
  return null;
}

/**
 * @typedef {{name: string, level: number | null, path: string}} Quality
 */

/**
 * The weapon's active qualities and loaded ammunition, from its nested items (or the older `system.special`).
 * @param {Record<string, any>} item
 * @param {ProblemLog} log
 * @returns {{qualities: Quality[], ammunition: string[]}}
 */
function readQualities(item, log) {
  const nested = item.flags?.[SYSTEM_FLAGS]?.nested;
  /** @type {Quality[]} */
  const qualities = [];
  /** @type {string[]} */
  const ammunition = [];
  if (Array.isArray(nested) && nested.length > 0) {
    nested.forEach((entry, index) => {
      if (!isRecord(entry) || typeof entry.name !== "string") return;
      const path = `items.${item._id}.flags.${SYSTEM_FLAGS}.nested[${index}]`;
      if (entry.type === "ammunition") ammunition.push(entry.name.trim().toLowerCase());
      if (entry.type !== "attackSpecial" || !isRecord(entry.system)) return;
      if (entry.system.enabled !== true && entry.system.equipped !== true) return;
      const level = entry.system.hasLevel ? readInteger(log, `${path}.system.level`, entry.system.level, { what: `the level of ${entry.name}`, min: 0, max: 1000 }) : null;
      qualities.push({ name: entry.name.trim().toLowerCase(), level, path });
    });
  } else if (isRecord(item.system.special)) {
    for (const [key, value] of Object.entries(item.system.special)) {
      if (value === false || value === null || value === undefined) continue;
      const path = `items.${item._id}.system.special.${key}`;
      const level = typeof value === "boolean" ? null : readInteger(log, path, value, { what: `the level of ${key}`, min: 0, max: 1000 });
      qualities.push({ name: key.replace(/-/g, " ").trim().toLowerCase(), level, path });
    }
  }
  return { qualities, ammunition };
}

/**
 * The reliability sources the d100 rules sum (and `jam_at` for a weapon that never jams).
 * @param {unknown} craftsmanship
 * @param {{qualities: Quality[], ammunition: string[]}} read
 * @param {typeof DARK_HERESY_DEFAULTS} settings
 * @returns {{reliability: (string | number)[], jam_at?: number}}
 */
function reliabilityOf(craftsmanship, { qualities, ammunition }, settings) {
  const hotShot = ammunition.includes("hot-shot charge packs");
  /** @type {(string | number)[]} */
  const reliability = [];
  for (const quality of qualities) {
    const named = RELIABILITY_QUALITIES.get(quality.name);
    if (named !== undefined && !(hotShot && named === "Reliable")) reliability.push(named);
  }
  const quality = typeof craftsmanship === "string" ? craftsmanship.trim().toLowerCase() : "common";
  reliability.push(...(settings.craftsmanship[quality] ?? []));
  if (qualities.some((q) => q.name === "never jams")) return { reliability, jam_at: NEVER_JAMS };
  return { reliability };
}

/**
 * Damage, penetration and damage type, when all three are in the rules' notation; otherwise none, and
 * the card counts hits while DH2e's own damage roll does the rest.
 * @param {Record<string, any>} system
 * @returns {{damage?: string, pen?: number, damage_type?: string}}
 */
function damageOf(system) {
  const damageType = typeof system.damageType === "string" ? DAMAGE_TYPES.get(system.damageType.trim().toLowerCase()) : undefined;
  const pen = system.penetration === "" || system.penetration === undefined ? 0 : integerOf(system.penetration);
  if (typeof system.damage !== "string" || !DAMAGE.test(system.damage) || damageType === undefined || pen === null || pen < 0) return {};
  return { damage: system.damage.replace(/\s+/g, ""), pen, damage_type: damageType };
}

/**
 * Blast radius and Concussive rating from the qualities that carry them.
 * @param {{qualities: Quality[]}} read
 */
function blastOf({ qualities }) {
  /** @type {{blast?: number, concussive?: number}} */
  const extra = {};
  for (const quality of qualities) {
    if (quality.level === null) continue;
    if (quality.name === "blast" && quality.level > 0) extra.blast = quality.level;
    if (quality.name === "concussive") extra.concussive = quality.level;
  }
  return extra;
}

/**
 * The weapon's clip after the action, as DH2e's own `useAmmo` writes it.
 * @param {Record<string, any>} actor
 * @param {VolleyWeapon} weapon
 * @param {WeaponState} state
 * @returns {DocumentWrite[]}
 */
function writeDarkHeresyState(actor, weapon, state) {
  const loaded = loadedOf(state);
  if (loaded === undefined || weapon.source?.kind !== "adapter" || !isRecord(actor)) return [];
  const ref = weapon.source.ref;
  const item = itemsOf(actor).find((candidate) => candidate._id === ref);
  if (item === undefined || !isRecord(item.system)) return [];
  const reload = item.system.reload;
  if (typeof reload !== "string" || reload.trim() === "" || reload.trim().toUpperCase() === "N/A") return [];
  return [{ documentName: "Item", id: ref, changes: { "system.clip.value": loaded } }];
}
