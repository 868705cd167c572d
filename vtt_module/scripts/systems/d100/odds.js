/**
 * What the bridge's d100 odds say beyond the hit charts: the chance each target ends the action
 * suppressed, and prone (rules/d100/odds.py gives both per target, exact over the dice's faces).
 *
 * Suppressing fire makes everyone in range test; overwatch fire makes every target shot at test at +20;
 * a target that fails and cannot reach cover goes prone. A target already suppressed stays so (100%).
 *
 * Pure: the words come in.
 */

import { isPlainObject } from "../../protocol.js";

/**
 * @typedef {{id: string, name: string}} TargetRef
 * @typedef {{id: string, name: string, suppressed: number, prone: number}} MoraleOdds
 * @typedef {{percent: (p: number) => string,
 *   line: (parts: {name: string, suppressed: string, prone: string}) => string}} OddsWords
 */

/** @param {unknown} p */
function probability(p) {
  return typeof p === "number" && Number.isFinite(p) ? Math.min(1, Math.max(0, p)) : 0;
}

/**
 * Each target's chances to end suppressed and prone, in the dialog's order, for targets the odds name.
 * Single-shot overwatch may list a target once per shot; the last entry is how it ends.
 * @param {unknown} odds the bridge's `odds`
 * @param {TargetRef[]} targets the dialog's targets (for their names)
 * @returns {MoraleOdds[]}
 */
export function moraleOdds(odds, targets) {
  const entries = isPlainObject(odds) && Array.isArray(odds.targets) ? odds.targets : [];
  /** @type {Map<string, {suppressed: number, prone: number}>} */
  const byId = new Map();
  for (const raw of entries.slice(0, 64)) {
    if (!isPlainObject(raw) || typeof raw.id !== "string") continue;
    byId.set(raw.id, { suppressed: probability(raw.suppressed), prone: probability(raw.prone) });
  }
  return targets.flatMap((target) => {
    const found = byId.get(target.id);
    return found ? [{ id: target.id, name: target.name, ...found }] : [];
  });
}

/**
 * One line per target that could end suppressed or prone ("Heretic: suppressed 42%, prone 10%");
 * nothing when no target tests.
 * @param {unknown} odds
 * @param {TargetRef[]} targets
 * @param {OddsWords} words
 * @returns {string[]}
 */
export function d100OddsLines(odds, targets, words) {
  return moraleOdds(odds, targets)
    .filter((one) => one.suppressed > 0 || one.prone > 0)
    .map((one) => words.line({ name: one.name, suppressed: words.percent(one.suppressed), prone: words.percent(one.prone) }));
}
