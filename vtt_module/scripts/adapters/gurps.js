/**
 * GURPS Game Aid (game system id `gurps`, crnormand/gurps) for Volley's GURPS rules.
 *
 * Read from the system's own code at version 0.18.22 (commit ac714d44d6b93fd989bdeb6870c736fb04645ec4):
 * `template.json` and `module/actor/actor-components.js` (class `Ranged`), `module/actor/actor.js`
 * (`calculateDerivedValues`), `module/actor/actor-importer.js` (`importCombatFromGCS`, `importEq`),
 * `module/chat/chat-processors.js` (`/uses`) and `lib/utilities.js` (`recurselist`).
 *
 * How GGA keeps a character:
 * - Ranged attacks live on the actor in `system.ranged`, an object keyed by zero-filled indices
 *   ("00000", "00001"...; nested entries under `.contains.` or `.collapsed.`). Each attack holds text
 *   fields as imported from GCS/GCA: `name`, `mode` ("Buckshot", "Slug"...), `rof` ("3", "13", "3x9"),
 *   `rcl` ("2"), `shots` ("30+1(3)"), `notes`, and `level`: the effective skill GGA has computed for it
 *   (`import` plus item bonuses and attribute effects) during data preparation. So the glue must pass
 *   the prepared data, `actor.toObject(false)`; the stored source may hold a stale level.
 * - GGA has no Malf field. Volley reads "Malf 16" (or "Malf. 16") from the attack's notes, else the
 *   Basic Set's usual 17 (B407), the same default the rules use.
 * - GGA does not count rounds in a weapon. Its way of tracking a limited supply is the equipment's
 *   Uses / Max Uses (`system.equipment.carried.<key>.uses`, changed by the `/uses` chat command). When
 *   the piece of equipment named like the attack has a Max Uses equal to its magazine (with or without
 *   the chambered round), Volley reads and writes the rounds loaded there. Otherwise the rounds loaded
 *   stay in Volley's flags, as do jams and malfunctions, for which GGA has no field either.
 *
 * Readings (named, overridable through `gurpsAdapter(options)`):
 * - `chamberInCapacity` (true): "30+1(3)" holds 31 rounds when full: the magazine and one in the
 *   chamber. A Volley reload fills the weapon to that capacity.
 * - `malf` (17): the malfunction number when the notes give none.
 * - A RoF marked full-auto only ("20!", High-Tech) reads as its number; the minimum burst such a weapon
 *   must fire is left to the player. A weapon's Rcl of "-" is read as 1 only for a single projectile,
 *   where recoil cannot change the hits.
 * - A weapon's id is its imported name (and mode), so it survives a rename of the attack and the jam state
 *   Volley keeps for it stays with it.
 *
 * Pure: plain actor data in, plain data out.
 */

import { ProblemLog, integerOf, isRecord, quoted, readInteger, uniqueId, loadedOf } from "./reading.js";

/**
 * @typedef {import("../profile/types.js").VolleyWeapon} VolleyWeapon
 * @typedef {import("../profile/types.js").WeaponState} WeaponState
 * @typedef {import("../profile/types.js").CharacterNumbers} CharacterNumbers
 * @typedef {import("../profile/types.js").DocumentWrite} DocumentWrite
 * @typedef {import("../profile/types.js").GameSystemAdapter} GameSystemAdapter
 * @typedef {import("./reading.js").Problem} Problem
 */

/** The `game.system.id` of GURPS Game Aid. */
export const GAME_SYSTEM = "gurps";

/** The version of GURPS Game Aid this adapter was written against. */
export const READ_FROM = "crnormand/gurps 0.18.22 (ac714d44d6b93fd989bdeb6870c736fb04645ec4)";

/** Volley's readings where GGA's data is silent; see the header. */
export const GURPS_DEFAULTS = Object.freeze({
  /** A full "30+1" weapon holds 31: the magazine and the chambered round. */
  chamberInCapacity: true,
  /** Basic Set B407: firearms malfunction on 17+ unless their notes say otherwise. */
  malf: 17,
});

/** GURPS RoF: shots, or shots x pellets for a shotgun (B409); "!" marks full-auto-only (High-Tech). */
const ROF = /^\s*(\d{1,4})\s*(?:[x×X*]\s*(\d{1,3}))?\s*!?\s*$/;
/** GURPS Shots: rounds, "+N" chambered, an optional belt "B", then the reload time "(3)" or "(3i)". */
const SHOTS = /^\s*(\d{1,5})\s*(?:\+\s*(\d{1,2}))?\s*[Bb]?\s*(?:\(\s*\d{1,3}\s*i?\s*\))?\s*$/;
/** "Malf 16", "Malf. 16", "Malf: 16+" in an attack's notes. */
const MALF_NOTE = /\bmalf\.?\s*:?\s*(\d{1,2})(\+?)/i;
/** A Rcl of "-" (bows, single-shot weapons): it cannot matter when only one projectile flies. */
const NO_RECOIL = /^\s*[-\u2013\u2014]?\s*$/;
/** GGA's skill names for Armoury (either spelling), for clearing jams. */
const ARMOURY = /^\s*armou?ry\b/i;

/**
 * The GURPS Game Aid adapter.
 * @param {Partial<typeof GURPS_DEFAULTS>} [options]
 * @returns {GameSystemAdapter}
 */
export function gurpsAdapter(options = {}) {
  const settings = { ...GURPS_DEFAULTS, ...options };
  return {
    gameSystem: GAME_SYSTEM,
    ruleSystem: "gurps",
    readActor(actor) {
      const { character, weapons, problems } = readGurpsActor(actor, settings);
      return { character, weapons, problems };
    },
    writeState(actor, weapon, state) {
      return writeGurpsState(actor, weapon, state, settings);
    },
  };
}

/**
 * @typedef {object} Reading
 * @property {CharacterNumbers} character
 * @property {VolleyWeapon[]} weapons
 * @property {Problem[]} problems
 * @property {Map<string, string>} ammo  weapon id -> path of the equipment whose Uses are its rounds
 */

/**
 * Everything Volley can use from a GGA actor.
 * @param {Record<string, any>} actor the actor's prepared data (`actor.toObject(false)`)
 * @param {typeof GURPS_DEFAULTS} settings
 * @returns {Reading}
 */
function readGurpsActor(actor, settings) {
  const log = new ProblemLog();
  /** @type {Reading} */
  const reading = { character: {}, weapons: [], problems: log.problems, ammo: new Map() };
  if (!isRecord(actor) || !isRecord(actor.system)) {
    log.add("system", "actor.invalid");
    return reading;
  }
  const system = actor.system;
  const armoury = readArmoury(system.skills, log);
  reading.character = { gurps: armoury === undefined ? {} : { armoury } };

  if (system.ranged !== undefined && !isRecord(system.ranged)) {
    log.add("system.ranged", "field.missing", { what: "the list of ranged attacks" });
    return reading;
  }
  const trackers = equipmentWithUses(system.equipment);
  const ids = new Set();
  for (const [path, attack] of entries(system.ranged, "system.ranged")) {
    const before = log.count;
    const weapon = readAttack(attack, path, settings, log);
    if (weapon === null) continue;
    const ammo = findAmmo(attack, path, weapon.stats, trackers, log);
    if (log.count > before) continue;
    const id = uniqueId(ids, `gurps:${weapon.stableName}`);
    /** @type {VolleyWeapon} */
    const volleyWeapon = {
      id,
      system: "gurps",
      name: weapon.name,
      stats: weapon.stats,
      state: ammo === null ? {} : { loaded: ammo.uses },
      skill: weapon.level,
      source: { kind: "adapter", adapter: GAME_SYSTEM, ref: path },
    };
    if (ammo !== null) reading.ammo.set(id, ammo.path);
    reading.weapons.push(volleyWeapon);
  }
  return reading;
}

/**
 * Every entry of a GGA list with its path, depth first, as GGA's own `recurselist` walks it.
 * @param {unknown} list
 * @param {string} prefix
 * @returns {Generator<[string, Record<string, any>]>}
 */
function* entries(list, prefix) {
  if (!isRecord(list)) return;
  for (const [key, value] of Object.entries(list)) {
    if (!isRecord(value)) continue;
    const path = `${prefix}.${key}`;
    yield [path, value];
    yield* entries(value.contains, `${path}.contains`);
    yield* entries(value.collapsed, `${path}.collapsed`);
  }
}

/**
 * One ranged attack as Volley's GURPS weapon, or null (with problems logged) when a field is unusable.
 * @param {Record<string, any>} attack
 * @param {string} path
 * @param {typeof GURPS_DEFAULTS} settings
 * @param {ProblemLog} log
 */
function readAttack(attack, path, settings, log) {
  const before = log.count;
  const baseName = typeof attack.name === "string" ? attack.name.trim() : "";
  if (baseName === "") log.add(`${path}.name`, "field.missing", { what: "the attack's name" });
  const mode = typeof attack.mode === "string" ? attack.mode.trim() : "";
  const name = mode === "" ? baseName : `${baseName} (${mode})`;

  const rof = readRof(attack.rof, `${path}.rof`, log);
  const projectiles = rof === null ? 1 : typeof rof === "number" ? rof : rof.split("x").map(Number).reduce((a, b) => a * b, 1);
  const rcl = readRcl(attack.rcl, `${path}.rcl`, projectiles, log);
  const magazine = readShots(attack.shots, `${path}.shots`, log);
  const malf = readMalf(attack.notes, `${path}.notes`, settings.malf, log);
  const level = readInteger(log, `${path}.level`, attack.level, { what: "the effective skill GGA computed", min: -50, max: 100 });
  if (log.count > before || rof === null || rcl === null || magazine === null || malf === null || level === null) return null;

  const capacity = magazine.rounds + (settings.chamberInCapacity ? magazine.chambered : 0);
  const imported = typeof attack.originalName === "string" && attack.originalName.trim() !== "" ? attack.originalName.trim() : baseName;
  const stableName = mode === "" ? imported : `${imported} (${mode})`;
  return { name, stableName, level, stats: { rof, rcl, capacity, malf }, magazine };
}

/**
 * @param {unknown} value
 * @param {string} field
 * @param {ProblemLog} log
 * @returns {number | string | null} Volley's notation: a number, or "3x9"
 */
function readRof(value, field, log) {
  const text = typeof value === "number" ? String(value) : value;
  const match = typeof text === "string" ? ROF.exec(text) : null;
  if (match === null || Number(match[1]) < 1 || (match[2] !== undefined && Number(match[2]) < 1)) {
    log.add(field, "gurps.rof.invalid", { value: quoted(value) });
    return null;
  }
  return match[2] === undefined ? Number(match[1]) : `${Number(match[1])}x${Number(match[2])}`;
}

/**
 * Recoil; "-" is read as 1 only where it cannot change anything: a single projectile (B373).
 * @param {unknown} value
 * @param {string} field
 * @param {number} projectiles
 * @param {ProblemLog} log
 */
function readRcl(value, field, projectiles, log) {
  if (projectiles === 1 && (value === undefined || (typeof value === "string" && NO_RECOIL.test(value)))) return 1;
  const rcl = integerOf(value);
  if (rcl === null || rcl < 1) {
    log.add(field, "gurps.rcl.invalid", { value: quoted(value) });
    return null;
  }
  return rcl;
}

/**
 * @param {unknown} value
 * @param {string} field
 * @param {ProblemLog} log
 * @returns {{rounds: number, chambered: number} | null}
 */
function readShots(value, field, log) {
  const text = typeof value === "number" ? String(value) : value;
  const match = typeof text === "string" ? SHOTS.exec(text) : null;
  if (match === null || Number(match[1]) < 1) {
    log.add(field, "gurps.shots.invalid", { value: quoted(value) });
    return null;
  }
  return { rounds: Number(match[1]), chambered: match[2] === undefined ? 0 : Number(match[2]) };
}

/**
 * @param {unknown} notes
 * @param {string} field
 * @param {number} fallback
 * @param {ProblemLog} log
 */
function readMalf(notes, field, fallback, log) {
  const match = typeof notes === "string" ? MALF_NOTE.exec(notes) : null;
  if (match === null) return fallback;
  const malf = Number(match[1]);
  if (match[2] === "+" || malf < 3 || malf > 19) {
    log.add(field, "gurps.malf.invalid", { value: quoted(match[0]) });
    return null;
  }
  return malf;
}

/**
 * @typedef {{path: string, keys: Set<string>, uses: unknown, maxuses: number}} Tracker
 */

/**
 * Equipment whose Max Uses is set: the pieces that can count a weapon's rounds. Carried first.
 * @param {unknown} equipment
 * @returns {Tracker[]}
 */
function equipmentWithUses(equipment) {
  if (!isRecord(equipment)) return [];
  /** @type {Tracker[]} */
  const trackers = [];
  for (const where of ["carried", "other"]) {
    for (const [path, item] of entries(equipment[where], `system.equipment.${where}`)) {
      const maxuses = integerOf(item.maxuses);
      if (maxuses === null || maxuses < 1) continue;
      trackers.push({ path, keys: namesOf(item), uses: item.uses, maxuses });
    }
  }
  return trackers;
}

/**
 * The names an entry answers to: its name and the name it was imported with.
 * @param {Record<string, any>} entry
 */
function namesOf(entry) {
  const keys = new Set();
  for (const name of [entry.name, entry.originalName]) {
    if (typeof name === "string" && name.trim() !== "") keys.add(name.trim().toLowerCase());
  }
  return keys;
}

/**
 * The equipment that counts this attack's rounds, if any; logs a problem when it cannot be told.
 * @param {Record<string, any>} attack
 * @param {string} path
 * @param {{capacity: number}} stats
 * @param {Tracker[]} trackers
 * @param {ProblemLog} log
 * @returns {{path: string, uses: number} | null}
 */
function findAmmo(attack, path, stats, trackers, log) {
  const names = namesOf(attack);
  const matching = trackers.filter((t) => [...t.keys].some((key) => names.has(key)));
  if (matching.length === 0) return null;
  const name = quoted(typeof attack.name === "string" ? attack.name : "");
  if (matching.length > 1) {
    log.add(`${path}.name`, "gurps.ammo.ambiguous", { count: matching.length, name });
    return null;
  }
  const tracker = matching[0];
  const shots = SHOTS.exec(String(attack.shots));
  const magazine = shots === null ? stats.capacity : Number(shots[1]);
  const full = magazine + (shots?.[2] === undefined ? 0 : Number(shots[2]));
  if (tracker.maxuses !== magazine && tracker.maxuses !== full) {
    log.add(`${tracker.path}.maxuses`, "gurps.ammo.mismatch", { maxuses: tracker.maxuses, magazine, full, name });
    return null;
  }
  const uses = readInteger(log, `${tracker.path}.uses`, tracker.uses, { what: "rounds loaded", min: 0, max: 1e6 });
  if (uses === null) return null;
  if (uses > stats.capacity) {
    log.add(`${tracker.path}.uses`, "gurps.ammo.over", { uses, name, capacity: stats.capacity });
    return null;
  }
  return { path: tracker.path, uses };
}

/**
 * The character's Armoury level, for clearing jams (B407): Armoury (Small Arms) when it has it.
 * A skill whose level cannot be read is reported and left out.
 * @param {unknown} skills
 * @param {ProblemLog} log
 * @returns {number | undefined}
 */
function readArmoury(skills, log) {
  const found = [...entries(skills, "system.skills")].filter(([, skill]) => typeof skill.name === "string" && ARMOURY.test(skill.name));
  found.sort(([, a], [, b]) => Number(/small\s*arms/i.test(b.name)) - Number(/small\s*arms/i.test(a.name)));
  if (found.length === 0) return undefined;
  const [path, skill] = found[0];
  return readInteger(log, `${path}.level`, skill.level, { what: "the Armoury skill level", min: -50, max: 100 }) ?? undefined;
}

/**
 * The Actor update that stores the rounds left in the equipment's Uses, when GGA counts them.
 * @param {Record<string, any>} actor
 * @param {VolleyWeapon} weapon
 * @param {WeaponState} state
 * @param {typeof GURPS_DEFAULTS} settings
 * @returns {DocumentWrite[]}
 */
function writeGurpsState(actor, weapon, state, settings) {
  const loaded = loadedOf(state);
  if (loaded === undefined) return [];
  const path = readGurpsActor(actor, settings).ammo.get(weapon.id);
  if (path === undefined) return [];
  if (typeof actor._id !== "string") throw new TypeError("actor._id: the actor's data has no id to update");
  return [{ documentName: "Actor", id: actor._id, changes: { [`${path}.uses`]: loaded } }];
}
