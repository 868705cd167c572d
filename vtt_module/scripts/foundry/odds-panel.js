/**
 * The odds part of a Volley window (every attack dialog, the allocation step): the bridge's exact odds
 * for the form as it is, asked through an `OddsPreview` (at once, paced, one question in flight,
 * "bridge offline" at once), drawn as a bar chart per token with its words, and said to a screen reader once
 * they settle: "asking the bridge…" only when the answer is slow, the odds once, or why there are none.
 *
 * The window keeps one panel, tells it what to ask (`ask`) or why nothing can be asked (`clear`), draws
 * `view(...)` in its preview part when the panel says it changed, and `cancel`s it on close.
 */

import { chartView, formatPercent, OddsPreview } from "../odds-preview.js";
import { newRequestId } from "../protocol.js";
import { announcer } from "./live-regions.js";
import { bridgeOnline, sendRelayed } from "./bridge.js";
import { decimalSeparator, problemText, t } from "./words.js";

/** "asking the bridge…" is read only when the answer takes longer than this (ms). */
const ASKING_SAID_AFTER_MS = 1200;

/**
 * @typedef {import("../odds-preview.js").OddsSummary} OddsSummary
 * @typedef {{id: string, name: string}} TargetRef
 * @typedef {"idle" | "asking" | "ready" | "problem" | "blocked"} PanelState "blocked": no odds for a
 *   reason the window gives in its own words (a jam, a split the rules refuse); "problem": the bridge's
 *   or the form's refusal
 */

export class OddsPanel {
  /** @type {OddsSummary | null} */
  summary = null;
  /** The bridge's last `odds` as it came (a system may show more of it than the hit charts). @type {unknown} */
  odds = null;
  /** @type {PanelState} */
  state = "idle";
  /** @type {string | null} */
  problem = null;
  /** @type {OddsPreview} */
  #preview;
  /** @type {() => void} */
  #changed;

  /** @param {() => void} changed the odds, or why there are none, changed: the window redraws and says them */
  constructor(changed) {
    this.#changed = changed;
    this.#preview = new OddsPreview({
      fetchOdds: (choice) => this.#fetch(choice),
      onSummary: (summary, error) => this.show(summary, error),
      offline: () => (bridgeOnline() ? null : { message: t("VOLLEY.Dialog.Offline") }),
    });
  }

  /** @param {Record<string, unknown>} choice */
  async #fetch(choice) {
    const reply = await sendRelayed({ type: "odds", id: newRequestId(), choice: /** @type {import("../registry.js").Choice} */ (choice) });
    if (reply.type !== "odds") throw reply;
    this.odds = reply.odds;
    return reply.odds;
  }

  /**
   * Ask for the odds of `choice` once the form is still. Until the answer the charts on screen are
   * shown faded, as answering an older form.
   * @param {Record<string, unknown>} choice
   * @param {HTMLElement | null | undefined} root the window, to mark its charts stale at once
   */
  ask(choice, root) {
    this.#preview.update(choice);
    if (!bridgeOnline() || this.state === "asking") return;
    this.state = "asking";
    this.paint(root);
    announcer("odds").say(t("VOLLEY.Dialog.Asking"), { after: ASKING_SAID_AFTER_MS });
  }

  /**
   * Nothing to ask: the charts go, and with `why` (a FormError, or `{message, plain: true}` in the
   * window's own words) the preview says why.
   * @param {unknown} [why]
   */
  clear(why) {
    this.#preview.update(null);
    if (why) this.show(null, why);
  }

  /**
   * The odds came (or a refusal, or nothing).
   * @param {OddsSummary | null} summary
   * @param {unknown} [error]
   */
  show(summary, error) {
    this.summary = summary;
    if (error) {
      this.state = /** @type {{plain?: boolean}} */ (error).plain ? "blocked" : "problem";
      this.problem = problemText(error);
    } else {
      this.state = summary ? "ready" : "idle";
      this.problem = null;
    }
    this.#changed();
  }

  /**
   * The preview part's context: a chart per token, the lines a system adds, the jam chance.
   * @param {TargetRef[]} targets the tokens charted, in order
   * @param {{lines?: () => string[], jamLabel?: string | null, shown?: boolean, noShots?: (target: TargetRef) => string | null}} [how]
   *   `noShots`: the system's words for a token the answer gives no odds for (a d100 burst's token given
   *   no extra hits), null for the usual "no shots"; `lines`: a system's
   *   lines under the charts (asked only while the charts answer the form); `jamLabel`: the system's word
   *   for the jam chance (null: its weapons never jam, none is shown); `shown`: false for a form with no
   *   odds at all (setting an overwatch order)
   */
  view(targets, { lines = () => [], jamLabel = null, shown = true, noShots = () => null } = {}) {
    const decimal = decimalSeparator();
    const byId = new Map((this.summary?.targets ?? []).map((summary) => [summary.id, summary]));
    const rows = targets.map((target) => {
      const summary = byId.get(target.id);
      if (!summary) {
        // No odds at all (a problem, the bridge away, a question in flight) is not "no shots".
        const said = this.summary ? noShots(target) : null;
        const key = this.summary ? "VOLLEY.Chart.NoShots" : "VOLLEY.Chart.None";
        return { name: target.name, bars: /** @type {import("../odds-preview.js").BarView[]} */ ([]), summary: "—", description: said ?? t(key, { name: target.name }) };
      }
      const chart = chartView(summary, {
        name: target.name,
        decimal,
        hitsLabel: (k) => t("VOLLEY.Chart.Hits", { n: k }),
        describe: (parts) => t("VOLLEY.Chart.Description", parts),
      });
      return {
        name: target.name,
        bars: chart.bars,
        summary: t("VOLLEY.Chart.Summary", { expected: chart.expected, atLeastOne: chart.atLeastOne }),
        description: chart.description,
      };
    });
    let status = "";
    if (this.state === "asking") status = t("VOLLEY.Dialog.Asking");
    else if (this.state === "problem") status = t("VOLLEY.Dialog.NoOdds", { reason: this.problem ?? "" });
    else if (this.state === "blocked") status = this.problem ?? "";
    return {
      rows,
      lines: this.summary ? lines().slice(0, 16) : [],
      jam: this.summary ? formatPercent(this.summary.jam, decimal) : "—",
      jamLabel,
      status,
      problem: this.state === "problem" || this.state === "blocked",
      shown,
    };
  }

  /**
   * Say the new odds in a sentence per token (the charts' short summaries), or why there are none.
   * The announcer waits for the typing to settle and never repeats itself.
   * @param {TargetRef[]} targets
   * @param {() => string[]} [lines]
   */
  say(targets, lines) {
    const say = announcer("odds");
    const view = this.view(targets, { lines });
    if (this.state === "ready") {
      const said = view.rows.filter((row) => row.bars.length > 0).map((row) => `${row.name}: ${row.summary}`);
      say.say([...said, ...view.lines].join("; "));
    } else if (view.status) {
      say.say(view.status);
    } else {
      say.cancel();
    }
  }

  /**
   * Show "asking the bridge…" and fade the charts at once, without redrawing the part.
   * @param {HTMLElement | null | undefined} root
   */
  paint(root) {
    const status = root?.querySelector(".volley-attack__odds-status");
    if (status && this.state === "asking") status.textContent = t("VOLLEY.Dialog.Asking");
    root?.querySelector(".volley-attack__preview")?.classList.toggle("volley-attack__preview--stale", this.state === "asking");
  }

  /** The window closed: forget any question, say nothing more about it. */
  cancel() {
    this.#preview.cancel();
    announcer("odds").cancel();
  }
}
