/**
 * The lines a d100 card shows under its table (seed 004): the mode fired, what it cost the shooter's
 * turn, the rounds fired, spoiled by a jam or won back, an overwatch order set (or lifted), and who
 * must now spend its actions reaching
 * cover (a suppressed character out of cover that can reach it; one that cannot goes prone, which the
 * table shows as a status).
 *
 * Pure: the result is the bridge's, read defensively (it comes back from a chat message's flags).
 */

import { isPlainObject } from "../../protocol.js";

/** The modes a result may name, each with its words under `VOLLEY.D100.Modes`. */
const MODES = new Set(["single", "short_burst", "long_burst", "wide_short_burst", "wide_long_burst", "suppressing"]);
const COSTS = new Set(["half", "full"]);
const ORDER_MODES = new Set(["single", "short_burst", "long_burst"]);
/** The hit locations a result may name, each with its words under `VOLLEY.Msg.d100.location`. */
const LOCATIONS = new Set(["head", "right_arm", "left_arm", "body", "right_leg", "left_leg"]);

/**
 * A standing overwatch order as the card shows it (its mode, facing, sector and trigger), or that it
 * was lifted.
 * @param {unknown} order the result's `attacker.overwatch`
 * @returns {import("../../registry.js").CardExtra[]}
 */
function orderLines(order) {
  if (!isPlainObject(order)) return [{ label: "VOLLEY.D100.Card.Overwatch", value: { key: "VOLLEY.D100.Card.Lifted" } }];
  /** @type {import("../../registry.js").CardExtra[]} */
  const lines = [];
  if (typeof order.mode === "string" && ORDER_MODES.has(order.mode)) lines.push({ label: "VOLLEY.D100.Card.Overwatch", value: { key: `VOLLEY.D100.Modes.${order.mode}` } });
  if (typeof order.facing === "number" && Number.isFinite(order.facing)) lines.push({ label: "VOLLEY.D100.Card.Facing", value: `${Math.round(order.facing)}°` });
  if (typeof order.arc === "number" && Number.isFinite(order.arc)) lines.push({ label: "VOLLEY.D100.Card.Arc", value: `${Math.round(order.arc)}°` });
  if (typeof order.trigger === "string" && order.trigger) lines.push({ label: "VOLLEY.D100.Card.Trigger", value: order.trigger.slice(0, 120) });
  return lines;
}

/** The actions whose card hits nobody: a test, a recovery, entering melee (no Hits column). */
const NO_HITS = new Set(["suppression_test", "recover", "enter_melee"]);

/**
 * Whether a result's card has a Hits column: not a suppression test's or a recovery's.
 * @param {unknown} result
 */
export function d100CardHits(result) {
  return !(isPlainObject(result) && NO_HITS.has(String(result.action)));
}

/**
 * A d100 test's face and target for a card's note: "rolled 90 against 18".
 * @param {unknown} test
 */
function rolled(test) {
  const t = isPlainObject(test) ? test : {};
  return { roll: Number(t.roll) || 0, need: Number(t.target) || 0, degrees: Number(t.degrees) || 0 };
}

/**
 * What each target's row says on the card's face (seed 004): where its hits struck, and how its
 * suppression test went, passed or failed, per token (a recovery: recovered or still suppressed). The
 * dice stay in the Rolls.
 * @param {unknown} result
 * @returns {import("../../registry.js").CardRowNote[]}
 */
export function d100CardRows(result) {
  const r = isPlainObject(result) ? result : {};
  const recovering = r.action === "recover";
  return (Array.isArray(r.targets) ? r.targets : [])
    .filter((t) => isPlainObject(t) && typeof t.id === "string")
    .map((raw) => {
      const t = /** @type {Record<string, any>} */ (raw);
      /** @type {import("../../registry.js").CardNote[]} */
      const notes = [];
      const places = (Array.isArray(t.locations) ? t.locations : []).filter((l) => typeof l === "string" && LOCATIONS.has(l));
      if (places.length) notes.push({ key: "VOLLEY.D100.Card.Locations", values: { locations: places.slice(0, 12).map((l) => ({ key: `VOLLEY.Msg.d100.location.${l}` })) } });
      const test = isPlainObject(t.suppression) ? t.suppression : null;
      if (test && isPlainObject(test.test)) {
        const passed = test.passed === true;
        const key = recovering ? (passed ? "VOLLEY.D100.Card.RecoversFrom" : "VOLLEY.D100.Card.StillSuppressed") : passed ? "VOLLEY.D100.Card.TestPassed" : "VOLLEY.D100.Card.TestFailed";
        notes.push({ key, values: { ...rolled(test.test), modifier: signed(Number(test.modifier) || 0) }, tone: passed ? "good" : "bad" });
      } else if (test && test.passed === true && !recovering) {
        notes.push({ key: "VOLLEY.D100.Card.NotTested", tone: "good" });
      }
      return { target: t.id, notes };
    });
}

/** @param {number} n "+20", "−10", "+0" */
function signed(n) {
  return n < 0 ? `−${Math.abs(n)}` : `+${n}`;
}

/**
 * The weapon's upkeep on the card's face: a jam cleared or not, rounds recovered or still spoiled.
 * @param {Record<string, any>} r
 * @returns {import("../../registry.js").CardExtra[]}
 */
function upkeepLines(r) {
  if (!isPlainObject(r.test)) return [];
  const values = rolled(r.test);
  const passed = r.test.success === true;
  if (r.action === "unjam") {
    return [{ label: "VOLLEY.D100.Card.Unjam", value: { key: passed ? "VOLLEY.D100.Card.Cleared" : "VOLLEY.D100.Card.StillJammed", values }, tone: passed ? "good" : "bad" }];
  }
  if (r.action === "recover_ammo") {
    const spoiled = Number(r.weapon?.spoiled) || 0;
    return [
      {
        label: "VOLLEY.D100.Dialog.RecoverAmmo",
        value: passed ? { key: "VOLLEY.D100.Card.AmmoBack", values: { ...values, n: Number(r.recovered) || 0 } } : { key: "VOLLEY.D100.Card.AmmoStillSpoiled", values: { ...values, n: spoiled } },
        tone: passed ? "good" : "bad",
      },
    ];
  }
  return [];
}

/**
 * @param {unknown} result
 * @returns {import("../../registry.js").CardExtra[]}
 */
export function d100CardExtras(result) {
  const r = isPlainObject(result) ? result : {};
  /** @type {import("../../registry.js").CardExtra[]} */
  const extras = upkeepLines(r);
  const firing = r.action === "attack" || r.action === "overwatch_fire";
  if (firing && typeof r.mode === "string" && MODES.has(r.mode)) extras.push({ label: "VOLLEY.D100.Card.Mode", value: { key: `VOLLEY.D100.Modes.${r.mode}` } });
  if (typeof r.action_cost === "string" && COSTS.has(r.action_cost)) {
    extras.push({ label: "VOLLEY.D100.Card.Cost", value: { key: `VOLLEY.D100.Costs.${r.action_cost}` } });
  }
  if (firing && typeof r.spent === "number") extras.push({ label: "VOLLEY.Card.RoundsFired", value: r.spent });
  if (typeof r.spoiled === "number" && r.spoiled > 0) extras.push({ label: "VOLLEY.D100.Card.Spoiled", value: r.spoiled });
  if (typeof r.recovered === "number" && r.recovered > 0 && !(r.action === "recover_ammo" && isPlainObject(r.test))) extras.push({ label: "VOLLEY.D100.Card.Recovered", value: r.recovered });
  if (r.action === "overwatch") extras.push(...orderLines(isPlainObject(r.attacker) ? r.attacker.overwatch : null));
  const seeking = (Array.isArray(r.targets) ? r.targets : [])
    .filter((t) => isPlainObject(t) && t.must_seek_cover === true)
    .map((t) => String(/** @type {Record<string, unknown>} */ (t).name ?? /** @type {Record<string, unknown>} */ (t).id ?? "").slice(0, 60))
    .filter(Boolean);
  if (seeking.length) extras.push({ label: "VOLLEY.D100.Card.SeekCover", value: [...new Set(seeking)].slice(0, 8).join(", ") });
  return extras;
}
