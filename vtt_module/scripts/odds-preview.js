/**
 * The attack dialog's live preview: what the exact odds from the bridge mean at a glance.
 *
 * The bridge answers an `odds` request with, per target, `hits[k]` = the probability that exactly k
 * hits land, and `jam` = the chance the weapon ends the attack unable to fire. The dialog shows, per
 * target, the expected hits and the chance of at least one hit, plus the jam chance.
 *
 * Requests are debounced (typing "12" in the shots box asks once, not twice) and answers that arrive
 * after a newer question are dropped, so the preview never shows the odds of a stale form.
 *
 * Pure: the odds fetcher and the timers are injected.
 */

import { isPlainObject } from "./protocol.js";

/** Wait this long after the last change before asking the bridge. */
export const PREVIEW_DELAY_MS = 200;

/**
 * @typedef {{id: string, expected: number, atLeastOne: number, mostLikely: number, hits: number[]}} TargetSummary
 * @typedef {{targets: TargetSummary[], expectedTotal: number, jam: number}} OddsSummary
 */

/** @param {unknown} p */
function probability(p) {
  return typeof p === "number" && Number.isFinite(p) ? Math.min(1, Math.max(0, p)) : 0;
}

/**
 * @param {unknown} odds the bridge's `odds` object
 * @returns {OddsSummary}
 */
export function summariseOdds(odds) {
  const o = isPlainObject(odds) ? odds : {};
  const targets = (Array.isArray(o.targets) ? o.targets : []).map((raw) => {
    const t = isPlainObject(raw) ? raw : {};
    const hits = (Array.isArray(t.hits) ? t.hits : []).map(probability);
    let expected = 0;
    let mostLikely = 0;
    hits.forEach((p, k) => {
      expected += k * p;
      if (p > (hits[mostLikely] ?? 0)) mostLikely = k;
    });
    const atLeastOne = hits.length ? Math.min(1, Math.max(0, 1 - (hits[0] ?? 0))) : 0;
    return { id: typeof t.id === "string" ? t.id : "", expected, atLeastOne, mostLikely, hits };
  });
  return {
    targets,
    expectedTotal: targets.reduce((sum, t) => sum + t.expected, 0),
    jam: probability(o.jam),
  };
}

/**
 * "37.5%", "<0.1%" for a small chance that is not zero, ">99.9%" for one short of certain.
 * @param {number} p
 */
export function formatPercent(p) {
  if (p <= 0) return "0%";
  if (p >= 1) return "100%";
  if (p < 0.001) return "<0.1%";
  if (p > 0.999) return ">99.9%";
  const pct = p * 100;
  return `${pct.toFixed(pct < 10 ? 1 : 0)}%`;
}

/** @param {number} x */
export function formatHits(x) {
  return x.toFixed(2);
}

/**
 * Debounced, latest-wins odds fetching for one dialog.
 */
export class OddsPreview {
  #seq = 0;
  /** @type {unknown} */
  #timer = null;

  /**
   * @param {{
   *   fetchOdds: (request: Record<string, unknown>) => Promise<unknown>,
   *   onSummary: (summary: OddsSummary | null, error?: unknown) => void,
   *   delayMs?: number, timers?: import("./connection.js").Timers
   * }} options
   */
  constructor({ fetchOdds, onSummary, delayMs = PREVIEW_DELAY_MS, timers }) {
    this.fetchOdds = fetchOdds;
    this.onSummary = onSummary;
    this.delayMs = delayMs;
    this.timers = timers ?? {
      setTimeout: (/** @type {() => void} */ fn, /** @type {number} */ ms) => globalThis.setTimeout(fn, ms),
      clearTimeout: (/** @type {any} */ handle) => globalThis.clearTimeout(handle),
    };
  }

  /**
   * Ask for the odds of `request` once the form has been still for `delayMs`.
   * `null` clears the preview (the form is not a valid request yet).
   * @param {Record<string, unknown> | null} request
   */
  update(request) {
    const seq = ++this.#seq;
    this.timers.clearTimeout(this.#timer);
    if (request === null) {
      this.#timer = null;
      this.onSummary(null);
      return;
    }
    this.#timer = this.timers.setTimeout(() => {
      this.#timer = null;
      this.fetchOdds(request).then(
        (odds) => {
          if (seq === this.#seq) this.onSummary(summariseOdds(odds));
        },
        (error) => {
          if (seq === this.#seq) this.onSummary(null, error);
        },
      );
    }, this.delayMs);
  }

  /** Forget any question in flight (the dialog closed). */
  cancel() {
    this.#seq += 1;
    this.timers.clearTimeout(this.#timer);
    this.#timer = null;
  }
}
