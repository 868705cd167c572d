/**
 * The attack dialog's live preview: what the exact odds from the bridge mean at a glance.
 *
 * The bridge answers an `odds` request with, per target, `hits[k]` = the probability that exactly k
 * hits land, and `jam` = the chance the weapon ends the attack unable to fire. The dialog shows, per
 * target, a small bar chart of P(k hits) with a text alternative, the expected hits and the chance of
 * at least one, plus the jam chance.
 *
 * Traffic: a change is asked about at once when the bridge has not been asked for PREVIEW_SPACING_MS
 * (the bridge answers in a millisecond or two: waiting for the typing to stop cost a quarter of a second
 * on every keystroke); changes closer together than that are paced, and only the newest form of those
 * is asked, so a player dragging through a number field stays under the bridge's flood limit. At most
 * one question is in flight per dialog: a change made while the bridge is answering waits, and only the
 * newest waiting question is asked once the answer is in. Answers to a question older than the form are
 * dropped, so the preview never shows the odds of a stale form. With the bridge known to be down the
 * preview says so at once instead of waiting for a timeout. A question the bridge turned away for the
 * flood limit, or left unanswered past the connection's timeout (a slow machine: the answer may still
 * come, but to a request the connection has given up on), is asked again a few times before the preview
 * says why it has no odds: a preview that gave up once would otherwise stay empty until the form changes.
 *
 * Pure: the odds fetcher, the connection check, the timers and the clock are injected.
 */

import { isPlainObject } from "./protocol.js";

/**
 * Two questions are asked at least this far apart (ms). The bridge lets one user send 20 messages a
 * second, sustained (bridge/server/ratelimit.py RATE): a question every 60 ms is under 17 a second.
 */
export const PREVIEW_SPACING_MS = 60;

/**
 * A preview the bridge turned away for the flood limit (a busy table: six players previewing at once) is
 * asked again after this long, up to RATE_LIMIT_RETRIES times, instead of showing the refusal.
 */
export const RATE_LIMIT_RETRY_MS = 600;
export const RATE_LIMIT_RETRIES = 3;

/**
 * The refusals a preview asks again after (RATE_LIMIT_RETRY_MS later, RATE_LIMIT_RETRIES times at most):
 * the flood limit, and no answer within the connection's request timeout (a cold bridge on a busy machine).
 */
export const ASKED_AGAIN_AFTER = Object.freeze(["rate_limited", "timeout"]);

/** The chart shows at most this many bars per target; the rest are summed into the last ("k+"). */
export const MAX_BARS = 14;

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
  const targets = (Array.isArray(o.targets) ? o.targets : []).slice(0, 32).map((raw) => {
    const t = isPlainObject(raw) ? raw : {};
    const hits = (Array.isArray(t.hits) ? t.hits : []).slice(0, 1000).map(probability);
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
 * @param {string} [decimal] the language's decimal separator
 */
export function formatPercent(p, decimal = ".") {
  if (p <= 0) return "0%";
  if (p >= 1) return "100%";
  if (p < 0.001) return `<0${decimal}1%`;
  if (p > 0.999) return `>99${decimal}9%`;
  const pct = p * 100;
  return `${pct.toFixed(pct < 10 ? 1 : 0).replace(".", decimal)}%`;
}

/**
 * @param {number} x
 * @param {string} [decimal]
 */
export function formatHits(x, decimal = ".") {
  return x.toFixed(2).replace(".", decimal);
}

/**
 * @typedef {{hits: string, p: number, percent: string, height: number, mostLikely: boolean}} BarView
 * @typedef {{id: string, bars: BarView[], expected: string, atLeastOne: string, description: string}} ChartView
 */

/**
 * One target's bar chart: a bar per number of hits (the tail past MAX_BARS summed into "k+"), each
 * bar's height relative to the tallest, and the whole chart as one sentence for screen readers: every
 * bar, the expected hits, the chance of one at least, and the likeliest count (the bar drawn darker and
 * hatched, so the sentence says what the eye is shown).
 * @param {TargetSummary} target
 * @param {{name: string, decimal?: string, describe: (parts: {name: string, bars: string, expected: string, atLeastOne: string, mostLikely: string}) => string, hitsLabel: (k: number) => string}} words
 * @returns {ChartView}
 */
export function chartView(target, { name, decimal = ".", describe, hitsLabel }) {
  /** @type {{label: string, p: number, k: number}[]} */
  const columns = target.hits.slice(0, MAX_BARS - 1).map((p, k) => ({ label: String(k), p, k }));
  if (target.hits.length > MAX_BARS - 1) {
    const rest = target.hits.slice(MAX_BARS - 1).reduce((sum, p) => sum + p, 0);
    columns.push({ label: `${MAX_BARS - 1}+`, p: Math.min(1, rest), k: MAX_BARS - 1 });
  }
  // Trailing impossible outcomes (more hits than the shots fired can score) add nothing to read.
  while (columns.length > 1 && (columns.at(-1)?.p ?? 0) === 0) columns.pop();
  const tallest = Math.max(...columns.map((c) => c.p), 0);
  const bars = columns.map((c) => ({
    hits: c.label,
    p: c.p,
    percent: formatPercent(c.p, decimal),
    height: tallest > 0 ? Math.round((100 * c.p) / tallest) : 0,
    mostLikely: c.k === target.mostLikely,
  }));
  const expected = formatHits(target.expected, decimal);
  const atLeastOne = formatPercent(target.atLeastOne, decimal);
  const said = (/** @type {{label: string, k: number}} */ c) => `${hitsLabel(c.k)}${c.label.endsWith("+") ? "+" : ""}`;
  const barsText = columns
    .filter((c) => c.p > 0)
    .map((c) => `${said(c)} ${formatPercent(c.p, decimal)}`)
    .join(", ");
  const likeliest = columns.find((c) => c.k === target.mostLikely);
  const mostLikely = likeliest ? said(likeliest) : hitsLabel(target.mostLikely);
  return { id: target.id, bars, expected, atLeastOne, description: describe({ name, bars: barsText, expected, atLeastOne, mostLikely }) };
}

/**
 * Debounced, one-in-flight, latest-wins odds fetching for one dialog.
 */
export class OddsPreview {
  #seq = 0;
  /** @type {unknown} */
  #timer = null;
  #inFlight = false;
  /** @type {{seq: number, request: Record<string, unknown>} | null} */
  #waiting = null;
  /** When the bridge was last asked (`now()`), or never. */
  #lastAsked = -Infinity;

  /**
   * @param {{
   *   fetchOdds: (request: Record<string, unknown>) => Promise<unknown>,
   *   onSummary: (summary: OddsSummary | null, error?: unknown) => void,
   *   offline?: () => unknown, spacingMs?: number, timers?: import("./connection.js").Timers,
   *   now?: () => number
   * }} options `offline` returns why odds cannot be asked for now (the bridge is down), or nothing;
   *   `now` is the clock the spacing is kept by (ms)
   */
  constructor({ fetchOdds, onSummary, offline = () => null, spacingMs = PREVIEW_SPACING_MS, timers, now }) {
    this.fetchOdds = fetchOdds;
    this.onSummary = onSummary;
    this.offline = offline;
    this.spacingMs = spacingMs;
    this.now = now ?? (() => globalThis.performance.now());
    this.timers = timers ?? {
      setTimeout: (/** @type {() => void} */ fn, /** @type {number} */ ms) => globalThis.setTimeout(fn, ms),
      clearTimeout: (/** @type {any} */ handle) => globalThis.clearTimeout(handle),
    };
  }

  /** True while a question is with the bridge. */
  get inFlight() {
    return this.#inFlight;
  }

  /**
   * Ask for the odds of `request`: at once, or `spacingMs` after the last question if that was sooner
   * (a newer form asked for meanwhile takes its place). `null` clears the preview (the form is not a
   * valid request yet).
   * @param {Record<string, unknown> | null} request
   */
  update(request) {
    const seq = ++this.#seq;
    this.timers.clearTimeout(this.#timer);
    this.#timer = null;
    this.#waiting = null;
    if (request === null) {
      this.onSummary(null);
      return;
    }
    const down = this.offline();
    if (down) {
      this.onSummary(null, down);
      return;
    }
    const wait = this.#lastAsked + this.spacingMs - this.now();
    if (wait <= 0) {
      this.#ask(seq, request);
      return;
    }
    this.#timer = this.timers.setTimeout(() => {
      this.#timer = null;
      this.#ask(seq, request);
    }, wait);
  }

  /**
   * @param {number} seq
   * @param {Record<string, unknown>} request
   * @param {number} [retries] retries left after a refusal in ASKED_AGAIN_AFTER
   */
  #ask(seq, request, retries = RATE_LIMIT_RETRIES) {
    if (this.#inFlight) {
      this.#waiting = { seq, request }; // only the newest waits; older ones are never asked
      return;
    }
    this.#inFlight = true;
    this.#lastAsked = this.now();
    const settle = () => {
      this.#inFlight = false;
      const next = this.#waiting;
      this.#waiting = null;
      if (next && next.seq === this.#seq) this.#ask(next.seq, next.request);
    };
    this.fetchOdds(request).then(
      (odds) => {
        if (seq === this.#seq) this.onSummary(summariseOdds(odds));
        settle();
      },
      (error) => {
        const code = /** @type {{code?: unknown}} */ (error)?.code;
        const again = typeof code === "string" && ASKED_AGAIN_AFTER.includes(code);
        if (again && retries > 0 && seq === this.#seq && !this.#waiting) {
          // The table or the machine is busy: ask again shortly instead of showing the refusal.
          this.#inFlight = false;
          this.#timer = this.timers.setTimeout(() => {
            this.#timer = null;
            if (seq === this.#seq) this.#ask(seq, request, retries - 1);
          }, RATE_LIMIT_RETRY_MS);
          return;
        }
        if (seq === this.#seq) this.onSummary(null, error);
        settle();
      },
    );
  }

  /** Forget any question in flight or waiting (the dialog closed). */
  cancel() {
    this.#seq += 1;
    this.timers.clearTimeout(this.#timer);
    this.#timer = null;
    this.#waiting = null;
  }
}
