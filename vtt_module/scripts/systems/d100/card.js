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

/**
 * A standing overwatch order as the card shows it (its mode, facing, sector and trigger), or that it
 * was lifted.
 * @param {unknown} order the result's `attacker.overwatch`
 * @returns {import("../registry.js").CardExtra[]}
 */
function orderLines(order) {
  if (!isPlainObject(order)) return [{ label: "VOLLEY.D100.Card.Overwatch", value: { key: "VOLLEY.D100.Card.Lifted" } }];
  /** @type {import("../registry.js").CardExtra[]} */
  const lines = [];
  if (typeof order.mode === "string" && ORDER_MODES.has(order.mode)) lines.push({ label: "VOLLEY.D100.Card.Overwatch", value: { key: `VOLLEY.D100.Modes.${order.mode}` } });
  if (typeof order.facing === "number" && Number.isFinite(order.facing)) lines.push({ label: "VOLLEY.D100.Card.Facing", value: `${Math.round(order.facing)}°` });
  if (typeof order.arc === "number" && Number.isFinite(order.arc)) lines.push({ label: "VOLLEY.D100.Card.Arc", value: `${Math.round(order.arc)}°` });
  if (typeof order.trigger === "string" && order.trigger) lines.push({ label: "VOLLEY.D100.Card.Trigger", value: order.trigger.slice(0, 120) });
  return lines;
}

/**
 * @param {unknown} result
 * @returns {import("../registry.js").CardExtra[]}
 */
export function d100CardExtras(result) {
  const r = isPlainObject(result) ? result : {};
  /** @type {import("../registry.js").CardExtra[]} */
  const extras = [];
  const firing = r.action === "attack" || r.action === "overwatch_fire";
  if (firing && typeof r.mode === "string" && MODES.has(r.mode)) extras.push({ label: "VOLLEY.D100.Card.Mode", value: { key: `VOLLEY.D100.Modes.${r.mode}` } });
  if (typeof r.action_cost === "string" && COSTS.has(r.action_cost)) {
    extras.push({ label: "VOLLEY.D100.Card.Cost", value: { key: `VOLLEY.D100.Costs.${r.action_cost}` } });
  }
  if (firing && typeof r.spent === "number") extras.push({ label: "VOLLEY.Card.RoundsFired", value: r.spent });
  if (typeof r.spoiled === "number" && r.spoiled > 0) extras.push({ label: "VOLLEY.D100.Card.Spoiled", value: r.spoiled });
  if (typeof r.recovered === "number" && r.recovered > 0) extras.push({ label: "VOLLEY.D100.Card.Recovered", value: r.recovered });
  if (r.action === "overwatch") extras.push(...orderLines(isPlainObject(r.attacker) ? r.attacker.overwatch : null));
  const seeking = (Array.isArray(r.targets) ? r.targets : [])
    .filter((t) => isPlainObject(t) && t.must_seek_cover === true)
    .map((t) => String(/** @type {Record<string, unknown>} */ (t).name ?? /** @type {Record<string, unknown>} */ (t).id ?? "").slice(0, 60))
    .filter(Boolean);
  if (seeking.length) extras.push({ label: "VOLLEY.D100.Card.SeekCover", value: [...new Set(seeking)].slice(0, 8).join(", ") });
  return extras;
}
