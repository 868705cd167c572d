/**
 * What a screen reader hears from Volley, without spam.
 *
 * The words on screen change often: the bridge line counts down every second while it reconnects, the
 * odds status flips to "asking the bridge…" on every keystroke in a shots box. A live region over that
 * text would read all of it. An `Announcer` stands between the two: a message is written to its live
 * region only once things have settled (`settleMs` after the last `say`, the latest message winning),
 * never twice in a row, and a message given a delay (`after`) is dropped if anything replaces it
 * first, so a quick answer is read without the "asking" before it.
 *
 * Pure: the region is a `write` function, the clock is injected.
 */

/**
 * @typedef {{setTimeout: (fn: () => void, ms: number) => unknown, clearTimeout: (handle: any) => void}} Timers
 */

export class Announcer {
  /** What was last written to the region (not said again). */
  #spoken = "";
  /** @type {unknown} */
  #timer = null;

  /**
   * @param {{write: (text: string) => void, timers: Timers, settleMs?: number}} options
   */
  constructor({ write, timers, settleMs = 400 }) {
    this.write = write;
    this.timers = timers;
    this.settleMs = settleMs;
  }

  /**
   * Say `text` once things settle, unless something else is said first.
   * @param {string} text
   * @param {{after?: number}} [how] `after`: wait this long instead of `settleMs`
   */
  say(text, { after } = {}) {
    this.cancel();
    const words = text.trim();
    if (!words) return;
    this.#timer = this.timers.setTimeout(() => {
      this.#timer = null;
      if (words === this.#spoken) return;
      this.#spoken = words;
      this.write(words);
    }, after ?? this.settleMs);
  }

  /** Drop a message not yet said. */
  cancel() {
    if (this.#timer !== null) this.timers.clearTimeout(this.#timer);
    this.#timer = null;
  }

  /** Whether a message is waiting to be said. */
  get waiting() {
    return this.#timer !== null;
  }
}

/**
 * The bridge as a screen reader should hear about it: its state as one of "online", "refused" or
 * "offline" (a reconnect attempt, "connecting…" and "not known yet" are none of them, so a retry loop
 * says nothing), and whether a change is worth saying: only a change from one of those to another,
 * not the first state a page learns at load (the module's notification says that one).
 */
export class BridgeWatch {
  /** @type {"online" | "refused" | "offline" | null} */
  #heard = null;

  /**
   * @param {import("./bridge-status.js").BridgeState} state
   * @returns {"online" | "refused" | "offline" | null}
   */
  static group(state) {
    if (state === "ready") return "online";
    if (state === "refused") return "refused";
    if (state === "connecting" || state === "unknown") return null;
    return "offline";
  }

  /**
   * Whether this status is news worth saying.
   * @param {import("./bridge-status.js").BridgeState} state
   */
  changed(state) {
    const group = BridgeWatch.group(state);
    if (group === null || group === this.#heard) return false;
    const first = this.#heard === null;
    this.#heard = group;
    return !first;
  }
}
