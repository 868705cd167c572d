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
 * - `ammunition`: the loaded ammunition (a nested item of type `ammunition`) changes each hit as DH2e
 *   changes it, by the ammunition's name (`rules/ammo.mjs`): Hot-Shot Charge Packs +1 damage and +4
 *   penetration, single shots only and the Reliable quality taken away; Expander Rounds +1/+1,
 *   Man-Stopper Bullets +3 penetration, Dumdum Bullets and Amputator Shells +2 damage, Tox Rounds -1.
 *   The qualities ammunition adds (Hot-Shot's Tearing, Inferno Shells' Flame, Tox Rounds' Toxic) and
 *   Explosive Arrows' -10 to hit are not modelled: Volley's d100 rules have no such fields.
 * - `standardAttack`: a ranged weapon with no rate of fire at all (-1/-1/-1: the compendium's Webber, a
 *   snare gun with no damage, and the Wailing Trident, a "Melee/ Thrown" trident) fires single shots,
 *   as DH2e's own attack dialog offers it the Standard Attack.
 * - Rounds per shot, as the system spends them (`rules/ammo.mjs` `calculateAmmoInformation`): a weapon
 *   with Overcharge spends 2 rounds a shot, Overload 4, Twin-Linked doubles that and Maximal triples it.
 *   Volley's d100 rules count shots, so the adapter reads the clip in shots (`clip.max` and
 *   `clip.value` divided by the rounds a shot takes, rounded down) and writes back the rounds: each shot
 *   Volley spends takes that many rounds from `clip.value`, and a full reload fills the clip to `clip.max`.
 *   Storm is where Volley differs: DH2e doubles a Storm weapon's hits and rounds on bursts; Volley's rules
 *   have no Storm quality and fire it at its listed rate (docs/rules/d100.md).
 * - A weapon that uses no ammunition and has no clip (`reload` empty, `clip.max` 0: the Hellrifle, a
 *   thrown knife, a graviton grenade) reads with a clip of one that is always loaded: DH2e keeps no count
 *   for it, so Volley keeps none either and writes nothing back.
 * - A quality whose level is `true` (the compendium's Bolas: `snare: true`, which the system copies into
 *   the nested Snare's level) is the quality with no number: present, without a level.
 * - Weapons Volley does not fire are refused, each once with the reason: melee weapons, a weapon with no
 *   class (the compendium's Frag and Krak Missiles, a launcher's ammunition), a Spray weapon (the
 *   flamers: DH2e rolls no to-hit for Spray, everyone in a 30° arc tests Agility instead, and Volley's
 *   d100 rules, seed 004, have no such attack; firing it there would roll a to-hit the system never
 *   rolls), and weapons that are not equipped (the system fires equipped weapons only).
 *
 * Pure: plain actor data in, plain data out.
 */

import { itemWeaponId } from "./identity.js";
import { PROBLEM_TEXTS, ProblemLog, integerOf, isRecord, itemsOf, loadedOf, numberOf, quoted, readInteger, versionNotice } from "./reading.js";

/**
 * @typedef {import("../profile/types.js").VolleyWeapon} VolleyWeapon
 * @typedef {import("../profile/types.js").WeaponState} WeaponState
 * @typedef {import("../profile/types.js").CharacterNumbers} CharacterNumbers
 * @typedef {import("../profile/types.js").DocumentWrite} DocumentWrite
 * @typedef {import("../profile/types.js").GameSystemAdapter} GameSystemAdapter
 * @typedef {import("./reading.js").Problem} Problem
 * @typedef {import("./reading.js").Refusal} Refusal
 */

/** The `game.system.id` of Dark Heresy 2nd Edition. */
export const GAME_SYSTEM = "dark-heresy-2nd";

/** The version of Dark Heresy 2nd Edition this adapter was written against. */
export const READ_FROM = "mrkeathley/dark-heresy-2nd-vtt 1.8.1 (51464f8bf2ead08331c6716cc2c384f899619478)";

/**
 * The DH2e versions this adapter reads: the 1.x data (template.json, nested items), tested with 1.8.1;
 * on Foundry 13 and 14, where tables run the community fork (below).
 */
export const SUPPORTED_VERSIONS = Object.freeze({ system: "Dark Heresy 2nd Edition", min: "1.8.0", below: "2.0.0", tested: "1.8.1", foundry: Object.freeze({ min: 13, max: 14 }) });

/**
 * Which Dark Heresy 2e a world runs. The original 1.8.1 (mrkeathley/dark-heresy-2nd-vtt, 51464f8)
 * declares Foundry 12 only (`compatibility` minimum 12, verified 12.331, maximum 12); tables on Foundry
 * 13 and 14 run MattMavis/dark-heresy-2nd-vtt, a fork with the same id, the same data model and the
 * same `version` "1.8.1" (and still the original's url and manifest), whose `compatibility` is minimum
 * 13, verified 14.365 (its src/system.json at 0d7aae3). Only the declared compatibility tells them
 * apart: "fork" when it allows 13 or later, "original" when it stops at 12, "unknown" otherwise.
 * @param {unknown} compatibility `game.system.compatibility`
 * @returns {"fork" | "original" | "unknown"}
 */
export function darkHeresyBuild(compatibility) {
  const c = isRecord(compatibility) ? compatibility : {};
  const generation = (/** @type {unknown} */ value) => {
    const major = Number.parseInt(String(value ?? ""), 10);
    return Number.isFinite(major) ? major : null;
  };
  const minimum = generation(c.minimum);
  const maximum = generation(c.maximum);
  const verified = generation(c.verified);
  if (minimum !== null && minimum >= 13) return "fork";
  if ((maximum !== null && maximum < 13) || (verified !== null && verified < 13)) return "original";
  return "unknown";
}

/** Where the build for Foundry 13 and 14 is. */
export const FORK = "MattMavis/dark-heresy-2nd-vtt";

/**
 * What to tell the table about its Dark Heresy: the original (Foundry 12 only) on Foundry 13 or 14 is
 * named as such, with the fork to install; otherwise the usual version notice.
 * @param {{system?: {version?: unknown, compatibility?: unknown}, release?: {generation?: unknown}}} game
 * @returns {import("./reading.js").Problem | null}
 */
export function darkHeresyNotice(game) {
  const running = Number(game?.release?.generation ?? 0);
  const version = String(game?.system?.version ?? "").trim();
  if (running >= 13 && darkHeresyBuild(game?.system?.compatibility) === "original") {
    const values = { version, foundry: running, fork: FORK };
    const words = PROBLEM_TEXTS["dh2.original_build"].replace(/\{(\w+)\}/g, (_, name) => String(/** @type {Record<string, unknown>} */ (values)[name] ?? ""));
    return { field: "game.system.compatibility", key: "dh2.original_build", values, message: `game.system.compatibility: ${words}` };
  }
  return versionNotice(SUPPORTED_VERSIONS, game?.system?.version);
}

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
  /** A ranged weapon whose entry has no rate of fire at all (the compendium's Webber and Wailing Trident,
   * -1/-1/-1) fires single shots: DH2e's attack dialog offers every ranged weapon its Standard Attack
   * whatever its RoF (`updateAvailableCombatActions` only takes the bursts away). False refuses it. */
  standardAttack: true,
  /** What loaded ammunition does to each hit, by its name, as DH2e applies it (`rules/ammo.mjs`:
   * `calculateAmmoDamageBonuses`, `calculateAmmoPenetrationBonuses`; Hot-Shot packs also fire single
   * shots and take Reliable away, `calculateAmmoInformation`, `calculateAmmoAttackSpecials`). */
  ammunition: Object.freeze(/** @type {Record<string, {damage?: number, pen?: number, singleShot?: boolean, dropsReliable?: boolean}>} */ ({
    "hot-shot charge packs": { damage: 1, pen: 4, singleShot: true, dropsReliable: true },
    "amputator shells": { damage: 2 },
    "dumdum bullets": { damage: 2 },
    "expander rounds": { damage: 1, pen: 1 },
    "man-stopper bullets": { pen: 3 },
    "tox rounds": { damage: -1 },
  })),
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
/** The d100 rules' damage notation (rules/d100/damage.py): dice, sides, the bonus's sign and size. */
const DAMAGE = /^\s*(\d+)\s*[dD]\s*(\d+)\s*(?:([+-])\s*(\d+))?\s*$/;

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
    supported: SUPPORTED_VERSIONS,
    noticeFor: darkHeresyNotice,
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
 * @returns {{character: CharacterNumbers, weapons: VolleyWeapon[], problems: Problem[], refused: Refusal[]}}
 */
function readDarkHeresyActor(actor, settings) {
  const log = new ProblemLog();
  /** @type {VolleyWeapon[]} */
  const weapons = [];
  if (!isRecord(actor) || !isRecord(actor.system)) {
    log.add("system", "actor.invalid");
    return { character: {}, weapons, problems: log.problems, refused: log.refused };
  }
  /** @type {{bs?: number, wp?: number}} */
  const d100 = {};
  const bs = readCharacteristic(actor.system, "ballisticSkill", log);
  if (bs !== null) d100.bs = bs;
  const wp = readCharacteristic(actor.system, "willpower", log);
  if (wp !== null) d100.wp = wp;

  const ids = new Set();
  const legacy = new Set();
  for (const item of itemsOf(actor)) {
    if (item.type !== "weapon" || !isRecord(item.system)) continue;
    const weapon = readWeapon(item, settings, log);
    if (weapon === null) continue;
    weapons.push({ ...weapon, ...itemWeaponId(ids, "dh2e", item._id, "dark-heresy-2nd", legacy) });
  }
  return { character: { d100 }, weapons, problems: log.problems, refused: log.refused };
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
 * One weapon item as Volley's d100 weapon, or null: refused with the reason, or left out with problems.
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
  if (className === "melee") {
    log.refuse(`items.${item._id}`, name, "refused.melee");
    return null;
  }
  if (className === "") {
    log.refuse(`${path}.class`, name, "refused.no_class", { value: quoted(system.class ?? "") });
    return null;
  }
  if (readQualities(item, new ProblemLog()).qualities.some((quality) => quality.name === "spray")) {
    // DH2e skips the to-hit for Spray (everyone in the arc tests Agility); Volley's rules would roll one.
    log.refuse(`items.${item._id}`, name, "refused.spray");
    return null;
  }
  if (system.equipped !== true) {
    log.refuse(`${path}.equipped`, name, "refused.not_equipped");
    return null;
  }
  const rofField = `${path}.rateOfFire`;
  const noRate = isRecord(system.rateOfFire) && ["single", "burst", "full"].every((mode) => (integerOf(system.rateOfFire[mode] ?? 0) ?? 1) <= 0);
  if (noRate && !settings.standardAttack) {
    log.refuse(rofField, name, "refused.no_rof");
    return null;
  }
  const before = log.count;

  let weaponClass = settings.classes[className];
  if (weaponClass === undefined) log.add(`${path}.class`, "dh2.class.unknown", { value: quoted(system.class) });
  const type = typeof system.type === "string" ? system.type.trim().toLowerCase() : "";
  if (weaponClass === "thrown" && settings.grenadeTypes.includes(type)) weaponClass = "grenade";

  const specials = readQualities(item, log);
  const loads = specials.ammunition.map((ammunition) => settings.ammunition[ammunition]).filter((effect) => effect !== undefined);
  const rof = noRate ? "S/-/-" : readRateOfFire(system.rateOfFire, rofField, loads.some((effect) => effect.singleShot), log);
  const usesAmmo = usesAmmunition(system);
  const clipMax = system.clip?.max;
  const noClip = !usesAmmo && (clipMax === 0 || clipMax === "0" || clipMax === undefined || clipMax === null);
  const max = noClip ? 1 : readInteger(log, `${path}.clip.max`, clipMax, { what: "the clip's size", min: 1, max: 100000 });
  const perShot = roundsPerShot(specials.qualities);
  /** @type {number | null} */
  let loaded = noClip ? 1 : null;
  /** @type {number | null} */
  let capacity = max === null ? null : Math.floor(max / perShot);
  if (usesAmmo) {
    const value = readInteger(log, `${path}.clip.value`, system.clip?.value, { what: "rounds in the clip", min: 0, max: 100000 });
    if (value !== null && max !== null && value > max) log.add(`${path}.clip.value`, "dh2.clip.over", { value, max });
    if (value !== null) loaded = Math.floor(value / perShot);
  }
  if (capacity !== null && capacity < 1) {
    log.add(`${path}.clip.max`, "field.out_of_range", { value: max, what: `the clip's size (${perShot} rounds a shot)`, min: perShot, max: 100000 });
    capacity = null;
  }
  const range = readRange(system.range, `${path}.range`, weaponClass, log);
  if (log.count > before || weaponClass === undefined || rof === null || capacity === null) return null;

  /** @type {Record<string, unknown>} */
  const stats = { class: weaponClass, rof, capacity, ...reliabilityOf(system.craftsmanship, specials, loads, settings) };
  if (range !== null) stats.range = range;
  Object.assign(stats, damageOf(system, loads), blastOf(specials));
  return {
    system: "d100",
    name,
    stats,
    state: loaded === null ? {} : { loaded },
    source: { kind: "adapter", adapter: GAME_SYSTEM, ref: item._id },
  };
}

/**
 * Whether the system spends ammunition for the weapon (DH2e `usesAmmo`: a reload that is not empty or N/A).
 * @param {Record<string, any>} system
 */
function usesAmmunition(system) {
  return typeof system.reload === "string" && system.reload.trim() !== "" && system.reload.trim().toUpperCase() !== "N/A";
}

/**
 * Rounds one shot takes, as DH2e counts them: Overcharge 2 or Overload 4, doubled by Twin-Linked,
 * tripled by Maximal.
 * @param {Quality[]} qualities
 */
function roundsPerShot(qualities) {
  const has = (/** @type {string} */ name) => qualities.some((quality) => quality.name === name);
  let rounds = has("overcharge") ? 2 : has("overload") ? 4 : 1;
  if (has("twin-linked") || has("twin linked") || has("twinlinked")) rounds *= 2;
  if (has("maximal")) rounds *= 3;
  return rounds;
}

/**
 * DH2e's {single, burst, full} as the book's "S/3/-" (single shots only with Hot-Shot packs loaded).
 * @param {unknown} value
 * @param {string} field
 * @param {boolean} singleOnly
 * @param {ProblemLog} log
 */
function readRateOfFire(value, field, singleOnly, log) {
  if (!isRecord(value)) {
    log.add(field, "field.missing", { what: "the rate of fire" });
    return null;
  }
  const what = "a rate of fire";
  // The compendium writes -1 for "none" (Wailing Trident): anything below 1 is no such mode.
  const single = readInteger(log, `${field}.single`, value.single ?? 0, { what, min: -1, max: 100 });
  const burst = readInteger(log, `${field}.burst`, value.burst ?? 0, { what, min: -1, max: 100 });
  const full = readInteger(log, `${field}.full`, value.full ?? 0, { what, min: -1, max: 100 });
  if (single === null || burst === null || full === null) return null;
  if (singleOnly) return "S/-/-";
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
      const level = entry.system.hasLevel ? levelOf(entry.system.level, `${path}.system.level`, entry.name, log) : null;
      qualities.push({ name: entry.name.trim().toLowerCase(), level, path });
    });
  } else if (isRecord(item.system.special)) {
    for (const [key, value] of Object.entries(item.system.special)) {
      if (value === false || value === null || value === undefined) continue;
      const path = `items.${item._id}.system.special.${key}`;
      const level = levelOf(value, path, key, log);
      qualities.push({ name: key.replace(/-/g, " ").trim().toLowerCase(), level, path });
    }
  }
  return { qualities, ammunition };
}

/**
 * A quality's level: a number, or null for `true` (the quality with no number, as the system copies a
 * `special` flag into a levelled quality).
 * @param {unknown} value
 * @param {string} field
 * @param {string} name
 * @param {ProblemLog} log
 * @returns {number | null}
 */
function levelOf(value, field, name, log) {
  if (value === true) return null;
  return readInteger(log, field, value, { what: `the level of ${name}`, min: 0, max: 1000 });
}

/**
 * The reliability sources the d100 rules sum (and `jam_at` for a weapon that never jams).
 * @param {unknown} craftsmanship
 * @param {{qualities: Quality[]}} read
 * @param {{dropsReliable?: boolean}[]} loads what the loaded ammunition does
 * @param {typeof DARK_HERESY_DEFAULTS} settings
 * @returns {{reliability: (string | number)[], jam_at?: number}}
 */
function reliabilityOf(craftsmanship, { qualities }, loads, settings) {
  const hotShot = loads.some((effect) => effect.dropsReliable);
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
 * the card counts hits while DH2e's own damage roll does the rest. The loaded ammunition's bonuses are
 * added as DH2e adds them to every hit (Hot-Shot packs: +1 damage, +4 penetration).
 * @param {Record<string, any>} system
 * @param {{damage?: number, pen?: number}[]} loads what the loaded ammunition does
 * @returns {{damage?: string, pen?: number, damage_type?: string}}
 */
function damageOf(system, loads) {
  const damageType = typeof system.damageType === "string" ? DAMAGE_TYPES.get(system.damageType.trim().toLowerCase()) : undefined;
  const pen = system.penetration === "" || system.penetration === undefined ? 0 : integerOf(system.penetration);
  const match = typeof system.damage === "string" ? DAMAGE.exec(system.damage) : null;
  if (match === null || damageType === undefined || pen === null || pen < 0) return {};
  const bonus = loads.reduce((sum, effect) => sum + (effect.damage ?? 0), (match[3] === "-" ? -1 : 1) * Number(match[4] ?? 0));
  const damage = `${Number(match[1])}d${Number(match[2])}${bonus > 0 ? `+${bonus}` : bonus < 0 ? String(bonus) : ""}`;
  return { damage, pen: loads.reduce((sum, effect) => sum + (effect.pen ?? 0), pen), damage_type: damageType };
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
 * The weapon's clip after the action, as DH2e's own `useAmmo` writes it: in rounds, each shot Volley
 * spent taking the rounds a shot takes; a reload to the full clip in shots fills it to `clip.max`.
 * Nothing for a weapon DH2e spends no ammunition for, or when the shots loaded did not change.
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
  if (item === undefined || !isRecord(item.system) || !usesAmmunition(item.system)) return [];
  const max = integerOf(item.system.clip?.max);
  const value = integerOf(item.system.clip?.value);
  if (max === null || max < 1) return [];
  const perShot = roundsPerShot(readQualities(item, new ProblemLog()).qualities);
  const capacity = Math.floor(max / perShot);
  const shotsNow = value === null ? capacity : Math.floor(value / perShot);
  if (loaded === shotsNow && value !== null) return [];
  const rounds = loaded >= capacity ? max : Math.max(0, Math.min(max, (value ?? max) - (shotsNow - loaded) * perShot));
  return [{ documentName: "Item", id: ref, changes: { "system.clip.value": rounds } }];
}
