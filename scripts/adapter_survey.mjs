#!/usr/bin/env node
// Run Volley's game-system adapters over the data the systems themselves ship and over real characters,
// and print, per system: how many weapons read, how many are refused (by reason), how many are left out
// with problems (by field), and how many of the read ones an independent check against the source data
// finds misread.
//
// Not part of CI: the systems' repositories are not in this tree. Point it at git directories (bare or
// not) of the repositories; each is read at the tag the adapter claims, file by file with `git cat-file`
// (a mirror may lack its largest files; those are counted, never guessed).
//
//   node scripts/adapter_survey.mjs --twodsix <git dir> --dh2 <git dir> --gcs <git dir>
//
// - Twodsix (xdy/twodsix-foundryvtt, v7.5.2):
//   - every actor of its actor packs (packs-src/*-actors, ce-light-robots), read under the rule set the
//     pack is written for;
//   - every weapon of its item packs (packs-src/*-items), each on one MegaTraveller traveller (Dexterity
//     8, an untrained skill), under the rule set the pack is written for (Twodsix records the world's
//     rule set in its `ruleset` setting; `RULESETS` in src/module/config.js maps each to its autofire rules).
//   Checked against the source: a lone RoF of 2 or more in a rule set whose autofire rules read it as
//   "Auto N" (CEL or CU autofire rules) must read as automatic fire; a weapon whose damage type only a gun
//   deals (laser, ballistic, plasma) must not be refused as a natural attack.
// - Dark Heresy 2e (mrkeathley/dark-heresy-2nd-vtt, v1.8.1): every weapon of its weapons compendium, on one
//   acolyte, equipped (the compendium ships them unequipped), with `special` turned into nested qualities
//   as the system does when the item is created (`_getAttackSpecials`); then every Las weapon again with
//   the ammunition compendium's Hot-Shot Charge Packs loaded.
//   Checked against the source: a Spray weapon must not be read (DH2e rolls no to-hit for it); a weapon
//   with Hot-Shot packs must read the system's +1 damage and +4 penetration (`rules/ammo.mjs`); Storm is
//   counted (documented: Volley fires it at the listed rate).
// - GURPS (richardwilkes/gcs_master_library, HEAD):
//   - every character file (.gcs) imported as GGA 0.18.22 imports one (`importCombatFromGCS`,
//     `importEquipmentFromGCS` / `importEq`, `importSkillsFromGCS`, `recursiveGet`: disabled or unequipped
//     items bring no attacks);
//   - every ranged row of the equipment libraries (.eqp), as the importer would put it on an actor.
//   Checked against the source (the GCS weapon's skill defaults and notes, which GGA does not import): a
//   muscle-powered weapon (Bow, Crossbow, Sling, Blowpipe, thrown weapons) must not malfunction; a
//   thrown weapon or grenade (Throwing, Thrown Weapon, Dropping defaults) must not read as a gun; a Malf
//   in the notes ("Malf 16", "malfunctions on 16+") must be the Malf read.
import { execFileSync } from "node:child_process";

import { darkHeresyAdapter } from "../vtt_module/scripts/adapters/dark-heresy-2e.js";
import { gurpsAdapter } from "../vtt_module/scripts/adapters/gurps.js";
import { twodsixAdapter } from "../vtt_module/scripts/adapters/twodsix.js";

const args = process.argv.slice(2);
/** @param {string} flag */
const arg = (flag) => {
  const at = args.indexOf(flag);
  return at >= 0 ? args[at + 1] : undefined;
};

/**
 * Every file under `prefix` at `ref` whose path passes `keep`, with its blob id (`-z`: names with
 * non-ASCII letters come unquoted).
 * @param {string} gitDir
 * @param {string} ref
 * @param {string} prefix
 * @param {(path: string) => boolean} keep
 */
function listFiles(gitDir, ref, prefix, keep) {
  const out = execFileSync("git", ["--git-dir", gitDir, "ls-tree", "-r", "-z", ref, prefix], { maxBuffer: 1 << 28 }).toString();
  return out
    .split("\0")
    .filter(Boolean)
    .map((line) => {
      const [meta, path] = line.split("\t");
      return { path, blob: meta.split(" ")[2] };
    })
    .filter(({ path }) => keep(path));
}

/** The text of a blob, or null when this copy of the repository lacks it. */
function readBlob(gitDir, blob) {
  try {
    return execFileSync("git", ["--git-dir", gitDir, "cat-file", "blob", blob], { maxBuffer: 1 << 28, stdio: ["ignore", "pipe", "ignore"] }).toString();
  } catch {
    return null;
  }
}

/** The commit a ref names. */
function commitOf(gitDir, ref) {
  return execFileSync("git", ["--git-dir", gitDir, "rev-parse", `${ref}^{commit}`]).toString().trim();
}

/** Counts of one survey. */
class Tally {
  actors = 0;
  weapons = 0;
  read = 0;
  failed = 0;
  /** @type {Map<string, number>} */
  refused = new Map();
  /** @type {Map<string, number>} */
  problems = new Map();
  /** @type {Map<string, {checked: number, misread: number, examples: string[]}>} */
  checks = new Map();
  /** @type {Map<string, number>} */
  notes = new Map();

  /** @param {{weapons: unknown[], problems: {key?: string}[], refused?: {key?: string}[]}} result @param {number} weapons */
  add(result, weapons) {
    this.actors += 1;
    this.weapons += weapons;
    this.read += result.weapons.length;
    const refused = result.refused ?? [];
    for (const r of refused) bump(this.refused, r.key ?? "?");
    for (const p of result.problems) bump(this.problems, p.key ?? "?");
    this.failed += weapons - result.weapons.length - refused.length;
  }

  /**
   * One read weapon checked against its source: `misread` when the check fails.
   * @param {string} check
   * @param {boolean} misread
   * @param {string} example
   */
  check(check, misread, example) {
    const entry = this.checks.get(check) ?? { checked: 0, misread: 0, examples: [] };
    entry.checked += 1;
    if (misread) {
      entry.misread += 1;
      if (entry.examples.length < 3) entry.examples.push(example);
    }
    this.checks.set(check, entry);
  }

  /** @param {string} title */
  print(title) {
    const refused = [...this.refused.values()].reduce((a, b) => a + b, 0);
    const misread = [...this.checks.values()].reduce((a, b) => a + b.misread, 0);
    console.log(`${title}: ${this.actors} actors, ${this.weapons} weapons: ${this.read} read (${misread} misread by the checks), ${refused} refused, ${this.failed} left out with problems`);
    for (const [key, n] of sorted(this.refused)) console.log(`  refused ${key}: ${n}`);
    for (const [key, n] of sorted(this.problems)) console.log(`  problem ${key}: ${n}`);
    for (const [check, { checked, misread: wrong, examples }] of this.checks) {
      console.log(`  check ${check}: ${wrong} misread of ${checked} checked${examples.length ? ` (e.g. ${examples.join("; ")})` : ""}`);
    }
    for (const [note, n] of this.notes) console.log(`  note ${note}: ${n}`);
  }
}

/** @param {Map<string, number>} map @param {string} key @param {number} [by] */
function bump(map, key, by = 1) {
  map.set(key, (map.get(key) ?? 0) + by);
}

/** @param {Map<string, number>} map */
function sorted(map) {
  return [...map].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

// ---------------------------------------------------------------------------------------------------
// Twodsix

/** The rule set each of Twodsix's packs is written for (its `ruleset` setting's keys, src/module/config.js). */
const TWODSIX_PACK_RULESETS = Object.freeze({
  "alpha-cephei-actors": "AC",
  "alpha-cephei-items": "AC",
  "ce-light-robots": "CEL",
  "ce-srd-items": "CE",
  "cepheus-atom-actors": "CEATOM",
  "cepheus-atom-items": "CEATOM",
  "cepheus-deluxe-actors": "CD",
  "cepheus-deluxe-items": "CD",
  "cepheus-deluxe-enhanced-edition-items": "CDEE",
  "cepheus-faster-than-light-items": "CEFTL",
  "cepheus-light-items": "CEL",
  "cepheus-quantum-items": "CEQ",
  "cepheus-quantum-careers": "CEQ",
  "cepheus-universal-items": "CU",
  "ct-items": "CT",
  "sword-of-cepheus-items": "SOC",
});

/** Each rule set's autofire rules as Twodsix 7.5.2 sets them (`RULESETS[key].settings.autofireRulesUsed`). */
const TWODSIX_AUTOFIRE = Object.freeze({
  CT: "CT", CE: "CE", CEL: "CEL", CEFTL: "CEL", CEATOM: "CEL", BARBARIC: "CE", CEQ: "CE", CD: "CEL", CDEE: "CEL",
  CLU: "CEL", SOC: "CE", AC: "CEL", CU: "CU", MGT2E: "CEL", RIDER: "RIDER",
});

/** Damage types only a gun deals, in Twodsix's packs. */
const GUN_DAMAGE = /^(laser|ballistic|plasma)$/i;
/** Names of blades and tools that deal such damage (a Laser Rapier, a Laser Welder): not guns. */
const BLADE_OR_TOOL = /\b(rapier|sword|blade|knife|drill|welder|cutter|saw|torch)\b/i;

/**
 * The checks of one Twodsix weapon read or refused.
 * @param {Tally} tally
 * @param {Record<string, any>} item
 * @param {string} ruleset
 * @param {{weapons: any[], refused: any[]}} reading
 * @param {string} where
 */
function checkTwodsix(tally, item, ruleset, reading, where) {
  const weapon = reading.weapons.find((w) => w.source?.ref === item._id);
  const refusal = reading.refused.find((r) => r.field === `items.${item._id}`);
  const rof = String(item.system?.rateOfFire ?? "").trim();
  const lone = /^\d+$/.test(rof) && Number(rof) >= 2;
  const autoN = ["CEL", "CU"].includes(TWODSIX_AUTOFIRE[ruleset]);
  if (weapon && lone && autoN) {
    tally.check(`lone RoF read as "Auto N" (${Object.keys(TWODSIX_AUTOFIRE).filter((k) => ["CEL", "CU"].includes(TWODSIX_AUTOFIRE[k])).join(", ")})`, weapon.stats.auto !== true, `${item.name} RoF ${rof} in ${ruleset} (${where})`);
  }
  if (GUN_DAMAGE.test(String(item.system?.damageType ?? "")) && !BLADE_OR_TOOL.test(String(item.name))) {
    tally.check("a gun's damage type (laser, ballistic, plasma; not a blade or tool) not refused as a natural attack", refusal?.key === "refused.natural", `${item.name} (${item.system.damageType}, ${where})`);
  }
  if (weapon && lone && !autoN) bump(tally.notes, `lone RoF 2+ under ${TWODSIX_AUTOFIRE[ruleset] ?? "?"} autofire rules (read ${weapon.stats.auto ? "auto" : `burst ${weapon.stats.burst}`})`);
}

/**
 * A MegaTraveller traveller to carry compendium weapons: Dexterity 8 and Twodsix's untrained skill.
 * @param {Record<string, any>[]} weapons
 */
function traveller(weapons) {
  return {
    _id: "surveyTraveller1",
    name: "Survey traveller",
    type: "traveller",
    system: { untrainedSkill: "surveyUntrained1", characteristics: { dexterity: { value: 8, damage: 0, current: 8 } } },
    items: [{ _id: "surveyUntrained1", name: "Untrained", type: "skills", system: { value: -3 } }, ...weapons],
  };
}

function surveyTwodsix(gitDir) {
  const ref = "v7.5.2";
  console.log(`Twodsix ${ref} (${commitOf(gitDir, ref)})`);
  const files = listFiles(gitDir, ref, "packs-src", (path) => path.endsWith(".json"));
  const actorsTally = new Tally();
  const itemsTally = new Tally();
  /** @type {Map<string, Record<string, any>[]>} */
  const weaponsByPack = new Map();
  let missing = 0;
  for (const { path, blob } of files) {
    const pack = path.split("/")[1];
    if (!/actors|robots|-items$/.test(pack)) continue;
    const text = readBlob(gitDir, blob);
    if (text === null) {
      missing += 1;
      continue;
    }
    const document = JSON.parse(text);
    const ruleset = TWODSIX_PACK_RULESETS[pack] ?? "CE";
    if (Array.isArray(document.items)) {
      const weapons = document.items.filter((item) => item.type === "weapon");
      if (weapons.length === 0) continue;
      const reading = twodsixAdapter({ ruleset }).readActor(document);
      actorsTally.add(reading, weapons.length);
      for (const item of weapons) checkTwodsix(actorsTally, item, ruleset, reading, `${document.name}, ${pack}`);
    } else if (document.type === "weapon") {
      const list = weaponsByPack.get(pack) ?? [];
      list.push(document);
      weaponsByPack.set(pack, list);
    }
  }
  actorsTally.print("  pre-made actors (actors with weapons), each under its pack's rule set");
  for (const [pack, weapons] of [...weaponsByPack].sort()) {
    const ruleset = TWODSIX_PACK_RULESETS[pack] ?? "CE";
    const items = weapons.map((weapon, index) => ({ ...weapon, _id: `w${String(index).padStart(15, "0")}`, system: { ...weapon.system, skill: "" } }));
    const reading = twodsixAdapter({ ruleset }).readActor(traveller(items));
    const tally = new Tally();
    tally.add(reading, items.length);
    itemsTally.add(reading, items.length);
    for (const item of items) {
      checkTwodsix(tally, item, ruleset, reading, pack);
      checkTwodsix(itemsTally, item, ruleset, reading, pack);
    }
    const misread = [...tally.checks.values()].reduce((a, b) => a + b.misread, 0);
    const refused = [...tally.refused.values()].reduce((a, b) => a + b, 0);
    console.log(`    ${pack} (${ruleset}): ${items.length} weapons: ${tally.read} read (${misread} misread), ${refused} refused, ${tally.failed} with problems`);
  }
  itemsTally.actors = weaponsByPack.size;
  itemsTally.print("  compendium weapons on a MegaTraveller traveller (one per item pack), each under its pack's rule set");
  if (missing) console.log(`  ${missing} pack files not readable in this copy (skipped)`);
}

// ---------------------------------------------------------------------------------------------------
// Dark Heresy 2e

/**
 * A tiny reader for the compendium's YAML: documents separated by "---", nested maps by indentation,
 * scalars as numbers, booleans, quoted or plain strings. Enough for `src/packs/*.yml` of DH2e 1.8.1.
 * @param {string} text
 */
function readYamlDocuments(text) {
  const documents = [];
  for (const chunk of text.split(/^---\s*$/m)) {
    const root = {};
    const stack = [{ indent: -1, value: root }];
    let lastKey = null;
    for (const raw of chunk.split("\n")) {
      if (raw.trim() === "" || raw.trim().startsWith("#")) continue;
      const indent = raw.length - raw.trimStart().length;
      const match = /^([^:]+):\s*(.*)$/.exec(raw.trim());
      if (match === null) continue; // multi-line text: not needed here
      while (stack.length > 1 && stack.at(-1).indent >= indent) stack.pop();
      const parent = stack.at(-1).value;
      const [, key, rest] = match;
      if (rest === "") {
        parent[key] = {};
        stack.push({ indent, value: parent[key] });
      } else parent[key] = scalar(rest);
      lastKey = key;
    }
    if (lastKey !== null && Object.keys(root).length > 0) documents.push(root);
  }
  return documents;
}

/** @param {string} text */
function scalar(text) {
  const value = text.trim();
  if (/^'.*'$/.test(value)) return value.slice(1, -1).replace(/''/g, "'");
  if (/^".*"$/.test(value)) return JSON.parse(value);
  if (value === "true" || value === "false") return value === "true";
  if (value === "[]") return [];
  if (value === "{}") return {};
  if (/^-?\d+(\.\d+)?$/.test(value)) return Number(value);
  return value;
}

/** The DH2e damage expression plus `n` ("1d10+3" + 1 = "1d10+4"), as the rules' notation writes it. */
function damagePlus(damage, n) {
  const match = /^\s*(\d+)\s*[dD]\s*(\d+)\s*(?:([+-])\s*(\d+))?\s*$/.exec(String(damage));
  if (match === null) return null;
  const bonus = (match[3] === "-" ? -1 : 1) * Number(match[4] ?? 0) + n;
  return `${match[1]}d${match[2]}${bonus === 0 ? "" : bonus > 0 ? `+${bonus}` : bonus}`;
}

function surveyDarkHeresy(gitDir) {
  const ref = "v1.8.1";
  console.log(`Dark Heresy 2e ${ref} (${commitOf(gitDir, ref)})`);
  const read = (path) => {
    const [file] = listFiles(gitDir, ref, path, () => true);
    return readYamlDocuments(readBlob(gitDir, file.blob) ?? "");
  };
  const specials = read("src/packs/attack-specials/attack-specials.yml");
  const byName = new Map(specials.map((special) => [special.name, special]));
  const weapons = read("src/packs/weapons/weapons.yml");
  const ammo = read("src/packs/ammo/ammo.yml");
  const hotShot = ammo.find((a) => a.name === "Hot-Shot Charge Packs");
  const items = weapons.map((weapon, index) => {
    const system = { ...weapon.data, equipped: true };
    const nested = [];
    for (const [key, value] of Object.entries(system.special ?? {})) {
      const special = byName.get(key.charAt(0).toUpperCase() + key.slice(1));
      if (special === undefined) continue;
      const data = { enabled: true, ...special.data }; // template.json's attackSpecial default
      if (data.hasLevel) data.level = value;
      else data.enabled = value;
      nested.push({ _id: `nested${index}${key}`, name: special.name, type: "attackSpecial", system: data });
    }
    delete system.special;
    return { _id: `weapon${String(index).padStart(10, "0")}`, name: weapon.name, type: "weapon", system, flags: { "dark-heresy-2nd": { nested } } };
  });
  const acolyte = (list) => ({ _id: "survey", system: { characteristics: { ballisticSkill: { total: 40 }, willpower: { total: 35 } } }, items: list });
  const has = (item, name) => item.flags["dark-heresy-2nd"].nested.some((n) => n.name === name && (n.system.enabled === true || n.system.equipped === true));

  const checkAll = (tally, list, reading) => {
    for (const item of list) {
      const weapon = reading.weapons.find((w) => w.source?.ref === item._id);
      if (has(item, "Spray")) tally.check("Spray not fired with a to-hit roll", weapon !== undefined, item.name);
      if (has(item, "Storm") && weapon) bump(tally.notes, "Storm read at the listed rate (documented difference)");
      const loadedHotShot = item.flags["dark-heresy-2nd"].nested.some((n) => n.type === "ammunition" && n.name === "Hot-Shot Charge Packs");
      if (loadedHotShot && weapon) {
        const damage = damagePlus(item.system.damage, 1);
        const pen = Number(item.system.penetration ?? 0) + 4;
        tally.check("Hot-Shot packs' +1 damage, +4 penetration", weapon.stats.damage !== damage || weapon.stats.pen !== pen, `${item.name}: ${weapon.stats.damage} pen ${weapon.stats.pen}, the system rolls ${damage} pen ${pen}`);
      }
      const rof = item.system.rateOfFire ?? {};
      if (["single", "burst", "full"].every((mode) => Number(rof[mode] ?? 0) <= 0) && String(item.system.class).toLowerCase() !== "melee") {
        tally.check("no RoF at all: DH2e still offers its Standard Attack", weapon === undefined, `${item.name} (${item.system.class})`);
      }
    }
  };

  const tally = new Tally();
  const reading = darkHeresyAdapter().readActor(acolyte(items));
  tally.add(reading, items.length);
  checkAll(tally, items, reading);
  tally.print("  weapons compendium (every weapon, equipped)");
  const ranged = items.filter((item) => String(item.system.class).toLowerCase() !== "melee");
  const rangedTally = new Tally();
  const rangedReading = darkHeresyAdapter().readActor(acolyte(ranged));
  rangedTally.add(rangedReading, ranged.length);
  checkAll(rangedTally, ranged, rangedReading);
  rangedTally.print("    of which not Melee");

  const las = items
    .filter((item) => String(item.system.type).toLowerCase() === "las" && String(item.system.class).toLowerCase() !== "melee")
    .map((item) => {
      const copy = structuredClone(item);
      copy.flags["dark-heresy-2nd"].nested.push({ _id: `ammo${item._id}`, name: hotShot.name, type: "ammunition", system: { ...hotShot.data } });
      return copy;
    });
  const hotTally = new Tally();
  const hotReading = darkHeresyAdapter().readActor(acolyte(las));
  hotTally.add(hotReading, las.length);
  checkAll(hotTally, las, hotReading);
  hotTally.print("  every Las weapon with the ammunition compendium's Hot-Shot Charge Packs loaded");
}

// ---------------------------------------------------------------------------------------------------
// GURPS: GCS files as GGA 0.18.22 imports them

/** GCS skill defaults of weapons GURPS powers by muscle (no Malf: B407 is for firearms). */
const MUSCLE_SKILLS = /^(bow|crossbow|sling|blowpipe|spear thrower|thrown weapon|throwing|bolas|lasso|net|cloak|dropping)\b/i;
/** GCS skill defaults of weapons that are thrown (a grenade, a knife), not fired. */
const THROWN_SKILLS = /^(throwing|thrown weapon|dropping|bolas|lasso|net|cloak)\b/i;
/** A Malf in a note, as GCS libraries write it. */
const MALF_TEXT = /\bmalf\.?\s*:?\s*(\d{1,2})\b(?!\+)|\bmalfunctions?\s+on\s+(?:an?\s+)?(\d{1,2})\+/i;

/** The skill names a GCS weapon defaults to. */
function skillDefaults(weapon) {
  return (weapon.defaults ?? [])
    .filter((d) => d.type === "skill")
    .map((d) => (typeof d.name === "string" ? d.name : typeof d.name?.qualifier === "string" ? d.name.qualifier : ""))
    .filter(Boolean);
}

/** GGA's `_substituteItemReplacements`: "@key@" in the entry's text fields from the GCS item's replacements. */
function substitute(entry, item) {
  if (!item.replacements) return entry;
  for (const [key, value] of Object.entries(item.replacements)) {
    for (const [field, text] of Object.entries(entry)) {
      if (typeof text === "string" && text.includes(`@${key}@`)) entry[field] = text.replaceAll(`@${key}@`, value);
    }
  }
  return entry;
}

/** GGA's `recursiveGet`: an item, its children and modifiers, none of a disabled or unequipped item. */
function recursiveGet(item) {
  if (!item) return [];
  const children = [...(item.children ?? []), ...(item.modifiers ?? [])].flatMap(recursiveGet);
  if (item.disabled || (item.equipped !== undefined && item.equipped !== null && item.equipped === false)) return [];
  return [item, ...children];
}

/** GGA's `_migrateOtfsAndNotes` on a fresh import: vtt and usage notes appended, indented newlines folded. */
function migrateNotes(notes, vttNotes, usageNotes) {
  let text = notes;
  if (vttNotes) text += (text ? " " : "") + vttNotes;
  if (usageNotes) text += (text ? " " : "") + usageNotes;
  return text.trim().replace(/\n\s\s+/g, " ");
}

/**
 * The actor data GGA 0.18.22 makes of a GCS 5 file: ranged attacks, equipment (carried and other, with
 * `contains`), skills. `sources` maps each ranged path to the GCS item and weapon it came from.
 * @param {Record<string, any>} gcs
 */
function ggaActorFromGcs(gcs) {
  const ranged = {};
  /** @type {Map<string, {item: any, weapon: any}>} */
  const sources = new Map();
  let index = 0;
  const all = [gcs.traits ?? gcs.advantages ?? [], gcs.skills ?? [], gcs.spells ?? [], gcs.equipment ?? []].flat().flatMap(recursiveGet);
  for (const item of all) {
    for (const weapon of item.weapons ?? []) {
      if (typeof weapon.id === "string" && weapon.id.startsWith("w")) continue; // GCS 5: melee
      const key = String(index).padStart(5, "0");
      index += 1;
      const entry = substitute(
        {
          name: item.name || item.description || "",
          originalName: item.name ?? "",
          notes: item.notes || "",
          mode: weapon.usage || "",
          import: String(weapon.calc?.level ?? "0"),
          damage: weapon.calc?.damage || "",
          acc: weapon.accuracy || "",
          rof: weapon.rate_of_fire || "",
          shots: weapon.shots || "",
          rcl: weapon.recoil || "",
          range: weapon.calc?.range || weapon.range || "",
          st: weapon.strength || "",
          bulk: weapon.bulk || "",
        },
        item,
      );
      entry.notes = migrateNotes(entry.notes, item.vtt_notes, weapon.usage_notes);
      entry.level = Number.parseInt(entry.import, 10);
      ranged[key] = entry;
      sources.set(`system.ranged.${key}`, { item, weapon });
    }
  }
  const equipmentOf = (list, carried) => {
    const out = {};
    let at = 0;
    for (const item of list ?? []) out[String(at++).padStart(5, "0")] = equipmentEntry(item, carried);
    return out;
  };
  const skills = {};
  let skill = 0;
  const addSkill = (item, into) => {
    const name = `${item.name ?? ""}${item.tech_level ? `/TL${item.tech_level}` : ""}${item.specialization ? ` (${item.specialization})` : ""}`;
    const entry = { name, import: String(item.calc?.level ?? ""), level: Number.parseInt(String(item.calc?.level ?? ""), 10), contains: {} };
    into[String(skill++).padStart(5, "0")] = entry;
    for (const child of item.children ?? []) addSkill(child, entry.contains);
  };
  for (const item of gcs.skills ?? []) addSkill(item, skills);
  const actor = {
    _id: "surveyGcsActor01",
    system: { ranged, skills, equipment: { carried: equipmentOf(gcs.equipment, true), other: equipmentOf(gcs.other_equipment, false) } },
    items: [],
  };
  return { actor, sources };
}

/** GGA's `importEq`: one piece of equipment, its children under `contains`. */
function equipmentEntry(item, carried) {
  let notes = item.calc?.resolved_notes ?? item.notes ?? item.local_notes ?? "";
  for (const modifier of item.modifiers ?? []) {
    if (!modifier.disabled) notes += `${notes ? "; " : ""}${modifier.name}${modifier.notes ? ` (${modifier.notes})` : ""}`;
  }
  const entry = substitute({ name: item.description || "Equipment", originalName: item.description ?? "", notes, uses: item.uses || 0, maxuses: item.max_uses || 0, carried, equipped: item.equipped, itemid: "" }, item);
  entry.notes = migrateNotes(entry.notes, item.vtt_notes, "");
  const contains = {};
  let at = 0;
  for (const child of item.children ?? []) contains[String(at++).padStart(5, "0")] = equipmentEntry(child, carried);
  entry.contains = contains;
  return entry;
}

/**
 * The checks of every ranged attack of one GGA actor against the GCS rows it came from.
 * @param {Tally} tally
 * @param {{weapons: any[], refused: any[], problems: any[]}} reading
 * @param {Map<string, {item: any, weapon: any}>} sources
 * @param {string} where
 */
function checkGurps(tally, reading, sources, where) {
  for (const [path, { item, weapon }] of sources) {
    const read = reading.weapons.find((w) => w.source?.ref === path);
    const name = `${item.name || item.description}${weapon.usage ? ` (${weapon.usage})` : ""} [${where}]`;
    const skills = skillDefaults(weapon);
    const thrown = skills.length > 0 && skills.every((s) => THROWN_SKILLS.test(s)) && !/^T/i.test(String(weapon.shots ?? ""));
    if (thrown) tally.check("a grenade or thrown weapon (Throwing/Thrown Weapon defaults, Shots not T) is not fired as a gun", read !== undefined, name);
    // The attack's own notes (its usage notes) first, then its item's: as GGA puts them.
    const malf = MALF_TEXT.exec(weapon.usage_notes ?? "") ?? MALF_TEXT.exec(item.calc?.resolved_notes ?? item.notes ?? item.local_notes ?? "");
    if (read && malf === null && skills.length > 0 && skills.every((s) => MUSCLE_SKILLS.test(s))) {
      tally.check("a muscle-powered weapon (Bow, Crossbow, Sling, Blowpipe...) whose notes give no Malf has none", read.stats.malf < 19, `${name}: Malf ${read.stats.malf}`);
    }
    if (read && malf !== null) {
      const wanted = Number(malf[1] ?? malf[2]);
      tally.check("a Malf in the notes is the Malf read", read.stats.malf !== wanted, `${name}: notes say ${wanted}, read ${read.stats.malf}`);
    }
    const innate = skills.includes("Innate Attack") && !weapon.shots && weapon.rate_of_fire && !/jet/i.test(weapon.rate_of_fire);
    if (innate) bump(tally.notes, `innate attacks (Innate Attack default, a RoF, Shots empty) ${read ? "read" : "not read"}`);
  }
}

function surveyGcs(gitDir) {
  console.log(`GCS master library HEAD (${commitOf(gitDir, "HEAD")})`);
  const characters = listFiles(gitDir, "HEAD", "Library", (path) => path.endsWith(".gcs"));
  const adapter = gurpsAdapter();
  const tally = new Tally();
  let withRanged = 0;
  let missing = 0;
  for (const { path, blob } of characters) {
    const text = readBlob(gitDir, blob);
    if (text === null) {
      missing += 1;
      continue;
    }
    const { actor, sources } = ggaActorFromGcs(JSON.parse(text));
    if (sources.size === 0) continue;
    withRanged += 1;
    const reading = adapter.readActor(actor);
    tally.add(reading, sources.size);
    checkGurps(tally, reading, sources, path.split("/").pop() ?? path);
  }
  tally.actors = withRanged;
  tally.print(`  ${characters.length} character files (.gcs) imported as GGA 0.18.22 imports them (${withRanged} with a ranged attack)`);
  if (missing) console.log(`  ${missing} character files not readable in this copy (skipped)`);

  // The equipment libraries: each file's ranged rows on one actor, as the importer would put them.
  const libraries = listFiles(gitDir, "HEAD", "Library", (path) => path.endsWith(".eqp"));
  const rows = new Tally();
  let unreadable = 0;
  for (const { path, blob } of libraries) {
    const text = readBlob(gitDir, blob);
    if (text === null) {
      unreadable += 1;
      continue;
    }
    const library = JSON.parse(text);
    // A library lists equipment, none of it equipped or disabled: every row counts. Each top-level row
    // (with what it contains) goes on an actor of its own, as a character would carry it: a library
    // repeats names (two "Sharps M1859" with different Malf) that one character would not.
    const equip = (list) => list.map((row) => ({ ...row, equipped: true, disabled: false, children: equip(row.children ?? []) }));
    for (const row of equip(library.rows ?? [])) {
      const { actor, sources } = ggaActorFromGcs({ equipment: [row] });
      if (sources.size === 0) continue;
      const reading = adapter.readActor(actor);
      rows.add(reading, sources.size);
      checkGurps(rows, reading, sources, path.split("/").pop() ?? path);
    }
  }
  rows.print(`  ranged rows of the ${libraries.length} equipment libraries (.eqp), as GGA's importer puts them on an actor (one actor per top-level row)`);
  if (unreadable) console.log(`  ${unreadable} .eqp files not readable in this copy (skipped)`);
}

/** The importer's and the compendium's readings, for building fixtures from the same data. */
export { ggaActorFromGcs, readYamlDocuments, traveller, TWODSIX_PACK_RULESETS };

if (import.meta.url === `file://${process.argv[1]}`) {
  const twodsix = arg("--twodsix");
  const dh2 = arg("--dh2");
  const gcs = arg("--gcs");
  if (!twodsix && !dh2 && !gcs) {
    console.error("usage: node scripts/adapter_survey.mjs [--twodsix <git dir>] [--dh2 <git dir>] [--gcs <git dir>]");
    process.exit(2);
  }
  if (twodsix) surveyTwodsix(twodsix);
  if (dh2) surveyDarkHeresy(dh2);
  if (gcs) surveyGcs(gcs);
}
