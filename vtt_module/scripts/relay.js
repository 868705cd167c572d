/**
 * Players reach the bridge through the referee: a player's choice travels over the module's Foundry
 * socket to the browser that holds the bridge connection, which checks it, builds the rules request
 * from the actor's own numbers, and forwards it on its one connection.
 *
 * A player sends a **choice**, never a rules request: which token acts with which weapon, and what a
 * player decides (mode, targets, shots, allocation, situational modifiers). The referee's browser reads
 * the skill, the weapon's statistics and the rounds loaded from the documents, so a player cannot fire
 * a magazine the token does not hold or raise their own skill, and can never script the dice.
 *
 * The checks (made in ./relay-checks.js), where Foundry knows who owns what:
 * - only `attack`, `action`, `odds`, `allocate`, `undo` and `cancel` are relayed;
 * - the acting token (`choice.token`) must be one the sending user owns;
 * - a player names only tokens they can see (`choice.targets`, `choice.tokens`): a token the GM has
 *   hidden, or one on another scene than the shooter's, is refused with a reason that does not name it
 *   (issue #32), so a player cannot learn a hidden token's name, odds or place by its id;
 * - `undo` is for game masters only; `cancel` (a pending two-step attack, issue #31) for the token's
 *   owner and game masters.
 * The answer goes back to the requesting user only, keyed by the request id. The holder also
 * broadcasts the connection's state, so every client can say "bridge offline" at once.
 *
 * Trust (issue #17). Module socket messages reach every client, and a player can emit anything from
 * the console; only the sender id Foundry's server puts on a message (`(data, senderUserId)`) is
 * true. So:
 * - a request is served only when its claimed `from` is that sender, and only by the browser it is
 *   addressed to (`to`, the holder's browser id), so two tabs never both answer one shot;
 * - a reply or a status is accepted only from the holder's browser: sent by the holder's user, naming
 *   the holder's browser id (a player cannot be a GM's sender id);
 * - the bridge's idempotency key of a relayed request is `requestKey(user, id)`: the requesting user is
 *   part of it, so no user can read or replay another's result by sending their id;
 * - a reply to a private, blind or self roll travels without the card, the result and the updates
 *   (every client's JavaScript receives a module socket message); the requester reads what core lets
 *   them read on the chat card itself.
 *
 * Handover: a player keeps every request until it is answered (for `timeoutMs`, which covers the
 * bridge's own timeout plus a takeover) and sends it again, with the same id, whenever another browser
 * takes the bridge or the holder says it is connected again. The holder answers a repeated key from the
 * bridge's journal and its own card (referee.js): one roll, one card, the updates applied once.
 *
 * Pure: the Foundry socket, the ownership and GM tests and the forwarding are injected.
 */

import { isMessage } from "./i18n/format.js";
import { AnswerThrottle } from "./presence.js";
import { isPlainObject } from "./protocol.js";
import { refusal, requestKey, vetRelayed, wireReply } from "./relay-checks.js";

// What a relayed message may be, and how a refusal and a private reply look, are ./relay-checks.js;
// exported here too, as the relay's own words.
export { MAX_ID, RELAYED_TYPES, refusal, requestKey, vetRelayed, wireReply } from "./relay-checks.js";

/** The module's socket channel (`socket: true` in module.json). */
export const SOCKET_NAME = "module.volley";

export const RELAY_KIND = Object.freeze({
  REQUEST: "volley.request",
  REPLY: "volley.reply",
  STATUS: "volley.status",
  ASK_STATUS: "volley.status?",
});

/** How long a player waits for the referee's answer when nothing else is known (see relayTimeoutMs). */
export const RELAY_TIMEOUT_MS = 50_000;

/**
 * How long a player waits: the bridge's own timeout, plus the time to notice a crashed holder and for
 * another browser to take over and ask the bridge again, plus a margin for a busy table.
 * @param {number} bridgeTimeoutMs
 * @param {{expiryMs: number, settleMs: number}} presence
 */
export function relayTimeoutMs(bridgeTimeoutMs, presence) {
  return bridgeTimeoutMs * 2 + presence.expiryMs + presence.settleMs + 10_000;
}

/**
 * @typedef {import("./protocol.js").BridgeMessage} BridgeMessage
 * @typedef {import("./relay-checks.js").ChoiceMessage} ChoiceMessage
 * @typedef {import("./relay-checks.js").UndoMessage} UndoMessage
 * @typedef {import("./relay-checks.js").RevealMessage} RevealMessage
 * @typedef {import("./relay-checks.js").CancelMessage} CancelMessage
 * @typedef {import("./relay-checks.js").RelayedMessage} RelayedMessage
 * @typedef {{emit(name: string, data: unknown, routing?: {recipients: string[]}): void, on(name: string, fn: (data: any, senderId?: string) => void): void}} SocketLike
 *   Foundry's module socket: `routing.recipients` sends to those users' browsers only
 * @typedef {{user: string, browser: string}} HolderRef the browser holding the bridge, and its user
 * @typedef {import("./connection.js").Timers} Timers
 */

export class Relay {
  /** @type {Map<string, {message: RelayedMessage | Record<string, unknown>, resolve: (reply: BridgeMessage) => void, timer: unknown, sentTo: string | null}>} */
  #waiting = new Map();
  /** Requests being served on this (holder) browser, by key: a repeat joins the first. @type {Map<string, Promise<BridgeMessage>>} */
  #serving = new Map();
  /** @type {Set<(status: unknown) => void>} */
  #statusListeners = new Set();
  /** @type {Set<(data: Record<string, unknown>, senderId: string | undefined) => boolean>} */
  #others = new Set();
  /** Answers to `volley.status?`, per asker. @type {AnswerThrottle} */
  #statusAnswers;

  /**
   * @param {{
   *   socket: SocketLike, userId: () => string, browser?: string, holder: () => HolderRef | null,
   *   ownsToken: (userId: string, tokenId: string) => boolean, isGm: (userId: string) => boolean,
   *   forward: (message: RelayedMessage, userId: string) => Promise<BridgeMessage>,
   *   currentStatus?: () => unknown, timers?: Timers, timeoutMs?: number | (() => number), now?: () => number,
   *   maySee?: (userId: string, shooterId: string, tokenId: string) => boolean
   * }} options `forward` is the holder's own handling (build the request, ask the bridge, post the card,
   *   apply the updates) and resolves with the bridge's answer, its `id` the key it was asked under;
   *   `currentStatus` is the holder's connection state as it goes on the wire; `holder` is the elected
   *   browser (null when no GM browser is there); `browser` is this page's own browser id
   */
  constructor({ socket, userId, browser = "", holder, ownsToken, isGm, forward, currentStatus, timers, timeoutMs = RELAY_TIMEOUT_MS, now, maySee }) {
    this.socket = socket;
    this.userId = userId;
    this.browser = browser;
    this.holder = holder;
    this.ownsToken = ownsToken;
    this.isGm = isGm;
    this.maySee = maySee ?? (() => true);
    this.forward = forward;
    this.currentStatus = currentStatus ?? (() => null);
    this.timers = timers ?? {
      setTimeout: (/** @type {() => void} */ fn, /** @type {number} */ ms) => globalThis.setTimeout(fn, ms),
      clearTimeout: (/** @type {any} */ handle) => globalThis.clearTimeout(handle),
    };
    this.timeoutMs = typeof timeoutMs === "function" ? timeoutMs : () => timeoutMs;
    this.#statusAnswers = new AnswerThrottle({ timers: this.timers, now: now ?? (() => Date.now()) });
  }

  /** Whether this browser holds the bridge. */
  isHolder() {
    const holder = this.holder();
    return holder !== null && holder.browser === this.browser && holder.user === this.userId();
  }

  /** Listen on the module socket. Call once, in `ready`. */
  attach() {
    this.socket.on(SOCKET_NAME, (data, senderId) => {
      void this.receive(data, senderId);
    });
  }

  /**
   * Other messages on the module channel (presence.js): a handler returns true when it took one.
   * @param {(data: Record<string, unknown>, senderId: string | undefined) => boolean} handler
   */
  also(handler) {
    this.#others.add(handler);
  }

  /**
   * Send on the module channel: to every other browser, or with `routing` to those users' only.
   * @param {unknown} data
   * @param {{recipients: string[]}} [routing]
   */
  emit(data, routing) {
    if (routing) this.socket.emit(SOCKET_NAME, data, routing);
    else this.socket.emit(SOCKET_NAME, data);
  }

  /**
   * Send a relayed message from this user: to the bridge directly when this browser holds it,
   * otherwise through the holder. Resolves with the bridge's answer or an `error` message.
   * @param {RelayedMessage | Record<string, unknown>} message
   * @returns {Promise<BridgeMessage>}
   */
  async send(message) {
    if (this.isHolder()) {
      const reply = await this.serve(message, this.userId());
      const out = { ...reply };
      delete out.visibility;
      return out;
    }
    const id = message.id;
    if (typeof id !== "string" || !id) return refusal(null, "invalid", "a relayed message needs an id");
    if (!this.holder()) return refusal(id, "no_gm", "no referee is connected to hold the bridge");
    const earlier = this.#waiting.get(id);
    if (earlier) return new Promise((resolve) => {
      const first = earlier.resolve;
      earlier.resolve = (reply) => {
        first(reply);
        resolve(reply);
      };
    });
    return new Promise((resolve) => {
      const timer = this.timers.setTimeout(() => {
        this.#waiting.delete(id);
        resolve(refusal(id, "no_gm", "no referee answered; is a GM connected to the bridge?"));
      }, this.timeoutMs());
      this.#waiting.set(id, { message, resolve, timer, sentTo: null });
      this.#dispatch(id);
    });
  }

  /**
   * Send (again) a waiting request to the browser that holds the bridge now, under the same id.
   * @param {string} id
   */
  #dispatch(id) {
    const waiting = this.#waiting.get(id);
    const holder = this.holder();
    if (!waiting || !holder) return;
    waiting.sentTo = holder.browser;
    this.emit({ kind: RELAY_KIND.REQUEST, from: this.userId(), browser: this.browser, to: holder.browser, message: waiting.message });
  }

  /**
   * Another browser holds the bridge now, or the holder has (re)connected: every request still waiting
   * goes to it again, with its own id (the holder answers a repeat from the bridge's journal).
   */
  resend() {
    if (this.isHolder()) {
      // This browser took over: its own waiting requests are served here.
      for (const [id, waiting] of [...this.#waiting]) {
        this.#waiting.delete(id);
        this.timers.clearTimeout(waiting.timer);
        void this.send(waiting.message).then(waiting.resolve);
      }
      return;
    }
    for (const id of this.#waiting.keys()) this.#dispatch(id);
  }

  /** How many requests of this browser wait for an answer. */
  get waitingCount() {
    return this.#waiting.size;
  }

  /**
   * The holder's side: vet a message from `userId` and forward it under the user's key. Never throws:
   * failures come back as `error` messages for the requester. The answer carries the requester's id.
   * @param {unknown} message
   * @param {string} userId
   * @returns {Promise<BridgeMessage>}
   */
  async serve(message, userId) {
    const vetted = vetRelayed(message, userId, { ownsToken: this.ownsToken, isGm: this.isGm, maySee: this.maySee });
    if ("refuse" in vetted) return vetted.refuse;
    const id = vetted.forward.id;
    const key = requestKey(userId, id);
    const running = this.#serving.get(key);
    if (running) return running;
    const work = this.#forwardKeyed({ ...vetted.forward, id: key }, userId, id);
    this.#serving.set(key, work);
    try {
      return await work;
    } finally {
      this.#serving.delete(key);
    }
  }

  /**
   * @param {RelayedMessage} keyed
   * @param {string} userId
   * @param {string} id the requester's own id, put back on the answer
   * @returns {Promise<BridgeMessage>}
   */
  async #forwardKeyed(keyed, userId, id) {
    try {
      const reply = await this.forward(keyed, userId);
      return { ...reply, id };
    } catch (error) {
      const err = /** @type {{code?: unknown, reason?: unknown, message?: unknown, path?: unknown, field?: unknown, key?: unknown, values?: unknown, msg?: unknown}} */ (error);
      if (typeof err.field === "string" && typeof err.key === "string") {
        // A FormError from the request builder: the rule as a message, the path into the choice.
        return refusal(id, "invalid", String(err.message), `$.choice.${err.field}`, {
          key: err.key,
          values: isPlainObject(err.values) ? err.values : {},
        });
      }
      const refused = refusal(
        id,
        typeof err.code === "string" ? err.code : "internal",
        String(err.reason ?? err.message ?? error),
        typeof err.path === "string" ? err.path : null,
      );
      // The bridge's refusal as a rules message travels on, so the player reads it in their language.
      if (isMessage(err.msg)) refused.msg = err.msg;
      return refused;
    }
  }

  /**
   * The holder tells every client how the bridge connection is doing.
   * @param {unknown} status the wire form (bridge-status.js toWire)
   */
  publishStatus(status) {
    this.emit({ kind: RELAY_KIND.STATUS, browser: this.browser, status });
  }

  /** A client that has just started asks the holder for the connection's state. */
  askStatus() {
    this.emit({ kind: RELAY_KIND.ASK_STATUS });
  }

  /**
   * @param {(status: unknown) => void} listener called with the wire form the holder sent
   * @returns {() => void} unsubscribe
   */
  onStatus(listener) {
    this.#statusListeners.add(listener);
    return () => this.#statusListeners.delete(listener);
  }

  /**
   * Whether a message claiming to come from `browser` comes from the holder's browser: Foundry's sender
   * id must be the holder's user (a player can never send as a GM), and the browser id the holder's.
   * @param {unknown} browser
   * @param {string | undefined} senderId
   */
  #fromHolder(browser, senderId) {
    const holder = this.holder();
    return holder !== null && typeof senderId === "string" && senderId === holder.user && browser === holder.browser;
  }

  /**
   * One socket message, on any client. Foundry passes the sender's user id; a message without one, or
   * whose claimed sender differs from it, is dropped.
   * @param {unknown} data
   * @param {string} [senderId]
   */
  async receive(data, senderId) {
    if (!isPlainObject(data)) return;
    switch (data.kind) {
      case RELAY_KIND.REQUEST: {
        if (!this.isHolder() || data.to !== this.browser) return; // only the browser asked answers
        const from = data.from;
        if (typeof from !== "string" || typeof senderId !== "string" || senderId !== from) return;
        const reply = await this.serve(data.message, from);
        // To the requester's browsers only: no other client's JavaScript receives the answer.
        const answer = { kind: RELAY_KIND.REPLY, to: from, toBrowser: data.browser, browser: this.browser, id: reply.id, reply: wireReply(reply, reply.visibility) };
        this.emit(answer, { recipients: [from] });
        return;
      }
      case RELAY_KIND.REPLY: {
        if (data.to !== this.userId() || typeof data.id !== "string") return;
        if (data.toBrowser !== undefined && data.toBrowser !== this.browser) return;
        const waiting = this.#waiting.get(data.id);
        if (!waiting) return;
        // From the holder, or from the browser this request last went to (it may have just handed over).
        const holderSaid = this.#fromHolder(data.browser, senderId);
        const askedSaid = typeof senderId === "string" && this.isGm(senderId) && data.browser === waiting.sentTo;
        if (!holderSaid && !askedSaid) return;
        if (!isPlainObject(data.reply)) return;
        this.#waiting.delete(data.id);
        this.timers.clearTimeout(waiting.timer);
        waiting.resolve(/** @type {BridgeMessage} */ ({ ...data.reply, id: data.id }));
        return;
      }
      case RELAY_KIND.STATUS:
        if (this.isHolder()) return; // the holder knows its own connection
        if (!this.#fromHolder(data.browser, senderId)) return;
        for (const listener of this.#statusListeners) listener(data.status);
        return;
      case RELAY_KIND.ASK_STATUS:
        // Answered to the asker alone, at most once a second each: a console loop asking makes no one
        // else's browser broadcast (AnswerThrottle).
        if (!this.isHolder() || typeof senderId !== "string" || !senderId) return;
        this.#statusAnswers.ask(senderId, () => {
          if (this.isHolder()) this.emit({ kind: RELAY_KIND.STATUS, browser: this.browser, status: this.currentStatus() }, { recipients: [senderId] });
        });
        return;
      default:
        for (const handler of this.#others) if (handler(data, senderId)) return;
    }
  }
}
