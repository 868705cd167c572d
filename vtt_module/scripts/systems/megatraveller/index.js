/**
 * MegaTraveller (the fan RCS fire rules, seed 000) as a Volley rule system plug-in.
 *
 * The profile holds the skill level per weapon and Dexterity; per weapon its kind, /R rapid fire,
 * burst size, automatic fire and Auto Tgts, magazine, and its state (rounds, readiness, selector). The
 * token's target lock is the token's own state. The attack dialog (`attack-dialog.js`) fires in the
 * weapon's modes and handles it (draw, unsling, ready, select fire mode, retarget, reload); the
 * allocation step (`allocation-dialog.js`) splits a pool rolled in two-step play.
 */

import { FIRE_MODES, READINESS, SELECTOR, weaponSelectors } from "./modes.js";
import { buildMegaTravellerAllocation, buildMegaTravellerRequest } from "./requests.js";
import { megatravellerChoice } from "./choice.js";
import { loadedWithinCapacity } from "../common/magazine.js";
import { registerSystem, standardReadout, standardWeaponStateKey } from "../../registry.js";

export { READINESS, SELECTOR };

/**
 * How the bullets went, target by target ("Vargr raider 6+3 · Vargr leader 6"), when more than one
 * token shared them: clusters in automatic fire, bullets otherwise.
 * @param {any[]} targets the result's targets
 */
function splitText(targets) {
  const shares = targets
    .filter((t) => typeof t === "object" && t !== null && (Number(t.bullets) > 0 || (Array.isArray(t.clusters) && t.clusters.length)))
    .map((t) => `${String(t.name ?? t.id)} ${Array.isArray(t.clusters) && t.clusters.length ? t.clusters.join("+") : Number(t.bullets)}`);
  return shares.length > 1 ? shares.join(" · ") : "";
}
/** RCS: Retarget and Fire's bring-to-bear DM depends on the kind; a burst is 2, 3 or 4 bullets. */
export const WEAPON_KINDS = Object.freeze(["pistol", "rifle", "heavy"]);
export const BURST_SIZES = Object.freeze(["2", "3", "4"]);

/**
 * The lines under a MegaTraveller card: the mode, the pool (rolled in step one of two-step play, or
 * spent), the bystanders caught, and the weapon's readiness, selector and the lock after the action.
 * @param {unknown} result
 * @param {import("../../registry.js").CardContext} [context] how a token's name is found from its id
 * @returns {import("../../registry.js").CardExtra[]}
 */
export function cardExtras(result, { nameOf, settled = null } = {}) {
  const r = /** @type {Record<string, any>} */ (typeof result === "object" && result !== null ? result : {});
  /** @type {import("../../registry.js").CardExtra[]} */
  const extras = [];
  const names = new Map((Array.isArray(r.targets) ? r.targets : []).filter((t) => t?.name).map((t) => [String(t?.id ?? ""), String(t.name)]));
  // A token the result names only by its id (the lock after Unsling, Ready, Select, Retarget): by its
  // name on the scene; never the raw id.
  const nameOfToken = (/** @type {string} */ id) => names.get(id) || nameOf?.(id) || { key: "VOLLEY.Card.UnknownToken" };
  if (FIRE_MODES.includes(r.mode)) extras.push({ label: "VOLLEY.MegaTraveller.Card.Mode", value: { key: `VOLLEY.MegaTraveller.Modes.${r.mode}` } });
  const pool = r.pending ?? r.pool;
  if (pool && typeof pool === "object") {
    if (typeof pool.bullets === "number" && r.mode === "rapid") extras.push({ label: "VOLLEY.MegaTraveller.Card.Bullets", value: pool.bullets });
    // Rolled, not yet fired while the pool waits; fired once it is split; an expired pool fired nothing.
    const rounds = !r.pending || settled === "allocated" ? "VOLLEY.Card.RoundsFired" : settled ? null : "VOLLEY.MegaTraveller.Card.RoundsToFire";
    if (typeof pool.rounds === "number" && rounds) extras.push({ label: rounds, value: pool.rounds });
    if (typeof pool.lost === "number") extras.push({ label: "VOLLEY.MegaTraveller.Card.Lost", value: pool.lost });
    // On a result the split line says the clusters target by target.
    if (Array.isArray(pool.clusters) && r.pending) extras.push({ label: "VOLLEY.MegaTraveller.Card.Clusters", value: pool.clusters.filter((/** @type {unknown} */ n) => typeof n === "number").join(", ") || "—" });
  }
  const bystanders = (Array.isArray(r.targets) ? r.targets : []).filter((t) => t?.bystander === true).map((t) => String(t.name ?? t.id));
  // Once resolved, each bystander is marked in the hits table itself; the pending card has no table.
  if (bystanders.length && r.pending) extras.push({ label: "VOLLEY.MegaTraveller.Card.Bystanders", value: bystanders.join(", ") });
  if (r.pending) return extras;
  const split = splitText(Array.isArray(r.targets) ? r.targets : []);
  if (split) extras.push({ label: "VOLLEY.MegaTraveller.Card.Split", value: split });
  if (typeof r.weapon?.fired === "number" && r.weapon.fired > 0 && !pool?.rounds) extras.push({ label: "VOLLEY.Card.RoundsFired", value: r.weapon.fired });
  if (READINESS.includes(r.readiness)) extras.push({ label: "VOLLEY.MegaTraveller.Readiness", value: { key: `VOLLEY.MegaTraveller.Readinesses.${r.readiness}` } });
  if (SELECTOR.includes(r.selector)) extras.push({ label: "VOLLEY.MegaTraveller.Selector", value: { key: `VOLLEY.MegaTraveller.Selectors.${r.selector}` } });
  if (typeof r.target === "string" && r.target) extras.push({ label: "VOLLEY.MegaTraveller.Card.Lock", value: nameOfToken(r.target) });
  return extras;
}

/**
 * Each target's row on a resolved card: a bystander (caught in the danger space, not aimed at) is
 * marked beside its name, and the clusters or bullets it took are said with why a bystander got any
 * (the RCS gives everyone in the danger space a cluster while any are left).
 * @param {unknown} result
 * @returns {import("../../registry.js").CardRowNote[]}
 */
export function cardRows(result) {
  const r = /** @type {Record<string, any>} */ (typeof result === "object" && result !== null ? result : {});
  if (r.pending || !Array.isArray(r.targets)) return [];
  return r.targets
    .filter((t) => typeof t === "object" && t !== null && typeof t.id === "string")
    .map((t) => {
      /** @type {import("../../registry.js").CardNote[]} */
      const notes = [];
      const clusters = Array.isArray(t.clusters) ? t.clusters.filter((/** @type {unknown} */ n) => typeof n === "number") : [];
      if (clusters.length) notes.push({ key: "VOLLEY.MegaTraveller.Card.TookClusters", values: { clusters: clusters.join("+"), n: clusters.length } });
      else if (Number(t.bullets) > 0) notes.push({ key: "VOLLEY.MegaTraveller.Card.TookBullets", values: { n: Number(t.bullets) } });
      if (t.bystander === true && clusters.length) notes.push({ key: "VOLLEY.MegaTraveller.Card.BystanderWhy" });
      return { target: t.id, notes, role: t.bystander === true ? "VOLLEY.MegaTraveller.Card.BystanderRole" : null };
    });
}


/** Result state keys that belong to the weapon although the rules keep them on the shooter. */
const WEAPON_KEYS = new Set(["readiness", "selector"]);

/** @type {import("../../registry.js").RuleSystemPlugin} */
const megatraveller = {
  id: "megatraveller",
  label: "VOLLEY.Systems.megatraveller",
  gameSystems: ["twodsix", "mgt2e", "megatraveller"],
  profile: {
    character: [{ key: "dex", kind: "int", label: "VOLLEY.MegaTraveller.Dex", min: 0, max: 30, default: 7 }],
    skill: { key: "skill", kind: "int", label: "VOLLEY.MegaTraveller.Skill", hint: "VOLLEY.MegaTraveller.SkillHint", min: -10, max: 30, default: 0 },
    stats: [
      {
        key: "kind",
        kind: "select",
        label: "VOLLEY.MegaTraveller.Kind",
        options: WEAPON_KINDS,
        optionLabel: "VOLLEY.MegaTraveller.Kinds",
        default: "rifle",
      },
      { key: "rapid", kind: "flag", label: "VOLLEY.MegaTraveller.Rapid", hint: "VOLLEY.MegaTraveller.RapidHint", default: false },
      {
        key: "burst",
        kind: "select",
        label: "VOLLEY.MegaTraveller.Burst",
        options: BURST_SIZES,
        optionLabel: "VOLLEY.MegaTraveller.BurstSizes",
        optional: true,
        default: null,
        parse: (text) => ({ value: Number(text) }),
      },
      { key: "auto", kind: "flag", label: "VOLLEY.MegaTraveller.Auto", default: false },
      { key: "auto_targets", kind: "int", label: "VOLLEY.MegaTraveller.AutoTargets", min: 0, max: 10, default: 1 },
      { key: "capacity", kind: "int", label: "VOLLEY.MegaTraveller.Capacity", min: 1, max: 10000, default: 30 },
    ],
    state: [
      { key: "loaded", kind: "int", label: "VOLLEY.MegaTraveller.Loaded", min: 0, max: 10000, default: 30 },
      {
        key: "readiness",
        kind: "select",
        label: "VOLLEY.MegaTraveller.Readiness",
        options: READINESS,
        optionLabel: "VOLLEY.MegaTraveller.Readinesses",
        default: "ready",
      },
      {
        key: "selector",
        kind: "select",
        label: "VOLLEY.MegaTraveller.Selector",
        options: SELECTOR,
        optionLabel: "VOLLEY.MegaTraveller.Selectors",
        default: "single",
      },
    ],
    // The selector is on a setting the weapon has (#31: the rules refuse every action otherwise).
    check: (weapon) => [
      ...loadedWithinCapacity(weapon),
      ...(typeof weapon.state.selector === "string" && !weaponSelectors(weapon.stats).includes(/** @type {any} */ (weapon.state.selector))
        ? [{ field: "state.selector", problem: { key: "VOLLEY.MegaTraveller.Form.NoSuchSetting" } }]
        : []),
    ],
  },
  readout: standardReadout,
  weaponStateKey: (key) => (WEAPON_KEYS.has(key) ? key : standardWeaponStateKey(key)),
  buildRequest: buildMegaTravellerRequest,
  buildAllocation: buildMegaTravellerAllocation,
  previewActions: ["attack"],
  choice: megatravellerChoice,
  dialog: () => import("./attack-dialog.js"),
  allocationDialog: () => import("./allocation-dialog.js"),
  cardExtras,
  cardRows,
};

registerSystem(megatraveller);

export default megatraveller;
