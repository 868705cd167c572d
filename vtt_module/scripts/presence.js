/**
 * Which game masters' browsers are open, browser by browser.
 *
 * Foundry knows users, not browsers: `game.users.activeGM` and `user.active` say a GM is connected,
 * not in how many tabs or on how many screens. The bridge connection, though, belongs to one browser.
 * So each GM browser says, over the module socket, that it is here (a random id for this page load,
 * whether it has an access token, when it started), says it again every few seconds and when a new
 * client asks, and says goodbye when the page goes (`pagehide`). Every client keeps the same list and
 * runs the same election on it (gm-election.js `electHolderBrowser`).
 *
 * Who a browser belongs to is never taken from the message: it is the sender id Foundry's server puts
 * on every module socket message (v13 `ClientSocket`/server `module.<id>` relay: handlers are called
 * `(data, senderUserId)`), and only a user who is a GM may be listed. A browser not heard from for
 * `expiryMs` (it crashed, or lost its network) is dropped, so another takes over.
 *
 * Pure: socket, clock and timers are injected.
 */

/** Socket message kinds, on the relay's channel. */
export const PRESENCE_KIND = Object.freeze({
  HERE: "volley.here",
  GONE: "volley.gone",
  ASK: "volley.here?",
});

/** How often a GM browser says it is still here, and when silence means it is gone. */
export const PRESENCE_TIMING = Object.freeze({ heartbeatMs: 5_000, expiryMs: 20_000, settleMs: 1_000 });

/**
 * A table's own settle time, from `CONFIG.volley.presence.settleMs` (set by a world script or a module
 * before `ready`): a table whose Foundry server relays socket messages slowly can have a GM browser wait
 * longer before it puts itself forward; the sandbox, which knows every browser at its table, lets a lone
 * GM browser skip the wait. Only a finite number of milliseconds from 0 to a minute is taken; anything
 * else leaves `PRESENCE_TIMING.settleMs`. (The heartbeat and expiry are not a table's to change: the
 * relay's timeouts are computed from them.)
 * @param {unknown} config
 * @returns {{settleMs?: number}}
 */
export function presenceTimingFrom(config) {
  const settleMs = typeof config === "object" && config !== null ? /** @type {{settleMs?: unknown}} */ (config).settleMs : undefined;
  return typeof settleMs === "number" && Number.isFinite(settleMs) && settleMs >= 0 && settleMs <= 60_000 ? { settleMs } : {};
}

/** Longest browser id kept (ours are 32 hex digits). */
const MAX_BROWSER = 64;

/**
 * How often a browser answers one sender's question (`volley.here?`, `volley.status?`): a few answers
 * (`ANSWER_BURST`) per interval at most. A newcomer asks once or twice as it starts; a console loop
 * asking a thousand times a second gets a few answers a second, sent to it alone, and makes no one
 * else's browser broadcast anything.
 */
export const ANSWER_INTERVAL_MS = 1_000;
export const ANSWER_BURST = 3;

/**
 * At most `burst` answers per sender per interval. A question past that is not dropped: it gets one
 * answer as the interval ends (several such questions share it), so the latest asker always hears the
 * state as it is by then.
 */
export class AnswerThrottle {
  /** Each sender's current interval: when it began, how many answers it has had. @type {Map<string, {since: number, answered: number}>} */
  #windows = new Map();
  /** Senders with an answer waiting for their interval's end. @type {Set<string>} */
  #waiting = new Set();

  /**
   * @param {{intervalMs?: number, burst?: number, now?: () => number,
   *   timers?: {setTimeout(fn: () => void, ms: number): unknown}}} [options]
   */
  constructor({ intervalMs = ANSWER_INTERVAL_MS, burst = ANSWER_BURST, now = () => Date.now(), timers } = {}) {
    this.intervalMs = intervalMs;
    this.burst = burst;
    this.now = now;
    this.timers = timers ?? { setTimeout: (/** @type {() => void} */ fn, /** @type {number} */ ms) => globalThis.setTimeout(fn, ms) };
  }

  /**
   * A sender asked: answer now, or once its interval is over.
   * @param {string} sender
   * @param {() => void} answer
   * @returns {boolean} whether it was answered at once
   */
  ask(sender, answer) {
    if (this.#waiting.has(sender)) return false;
    const now = this.now();
    let window = this.#windows.get(sender);
    if (!window || now - window.since >= this.intervalMs) {
      window = { since: now, answered: 0 };
      this.#windows.set(sender, window);
    }
    if (window.answered < this.burst) {
      window.answered += 1;
      answer();
      return true;
    }
    this.#waiting.add(sender);
    this.timers.setTimeout(() => {
      this.#waiting.delete(sender);
      this.#windows.set(sender, { since: this.now(), answered: 1 });
      answer();
    }, window.since + this.intervalMs - now);
    return false;
  }
}

/**
 * @typedef {import("./gm-election.js").BrowserLike} BrowserLike
 * @typedef {BrowserLike & {seen: number}} Seen
 * @typedef {{emit(name: string, data: unknown): void}} Emitter
 * @typedef {{recipients: string[]}} Routing a module socket event sent to these users' browsers only
 * @typedef {{setInterval(fn: () => void, ms: number): unknown, clearInterval(handle: unknown): void,
 *   setTimeout(fn: () => void, ms: number): unknown}} PresenceTimers
 */

/** A fresh id for this page load (not kept across a reload: a reloaded page is a new browser). */
export function newBrowserId(source = globalThis.crypto) {
  const bytes = source.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export class Presence {
  /** @type {Map<string, Seen>} */
  #browsers = new Map();
  #settled = false;
  /** @type {unknown} */
  #beat = null;

  /** Answers to `volley.here?`, per asker. */
  #answers;

  /**
   * @param {{emit: (data: unknown, routing?: Routing) => void, browser: string, userId: () => string, isGm: (userId: string) => boolean,
   *   hasToken: () => boolean, now?: () => number, timers?: PresenceTimers, onChange?: () => void,
   *   timing?: {heartbeatMs?: number, expiryMs?: number, settleMs?: number}}} options `emit` sends on the module channel (to everyone,
   *   or with `routing` to those users only)
   */
  constructor({ emit, browser, userId, isGm, hasToken, now = () => Date.now(), timers, onChange = () => {}, timing = {} }) {
    this.emit = emit;
    this.browser = browser;
    this.userId = userId;
    this.isGm = isGm;
    this.hasToken = hasToken;
    this.now = now;
    this.since = now();
    this.onChange = onChange;
    this.timing = { ...PRESENCE_TIMING, ...timing };
    this.timers = timers ?? {
      setInterval: (/** @type {() => void} */ fn, /** @type {number} */ ms) => globalThis.setInterval(fn, ms),
      clearInterval: (/** @type {any} */ handle) => globalThis.clearInterval(handle),
      setTimeout: (/** @type {() => void} */ fn, /** @type {number} */ ms) => globalThis.setTimeout(fn, ms),
    };
    this.#answers = new AnswerThrottle({ now: this.now, timers: this.timers });
  }

  /** Say hello, ask who else is here, and keep saying it. A GM browser counts itself once settled. */
  start() {
    this.announce();
    this.emit({ kind: PRESENCE_KIND.ASK });
    this.#beat = this.timers.setInterval(() => {
      this.announce();
      this.sweep();
    }, this.timing.heartbeatMs);
    // Until the others have had a moment to answer, this browser does not put itself forward: a second
    // tab must not grab the bridge before it has heard that the first one holds it.
    this.timers.setTimeout(() => {
      this.#settled = true;
      this.onChange();
    }, this.timing.settleMs);
  }

  /** The page is going: tell the others now instead of letting them wait for the silence. */
  stop() {
    if (this.#beat !== null) this.timers.clearInterval(this.#beat);
    this.#beat = null;
    if (this.isGm(this.userId())) this.emit({ kind: PRESENCE_KIND.GONE, browser: this.browser });
  }

  /** Whether this browser has waited for the others to answer. */
  get settled() {
    return this.#settled;
  }

  /**
   * Say this GM browser is here: to everyone, or to one user's browsers (the answer to their question).
   * @param {string} [to]
   */
  announce(to) {
    if (!this.isGm(this.userId())) return;
    const here = { kind: PRESENCE_KIND.HERE, browser: this.browser, token: this.hasToken(), since: this.since };
    if (to === undefined) this.emit(here);
    else this.emit(here, { recipients: [to] });
  }

  /** Drop browsers not heard from for `expiryMs`. */
  sweep() {
    const cutoff = this.now() - this.timing.expiryMs;
    let changed = false;
    for (const [id, seen] of this.#browsers) {
      if (seen.seen < cutoff) {
        this.#browsers.delete(id);
        changed = true;
      }
    }
    if (changed) this.onChange();
  }

  /**
   * Foundry says a user left (its last browser closed): all its browsers are gone.
   * @param {string} userId
   */
  userLeft(userId) {
    let changed = false;
    for (const [id, seen] of this.#browsers) {
      if (seen.user === userId) {
        this.#browsers.delete(id);
        changed = true;
      }
    }
    if (changed) this.onChange();
  }

  /**
   * A presence message; returns whether it was one.
   * @param {Record<string, unknown>} data
   * @param {string | undefined} senderId the socket's sender (Foundry's, not the message's claim)
   */
  receive(data, senderId) {
    switch (data.kind) {
      case PRESENCE_KIND.HERE: {
        const browser = data.browser;
        if (typeof senderId !== "string" || !this.isGm(senderId)) return true; // only GMs' browsers count
        if (typeof browser !== "string" || !browser || browser.length > MAX_BROWSER || browser === this.browser) return true;
        const known = this.#browsers.get(browser);
        if (known && known.user !== senderId) return true; // another user's browser id: not yours to refresh
        const token = data.token === true;
        const since = typeof data.since === "number" && Number.isFinite(data.since) ? data.since : this.now();
        this.#browsers.set(browser, { browser, user: senderId, token, since, seen: this.now() });
        if (!known || known.token !== token || known.since !== since) this.onChange();
        return true;
      }
      case PRESENCE_KIND.GONE: {
        const known = typeof data.browser === "string" ? this.#browsers.get(data.browser) : undefined;
        if (known && known.user === senderId) {
          this.#browsers.delete(known.browser);
          this.onChange();
        }
        return true;
      }
      case PRESENCE_KIND.ASK:
        // Answered to the asker alone, and at most once a second each (AnswerThrottle).
        if (typeof senderId === "string" && senderId) this.#answers.ask(senderId, () => this.announce(senderId));
        return true;
      default:
        return false;
    }
  }

  /**
   * Every GM browser this client knows of, itself included once settled.
   * @returns {BrowserLike[]}
   */
  browsers() {
    const list = [...this.#browsers.values()].map(({ browser, user, token, since }) => ({ browser, user, token, since }));
    if (this.#settled && this.isGm(this.userId())) list.push({ browser: this.browser, user: this.userId(), token: this.hasToken(), since: this.since });
    return list;
  }
}
