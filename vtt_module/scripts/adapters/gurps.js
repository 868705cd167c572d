/**
 * GURPS Game Aid (game system id `gurps`, crnormand/gurps) for Volley's GURPS rules.
 *
 * Read from the system's own code at version 0.18.22 (tag v0.18.22, commit dc9fa3695c3d9d4633fa418a1dbac3ad3630f02f):
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
 * - GGA has no Malf field. GCS 5 libraries write "Malf 16." in the *equipment's* notes (`local_notes`),
 *   which GGA's importer copies to the equipment (`importEq`, `_resolveNotes`); the attack's notes come
 *   from the GCS item's old `notes` field, which GCS 5 leaves empty. Volley reads "Malf 16" (or
 *   "Malf. 16", or "Malfunctions on 16+" as High Tech Pulp Guns writes it) from the attack's notes
 *   first, then from the notes of the equipment named like the attack, else the Basic Set's usual 17
 *   (B407), the same default the rules use.
 * - Rcl as GCS writes it: a number, or "1/4" for a shotgun (pellets / slug). As GGA's development branch
 *   (1.0, `parseRecoil`) reads it: the first number when the attack fires several projectiles ("3x9"),
 *   the second otherwise (a row whose RoF the referee set to "3" to fire slugs).
 * - RoF with two modes ("9/13!", "2x9/3x9"): the higher one is read; GURPS lets a shooter fire fewer
 *   shots than the RoF, and Volley's dialog asks how many. "Jet" (flamethrowers) is refused: not rapid
 *   fire. Shots "T" (thrown) are refused; shots "5x2s" (a beam firing 5 shots of 2 seconds) read as 5.
 * - GCS writes a grenade's or a Molotov's Shots as "1" (not "T"), with no Rcl and a range that is a
 *   multiple of ST ("x3.5"): such a row is refused as thrown (the Throwing skill, B356), and so is one
 *   with Shots "1" and no Rcl named like a grenade (`grenadeWords`: a character's row, where GGA shows
 *   the range in yards).
 * - An attack with a RoF and no Shots that no piece of equipment is named like (an Innate Attack, a
 *   dragon's breath: GCS keeps them as traits) has no magazine: it fires, with its RoF always ready,
 *   and nothing is written back.
 * - Muscle-powered weapons and innate attacks do not malfunction (B407 is the firearms' rule): Malf is
 *   `noMalf` (19, which no 3d6 reaches) for them unless their notes give one. A row with no Rcl is
 *   muscle-powered when its range is a multiple of ST ("x15/x20") or its name is a bow's, crossbow's,
 *   sling's... (`muscleWords`; GGA does not import the GCS skill the weapon defaults to).
 * - With GGA's "Use Foundry Items" setting on (`use-foundry-items`), each piece of equipment is also an
 *   Item (`system.equipment….itemid`, the Item's `system.eqt`), and the sheet's Uses buttons and every
 *   edit copy the Item's `system.eqt` over the actor's entry (`_updateItemFromForm`). Volley then reads
 *   the rounds from the Item and writes them to both places, so the sheet shows Volley's count and its
 *   next edit copies the same count back. With the setting off Volley writes the actor's entry (and the
 *   linked Item too, when there is one, so the two never disagree).
 * - GGA 1.0 (its development branch) keeps ranged attacks on Items (`system.actions`, type
 *   `rangedAttack`, with structured RoF, Shots and Rcl). This adapter reads 0.18: such attacks are
 *   refused by name, and the version notice says the installed GGA is outside what it reads.
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
 * - A weapon's id is made from its imported name (and mode), so it survives a rename of the attack and the
 *   jam state Volley keeps for it stays with it; the rows of one name (its fire modes, a shotgun's
 *   buckshot and slug) share one magazine (./identity.js).
 *
 * Pure: plain actor data in, plain data out.
 */

import { GurpsIdentities } from "./identity.js";
import { ProblemLog, integerOf, isRecord, itemsOf, quoted, readInteger, supportedText, loadedOf } from "./reading.js";

/**
 * @typedef {import("../profile/types.js").VolleyWeapon} VolleyWeapon
 * @typedef {import("../profile/types.js").WeaponState} WeaponState
 * @typedef {import("../profile/types.js").CharacterNumbers} CharacterNumbers
 * @typedef {import("../profile/types.js").DocumentWrite} DocumentWrite
 * @typedef {import("../profile/types.js").GameSystemAdapter} GameSystemAdapter
 * @typedef {import("./reading.js").Problem} Problem
 * @typedef {import("./reading.js").Refusal} Refusal
 */

/** The `game.system.id` of GURPS Game Aid. */
export const GAME_SYSTEM = "gurps";

/** The version of GURPS Game Aid this adapter was written against. */
export const READ_FROM = "crnormand/gurps 0.18.22 (dc9fa3695c3d9d4633fa418a1dbac3ad3630f02f)";

/**
 * The GGA versions this adapter reads: 0.18.x, whose actor keeps ranged attacks in `system.ranged`; on
 * Foundry 13 and 14 (0.18.22's system.json: compatibility minimum 13, maximum 14, verified 14.366).
 */
export const SUPPORTED_VERSIONS = Object.freeze({ system: "GURPS Game Aid", min: "0.18.0", below: "1.0.0", tested: "0.18.22", foundry: Object.freeze({ min: 13, max: 14 }) });

/** Volley's readings where GGA's data is silent; see the header. */
export const GURPS_DEFAULTS = Object.freeze({
  /** A full "30+1" weapon holds 31: the magazine and the chambered round. */
  chamberInCapacity: true,
  /** Basic Set B407: firearms malfunction on 17+ unless their notes say otherwise. */
  malf: 17,
  /** The Malf of a weapon that does not malfunction (B407 is the firearms' rule: a bow, a sling, an
   * innate attack): one no 3d6 roll reaches, as the rules read 19 or more. The notes' Malf still wins. */
  noMalf: 19,
  /** Names of muscle-powered launchers, for a row with no Rcl whose range GGA shows in yards (an
   * imported character's "240/320"); a range written as a multiple of ST ("x15/x20") says it alone. */
  muscleWords:
    /\b(?:\w*bows?|slings?|slingshots?|blow ?pipes?|blowguns?|atlatls?|spear[- ]?throwers?|woomeras?|prodds?|arbalests?|gastraphetes|spear ?guns?|spring ?guns?|ballistae?|ballistas|cheiroballistrae?|scorpions?|onagers?|catapults?)\b/i,
  /** Names of things thrown that GCS keeps as a trait's attack with no Shots and no Rcl (a giant's
   * "Natural Attacks (Boulder)"): thrown, not an innate attack. */
  thrownWords: /\b(?:boulders?|rocks?|stones?|thrown|throwing)\b/i,
  /** Names of things thrown with the Throwing skill that GCS writes with Shots "1" (not "T"). */
  grenadeWords: /\b(?:grenades?|molotovs?|cocktails?|dynamite|bombs?|petards?|satchel charges?|fire ?pots?)\b/i,
  /** GGA's "Use Foundry Items" world setting (`game.settings.get("gurps", "use-foundry-items")`). */
  useFoundryItems: false,
});

/** GURPS RoF: shots, or shots x pellets for a shotgun (B409); "!" full-auto only, "#" high-cyclic bursts. */
const ROF = /^\s*(\d{1,4})\s*(?:[x×X*]\s*(\d{1,3}))?\s*[!#]?\s*$/;
/** A RoF that is a jet or a stream (flamethrowers, water cannon). */
const JET = /^\s*jet\s*$/i;
/** GURPS Shots: rounds, "+N" chambered, a beam's duration "x2s", an optional belt "B", then the reload time "(3)" or "(3i)". */
const SHOTS = /^\s*(\d{1,5})\s*(?:\+\s*(\d{1,2}))?\s*(?:[x×]\s*\d{1,4}\s*s)?\s*[Bb]?\s*(?:\(\s*\d{1,3}\s*i?\s*\))?\s*$/;
/** Shots of a thrown weapon: "T", "T(1)". */
const THROWN_SHOTS = /^\s*T\b/i;
/** A shotgun's recoil: pellets / slug ("1/4"). */
const SHOTGUN_RCL = /^\s*(\d{1,2})\s*\/\s*(\d{1,2})\s*$/;
/** "Malf 16", "Malf. 16", "Malf: 16+" in an attack's notes; or the sentence "malfunctions on 16+" (GCS's
 * High Tech Pulp Guns), where "+" means "or more": Malf 16. */
const MALF_NOTE = /\bmalf\.?\s*:?\s*(\d{1,2})(\+?)|\bmalfunctions?\s+on\s+(?:an?\s+)?(\d{1,2})\+/i;
/** A range GCS writes as a multiple of the wielder's ST ("x15/x20", "x3.5"): a muscle-powered weapon's. */
const ST_RANGE = /^\s*[x×]\s*\d/i;
/** Shots "1" with no reload time: what GCS writes for a grenade or a Molotov (a bow says "1(2)"). */
const ONE_SHOT = /^\s*1\s*$/;
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
    supported: SUPPORTED_VERSIONS,
    readActor(actor) {
      const { character, weapons, problems, refused } = readGurpsActor(actor, settings);
      return { character, weapons, problems, refused };
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
 * @property {Refusal[]} refused
 * @property {Map<string, Tracker>} ammo  weapon id -> the equipment whose Uses are its rounds
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
  const reading = { character: {}, weapons: [], problems: log.problems, refused: log.refused, ammo: new Map() };
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
  const items = itemsOf(actor);
  const equipment = allEquipment(system.equipment, items, settings);
  const trackers = /** @type {Tracker[]} */ (equipment.filter((piece) => piece.maxuses !== null && piece.maxuses >= 1));
  const ids = new GurpsIdentities();
  for (const [path, attack] of entries(system.ranged, "system.ranged")) {
    const before = log.count;
    const weapon = readAttack(attack, path, equipment, settings, log);
    if (weapon === null) continue;
    const ammo = findAmmo(attack, path, weapon.stats, trackers, log);
    if (log.count > before) continue;
    const { id, magazine, legacyIds } = ids.next(weapon.imported, weapon.mode);
    /** @type {VolleyWeapon} */
    const volleyWeapon = {
      id,
      magazine,
      legacyIds,
      system: "gurps",
      name: weapon.name,
      stats: weapon.stats,
      // An innate attack is always ready: its "rounds" are the system's to hold, and nothing is written.
      state: ammo !== null ? { loaded: ammo.uses } : weapon.innate ? { loaded: weapon.stats.capacity } : {},
      skill: weapon.level,
      source: { kind: "adapter", adapter: GAME_SYSTEM, ref: path },
    };
    if (ammo !== null) reading.ammo.set(id, ammo.tracker);
    reading.weapons.push(volleyWeapon);
  }
  refuseItemAttacks(items, log);
  return reading;
}

/**
 * GGA 1.0 keeps ranged attacks on Items (`system.actions`, type `rangedAttack`): refused by name here,
 * so a table that upgraded sees why its guns are missing.
 * @param {Record<string, any>[]} items
 * @param {ProblemLog} log
 */
function refuseItemAttacks(items, log) {
  for (const item of items) {
    const actions = item.system?.actions;
    if (!isRecord(actions)) continue;
    for (const [key, action] of Object.entries(actions)) {
      if (!isRecord(action) || action.type !== "rangedAttack") continue;
      const name = [item.name, action.name].find((text) => typeof text === "string" && text.trim() !== "") ?? key;
      log.refuse(`items.${item._id}.system.actions.${key}`, String(name), "refused.item_attack", { supported: supportedText(SUPPORTED_VERSIONS) });
    }
  }
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
 * One ranged attack as Volley's GURPS weapon, or null (refused, or with problems logged when a field is
 * unusable).
 * @param {Record<string, any>} attack
 * @param {string} path
 * @param {Equipment[]} equipment
 * @param {typeof GURPS_DEFAULTS} settings
 * @param {ProblemLog} log
 */
function readAttack(attack, path, equipment, settings, log) {
  const before = log.count;
  const baseName = typeof attack.name === "string" ? attack.name.trim() : "";
  if (baseName === "") log.add(`${path}.name`, "field.missing", { what: "the attack's name" });
  const mode = typeof attack.mode === "string" ? attack.mode.trim() : "";
  const name = mode === "" ? baseName : `${baseName} (${mode})`;
  if (typeof attack.rof === "string" && JET.test(attack.rof)) {
    log.refuse(path, name, "refused.jet", { value: quoted(attack.rof) });
    return null;
  }
  if (typeof attack.shots === "string" && THROWN_SHOTS.test(attack.shots)) {
    log.refuse(path, name, "refused.thrown");
    return null;
  }
  if (isBlank(attack.rof) && isBlank(attack.shots)) {
    // A GCS row with neither (a thrown potion, a launcher's second attack): nothing to fire.
    log.refuse(path, name, "refused.no_rof");
    return null;
  }
  const noRecoil = isBlank(attack.rcl) || (typeof attack.rcl === "string" && NO_RECOIL.test(attack.rcl));
  const stRange = typeof attack.range === "string" && ST_RANGE.test(attack.range);
  if (noRecoil && typeof attack.shots === "string" && ONE_SHOT.test(attack.shots) && (stRange || settings.grenadeWords.test(name))) {
    // GCS writes a grenade's or a Molotov's Shots as "1" with a Throwing default: thrown, not fired.
    log.refuse(path, name, "refused.grenade");
    return null;
  }

  const rof = readRof(attack.rof, `${path}.rof`, log);
  const pellets = typeof rof === "string";
  const projectiles = rof === null ? 1 : typeof rof === "number" ? rof : rof.split("x").map(Number).reduce((a, b) => a * b, 1);
  const rcl = readRcl(attack.rcl, `${path}.rcl`, projectiles, pellets, log);
  // An attack with a RoF and no Shots that no piece of equipment is named like is something the
  // character is, not carries (an Innate Attack, a dragon's breath): no magazine, always ready.
  const carried = equipment.some((piece) => [...namesOf(attack)].some((key) => piece.keys.has(key)));
  if (isBlank(attack.shots) && noRecoil && !carried && settings.thrownWords.test(name)) {
    log.refuse(path, name, "refused.thrown");
    return null;
  }
  const innate = isBlank(attack.shots) && !carried;
  const shots = rof === null ? 1 : typeof rof === "number" ? rof : Number(rof.split("x")[0]);
  const magazine = innate ? { rounds: shots, chambered: 0 } : readShots(attack.shots, `${path}.shots`, log);
  const muscle = noRecoil && (stRange || settings.muscleWords.test(name));
  const malf = readMalf(attack, path, equipment, innate || muscle ? settings.noMalf : settings.malf, log);
  const level = readInteger(log, `${path}.level`, attack.level, { what: "the effective skill GGA computed", min: -50, max: 100 });
  if (log.count > before || rof === null || rcl === null || magazine === null || malf === null || level === null) return null;

  const capacity = magazine.rounds + (settings.chamberInCapacity ? magazine.chambered : 0);
  const imported = typeof attack.originalName === "string" && attack.originalName.trim() !== "" ? attack.originalName.trim() : baseName;
  return { name, imported, mode, level, innate, stats: { rof, rcl, capacity, malf }, magazine };
}

/** @param {unknown} value */
function isBlank(value) {
  return value === undefined || value === null || (typeof value === "string" && value.trim() === "");
}

/**
 * @param {unknown} value
 * @param {string} field
 * @param {ProblemLog} log
 * @returns {number | string | null} Volley's notation: a number, or "3x9"; of two modes ("9/13!") the higher
 */
function readRof(value, field, log) {
  const text = typeof value === "number" ? String(value) : value;
  const modes = typeof text === "string" ? text.split("/").map((mode) => ROF.exec(mode)) : [null];
  if (modes.length > 2 || modes.some((match) => match === null || Number(match[1]) < 1 || (match[2] !== undefined && Number(match[2]) < 1))) {
    log.add(field, "gurps.rof.invalid", { value: quoted(value) });
    return null;
  }
  const read = modes.map((match) => {
    const shots = Number(/** @type {RegExpExecArray} */ (match)[1]);
    const pellets = /** @type {RegExpExecArray} */ (match)[2];
    return { shots, pellets: pellets === undefined ? 1 : Number(pellets), text: pellets === undefined ? shots : `${shots}x${Number(pellets)}` };
  });
  read.sort((a, b) => b.shots * b.pellets - a.shots * a.pellets);
  return read[0].text;
}

/**
 * Recoil; "-" is read as 1 only where it cannot change anything: a single projectile (B373). A shotgun's
 * "1/4" is the pellets' recoil when the attack fires pellets, the slug's otherwise.
 * @param {unknown} value
 * @param {string} field
 * @param {number} projectiles
 * @param {boolean} pellets the RoF has a pellet count ("3x9")
 * @param {ProblemLog} log
 */
function readRcl(value, field, projectiles, pellets, log) {
  if (projectiles === 1 && (value === undefined || (typeof value === "string" && NO_RECOIL.test(value)))) return 1;
  const shotgun = typeof value === "string" ? SHOTGUN_RCL.exec(value) : null;
  const rcl = shotgun === null ? integerOf(value) : Number(shotgun[pellets ? 1 : 2]);
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
 * Malf from the attack's notes, else from the notes of the equipment named like it (where GCS 5 puts it).
 * @param {Record<string, any>} attack
 * @param {string} path the attack's path
 * @param {Equipment[]} equipment
 * @param {number} fallback
 * @param {ProblemLog} log
 */
function readMalf(attack, path, equipment, fallback, log) {
  let field = `${path}.notes`;
  let match = typeof attack.notes === "string" ? MALF_NOTE.exec(attack.notes) : null;
  if (match === null) {
    const names = namesOf(attack);
    for (const piece of equipment) {
      if (![...piece.keys].some((key) => names.has(key))) continue;
      match = MALF_NOTE.exec(piece.notes);
      if (match !== null) {
        field = piece.notesField;
        break;
      }
    }
  }
  if (match === null) return fallback;
  // "Malf 17+" is High-Tech's very reliable notation (not modelled); "malfunctions on 16+" is Malf 16.
  const sentence = match[3] !== undefined;
  const malf = Number(sentence ? match[3] : match[1]);
  if ((!sentence && match[2] === "+") || malf < 3 || malf > 19) {
    log.add(field, "gurps.malf.invalid", { value: quoted(match[0]) });
    return null;
  }
  return malf;
}

/**
 * A piece of equipment as Volley reads it: where its Uses are read (the Item's `system.eqt` when GGA
 * uses Foundry Items, else the actor's entry) and every place they are written.
 * @typedef {object} Equipment
 * @property {string} path the actor's entry (`system.equipment.carried.00002`)
 * @property {string | null} itemId the linked Item, when it is among the actor's items
 * @property {Set<string>} keys the names it answers to
 * @property {string} notes
 * @property {string} notesField where the notes were read
 * @property {unknown} uses
 * @property {string} usesField where the Uses were read
 * @property {number | null} maxuses
 * @property {string} maxusesField
 * @typedef {Equipment & {maxuses: number}} Tracker equipment whose Max Uses is set
 */

/**
 * Every piece of equipment, carried first.
 * @param {unknown} equipment
 * @param {Record<string, any>[]} items the actor's items
 * @param {typeof GURPS_DEFAULTS} settings
 * @returns {Equipment[]}
 */
function allEquipment(equipment, items, settings) {
  if (!isRecord(equipment)) return [];
  const byId = new Map(items.map((item) => [item._id, item]));
  /** @type {Equipment[]} */
  const found = [];
  for (const where of ["carried", "other"]) {
    for (const [path, entry] of entries(equipment[where], `system.equipment.${where}`)) {
      const linked = typeof entry.itemid === "string" && entry.itemid !== "" ? byId.get(entry.itemid) : undefined;
      const eqt = linked !== undefined && linked.type === "equipment" && isRecord(linked.system?.eqt) ? linked.system.eqt : null;
      const itemId = eqt === null ? null : /** @type {string} */ (entry.itemid);
      const fromItem = eqt !== null && settings.useFoundryItems;
      const source = fromItem ? eqt : entry;
      const at = fromItem ? `items.${itemId}.system.eqt` : path;
      const notes = [entry.notes, eqt?.notes].find((text) => typeof text === "string" && MALF_NOTE.test(text)) ?? "";
      found.push({
        path,
        itemId,
        keys: namesOf(entry),
        notes,
        notesField: notes === entry.notes ? `${path}.notes` : `items.${itemId}.system.eqt.notes`,
        uses: source.uses,
        usesField: `${at}.uses`,
        maxuses: integerOf(source.maxuses),
        maxusesField: `${at}.maxuses`,
      });
    }
  }
  return found;
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
 * @returns {{tracker: Tracker, uses: number} | null}
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
  const tracker = /** @type {Tracker} */ (matching[0]);
  const shots = SHOTS.exec(String(attack.shots));
  const magazine = shots === null ? stats.capacity : Number(shots[1]);
  const full = magazine + (shots?.[2] === undefined ? 0 : Number(shots[2]));
  if (tracker.maxuses !== magazine && tracker.maxuses !== full) {
    log.add(tracker.maxusesField, "gurps.ammo.mismatch", { maxuses: tracker.maxuses, magazine, full, name });
    return null;
  }
  const uses = readInteger(log, tracker.usesField, tracker.uses, { what: "rounds loaded", min: 0, max: 1e6 });
  if (uses === null) return null;
  if (uses > stats.capacity) {
    log.add(tracker.usesField, "gurps.ammo.over", { uses, name, capacity: stats.capacity });
    return null;
  }
  return { tracker, uses };
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
 * The updates that store the rounds left in the equipment's Uses, when GGA counts them: the actor's
 * entry, and the linked Item's `system.eqt.uses` (where GGA's sheet reads them with "Use Foundry Items"
 * on, and copies them from over the actor's entry on its next edit).
 * @param {Record<string, any>} actor
 * @param {VolleyWeapon} weapon
 * @param {WeaponState} state
 * @param {typeof GURPS_DEFAULTS} settings
 * @returns {DocumentWrite[]}
 */
function writeGurpsState(actor, weapon, state, settings) {
  const loaded = loadedOf(state);
  if (loaded === undefined) return [];
  const tracker = readGurpsActor(actor, settings).ammo.get(weapon.id);
  if (tracker === undefined) return [];
  if (typeof actor._id !== "string") throw new TypeError("actor._id: the actor's data has no id to update");
  /** @type {DocumentWrite[]} */
  const writes = [{ documentName: "Actor", id: actor._id, changes: { [`${tracker.path}.uses`]: loaded } }];
  if (tracker.itemId !== null) writes.push({ documentName: "Item", id: tracker.itemId, changes: { "system.eqt.uses": loaded } });
  return writes;
}
