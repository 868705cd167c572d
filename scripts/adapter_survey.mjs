#!/usr/bin/env node
// Run Volley's game-system adapters over the data the systems themselves ship, and print how many
// weapons read, how many are refused (and why), and how many are left out with problems.
//
// Not part of CI: the systems' repositories are not in this tree. Point it at git directories (bare or
// not) of the three repositories; each is read at the tag the adapter claims, with `git archive`.
//
//   node scripts/adapter_survey.mjs --twodsix <git dir> --dh2 <git dir> --gcs <git dir>
//
// - Twodsix (xdy/twodsix-foundryvtt, v7.5.2): every actor in its actor packs (packs-src/*-actors...).
// - Dark Heresy 2e (mrkeathley/dark-heresy-2nd-vtt, v1.8.1): every weapon of its weapons compendium,
//   on one acolyte, equipped (the compendium ships them unequipped), with `special` turned into nested
//   qualities as the system does when the item is created (`_getAttackSpecials`).
// - GURPS (richardwilkes/gcs_master_library, HEAD): every ranged row of the GCS equipment libraries, as
//   GGA 0.18.22's importer (`importCombatFromGCS`, `importEq`) puts it on an actor.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

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
 * The files under `paths` of `gitDir` at `ref`, unpacked into a temporary directory.
 * @param {string} gitDir
 * @param {string} ref
 * @param {string[]} paths
 */
function checkout(gitDir, ref, paths) {
  const dir = mkdtempSync(join(tmpdir(), "volley-survey-"));
  const tar = execFileSync("git", ["--git-dir", gitDir, "archive", ref, ...paths], { maxBuffer: 1 << 30 });
  execFileSync("tar", ["-x", "-C", dir], { input: tar });
  return dir;
}

/** @param {string} dir */
function* filesUnder(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* filesUnder(path);
    else yield path;
  }
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

  /** @param {{weapons: unknown[], problems: {key?: string}[], refused?: {key?: string}[]}} result @param {number} weapons */
  add(result, weapons) {
    this.actors += 1;
    this.weapons += weapons;
    this.read += result.weapons.length;
    const refused = result.refused ?? [];
    for (const r of refused) this.refused.set(r.key ?? "?", (this.refused.get(r.key ?? "?") ?? 0) + 1);
    for (const p of result.problems) this.problems.set(p.key ?? "?", (this.problems.get(p.key ?? "?") ?? 0) + 1);
    this.failed += weapons - result.weapons.length - refused.length;
  }

  /** @param {string} title */
  print(title) {
    const refused = [...this.refused.values()].reduce((a, b) => a + b, 0);
    console.log(`${title}: ${this.actors} actors, ${this.weapons} weapons: ${this.read} read, ${refused} refused, ${this.failed} left out with problems`);
    for (const [key, n] of [...this.refused].sort((a, b) => b[1] - a[1])) console.log(`  refused ${key}: ${n}`);
    for (const [key, n] of [...this.problems].sort((a, b) => b[1] - a[1])) console.log(`  problem ${key}: ${n}`);
  }
}

function surveyTwodsix(gitDir) {
  const dir = checkout(gitDir, "v7.5.2", ["packs-src"]);
  try {
    const adapter = twodsixAdapter();
    const tally = new Tally();
    for (const pack of readdirSync(join(dir, "packs-src")).filter((name) => /actors|robots|careers/.test(name))) {
      for (const file of filesUnder(join(dir, "packs-src", pack))) {
        if (!file.endsWith(".json")) continue;
        const actor = JSON.parse(readFileSync(file, "utf8"));
        if (!Array.isArray(actor.items)) continue;
        const weapons = actor.items.filter((item) => item.type === "weapon").length;
        if (weapons === 0) continue;
        tally.add(adapter.readActor(actor), weapons);
      }
    }
    tally.print("Twodsix v7.5.2 pre-made actors (actors with weapons)");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

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

function surveyDarkHeresy(gitDir) {
  const dir = checkout(gitDir, "v1.8.1", ["src/packs/weapons", "src/packs/attack-specials"]);
  try {
    const specials = readYamlDocuments(readFileSync(join(dir, "src/packs/attack-specials/attack-specials.yml"), "utf8"));
    const byName = new Map(specials.map((special) => [special.name, special]));
    const weapons = readYamlDocuments(readFileSync(join(dir, "src/packs/weapons/weapons.yml"), "utf8"));
    const items = weapons.map((weapon, index) => {
      const system = { ...weapon.data, equipped: true };
      const nested = [];
      for (const [key, value] of Object.entries(system.special ?? {})) {
        const special = byName.get(key.charAt(0).toUpperCase() + key.slice(1));
        if (special === undefined) continue;
        const data = { ...special.data };
        if (data.hasLevel) data.level = value;
        else data.enabled = value;
        nested.push({ _id: `nested${index}${key}`, name: special.name, type: "attackSpecial", system: data });
      }
      delete system.special;
      return { _id: `weapon${String(index).padStart(10, "0")}`, name: weapon.name, type: "weapon", system, flags: { "dark-heresy-2nd": { nested } } };
    });
    const actor = { _id: "survey", system: { characteristics: { ballisticSkill: { total: 40 }, willpower: { total: 35 } } }, items };
    const tally = new Tally();
    tally.add(darkHeresyAdapter().readActor(actor), items.length);
    tally.print("Dark Heresy 2e v1.8.1 weapons compendium (every weapon, equipped)");
    const ranged = items.filter((item) => String(item.system.class).toLowerCase() !== "melee");
    const rangedActor = { ...actor, items: ranged };
    const rangedTally = new Tally();
    rangedTally.add(darkHeresyAdapter().readActor(rangedActor), ranged.length);
    rangedTally.print("  of which not Melee");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function surveyGcs(gitDir) {
  // File by file: a mirror may lack the largest files, which are then skipped (and counted).
  const paths = execFileSync("git", ["--git-dir", gitDir, "ls-tree", "-r", "--name-only", "HEAD", "Library"], { maxBuffer: 1 << 28 })
    .toString()
    .split("\n")
    .filter((path) => path.endsWith(".eqp"));
  let missing = 0;
  {
    const adapter = gurpsAdapter();
    const tally = new Tally();
    /** @type {Map<string, number>} */
    const malf = new Map([["from equipment notes", 0], ["default 17", 0], ["read from notes", 0]]);
    for (const path of paths) {
      let library;
      try {
        library = JSON.parse(execFileSync("git", ["--git-dir", gitDir, "show", `HEAD:${path}`], { maxBuffer: 1 << 28, stdio: ["ignore", "pipe", "ignore"] }).toString());
      } catch {
        missing += 1;
        continue;
      }
      const ranged = {};
      const carried = {};
      let index = 0;
      const walk = (rows) => {
        for (const row of rows ?? []) {
          const name = row.description || "Equipment";
          const notes = row.calc?.resolved_notes ?? row.notes ?? row.local_notes ?? "";
          let hasRanged = false;
          for (const weapon of row.weapons ?? []) {
            if (!("rate_of_fire" in weapon || "shots" in weapon || weapon.id?.startsWith("W"))) continue;
            if (weapon.id?.startsWith("w")) continue; // GCS 5: lower-case w is a melee weapon
            hasRanged = true;
            const key = String(index).padStart(5, "0");
            ranged[key] = { name, originalName: row.description, mode: weapon.usage || "", notes: [row.notes ?? "", weapon.usage_notes ?? ""].filter(Boolean).join(" "), rof: weapon.rate_of_fire || "", shots: weapon.shots || "", rcl: weapon.recoil || "", level: 12 };
            carried[key] = { name, originalName: row.description, notes, uses: row.uses || 0, maxuses: row.max_uses || 0, itemid: "" };
            index += 1;
          }
          if (hasRanged && /\bmalf\.?\s*:?\s*\d/i.test(notes)) malf.set("from equipment notes", malf.get("from equipment notes") + 1);
          walk(row.children);
        }
      };
      walk(library.rows);
      if (index === 0) continue;
      const actor = { _id: "survey", system: { ranged, equipment: { carried, other: {} }, skills: {} }, items: [] };
      const result = adapter.readActor(actor);
      tally.add(result, index);
      malf.set("default 17", malf.get("default 17") + result.weapons.filter((w) => w.stats.malf === 17).length);
      malf.set("read from notes", malf.get("read from notes") + result.weapons.filter((w) => w.stats.malf !== 17).length);
    }
    tally.print("GCS master library (HEAD) ranged rows as GGA 0.18.22 imports them");
    console.log(
      `  library rows with Malf in their notes: ${malf.get("from equipment notes")}; weapons read with a Malf from the notes: ${malf.get("read from notes")}, with the default 17: ${malf.get("default 17")}`,
    );
    console.log(`  ${paths.length} .eqp files, ${missing} not readable in this copy (skipped)`);
  }
}

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
