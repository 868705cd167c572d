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
 * The checks here, where Foundry knows who owns what:
 * - only `attack`, `action`, `odds`, `allocate` and `undo` are relayed;
 * - the acting token (`choice.token`) must be one the sending user owns;
 * - `undo` is for game masters only.
 * The answer goes back to the requesting user only, keyed by the request id. The holder also
 * broadcasts the connection's state, so every client can say "bridge offline" at once.
 *
 * Pure: the Foundry socket, the ownership and GM tests and the forwarding are injected.
 */

import { isMessage } from "./i18n/format.js";
import { isPlainObject } from "./protocol.js";

/** The module's socket channel (`socket: true` in module.json). */
export const SOCKET_NAME = "module.volley";

export const RELAY_KIND = Object.freeze({
  REQUEST: "volley.request",
  REPLY: "volley.reply",
  STATUS: "volley.status",
  ASK_STATUS: "volley.status?",
});

/** Message types a player's browser may relay. */
export const RELAYED_TYPES = Object.freeze(["attack", "action", "odds", "allocate", "undo"]);

/** How long a player waits for the referee's answer. */
export const RELAY_TIMEOUT_MS = 20_000;

/** Longest request id the bridge accepts. */
const MAX_ID = 128;

/**
 * @typedef {import("./protocol.js").BridgeMessage} BridgeMessage
 * @typedef {import("./systems/registry.js").Choice} Choice
 * @typedef {{type: string, id: string, choice: Choice}} ChoiceMessage a player's attack, action, odds or allocate
 * @typedef {{type: "undo", id: string, message: string}} UndoMessage undo the chat message's request
 * @typedef {ChoiceMessage | UndoMessage} RelayedMessage
 * @typedef {{emit(name: string, data: unknown): void, on(name: string, fn: (data: any, senderId?: string) => void): void}} SocketLike
 * @typedef {import("./connection.js").Timers} Timers
 */

/**
 * An `error` message in the bridge's own shape, so callers handle refusals one way. A refusal of a
 * typed value carries the rule as a message (`key`, `values`) for the player's own language.
 * @param {string | null} id
 * @param {string} code
 * @param {string} message
 * @param {string | null} [path]
 * @param {{key: string, values?: Record<string, unknown>}} [rule]
 * @returns {BridgeMessage}
 */
export function refusal(id, code, message, path = null, rule) {
  /** @type {BridgeMessage} */
  const out = { type: "error", id: id ?? undefined, code, message, path };
  if (rule) {
    out.key = rule.key;
    out.values = rule.values ?? {};
  }
  return out;
}

/**
 * Check one relayed message as the referee would: its shape, and that the sender may send it.
 * @param {unknown} message
 * @param {string} userId who sent it
 * @param {{ownsToken: (userId: string, tokenId: string) => boolean, isGm: (userId: string) => boolean}} tests
 * @returns {{forward: RelayedMessage} | {refuse: BridgeMessage}}
 */
export function vetRelayed(message, userId, { ownsToken, isGm }) {
  if (!isPlainObject(message) || typeof message.id !== "string" || !message.id || message.id.length > MAX_ID) {
    return { refuse: refusal(null, "invalid", "a relayed message needs an id of 1-128 characters") };
  }
  const id = message.id;
  if (typeof message.type !== "string" || !RELAYED_TYPES.includes(message.type)) {
    return { refuse: refusal(id, "forbidden", `players cannot send '${String(message.type)}' messages`, "$.type") };
  }
  if (message.type === "undo") {
    if (!isGm(userId)) return { refuse: refusal(id, "forbidden", "only a game master can undo", "$.type") };
    if (typeof message.message !== "string" || !message.message) {
      return { refuse: refusal(id, "invalid", "undo names no chat message", "$.message") };
    }
    return { forward: { type: "undo", id, message: message.message } };
  }
  const choice = message.choice;
  if (!isPlainObject(choice)) return { refuse: refusal(id, "invalid", "a choice must be an object", "$.choice") };
  for (const field of ["system", "token"]) {
    if (typeof choice[field] !== "string" || !choice[field]) {
      return { refuse: refusal(id, "invalid", `the choice names no ${field}`, `$.choice.${field}`) };
    }
  }
  if (!ownsToken(userId, String(choice.token))) {
    return { refuse: refusal(id, "forbidden", `user ${userId} does not own token ${String(choice.token)}`, "$.choice.token") };
  }
  return { forward: { type: message.type, id, choice: /** @type {Choice} */ (choice) } };
}

export class Relay {
  /** @type {Map<string, {resolve: (reply: BridgeMessage) => void, timer: unknown}>} */
  #waiting = new Map();
  /** @type {Set<(status: unknown) => void>} */
  #statusListeners = new Set();

  /**
   * @param {{
   *   socket: SocketLike, userId: () => string, isHolder: () => boolean, holderOnline?: () => boolean,
   *   ownsToken: (userId: string, tokenId: string) => boolean, isGm: (userId: string) => boolean,
   *   forward: (message: RelayedMessage, userId: string) => Promise<BridgeMessage>,
   *   currentStatus?: () => unknown, timers?: Timers, timeoutMs?: number
   * }} options `forward` is the holder's own handling (build the request, ask the bridge, post the card,
   *   apply the updates) and resolves with the bridge's answer; `currentStatus` is the holder's
   *   connection state as it goes on the wire; `holderOnline` says whether any client holds the bridge.
   */
  constructor({ socket, userId, isHolder, holderOnline = () => true, ownsToken, isGm, forward, currentStatus, timers, timeoutMs = RELAY_TIMEOUT_MS }) {
    this.socket = socket;
    this.userId = userId;
    this.isHolder = isHolder;
    this.holderOnline = holderOnline;
    this.ownsToken = ownsToken;
    this.isGm = isGm;
    this.forward = forward;
    this.currentStatus = currentStatus ?? (() => null);
    this.timers = timers ?? {
      setTimeout: (/** @type {() => void} */ fn, /** @type {number} */ ms) => globalThis.setTimeout(fn, ms),
      clearTimeout: (/** @type {any} */ handle) => globalThis.clearTimeout(handle),
    };
    this.timeoutMs = timeoutMs;
  }

  /** Listen on the module socket. Call once, in `ready`. */
  attach() {
    this.socket.on(SOCKET_NAME, (data, senderId) => {
      void this.receive(data, senderId);
    });
  }

  /**
   * Send a relayed message from this user: to the bridge directly when this browser holds it,
   * otherwise through the holder. Resolves with the bridge's answer or an `error` message.
   * @param {RelayedMessage | Record<string, unknown>} message
   * @returns {Promise<BridgeMessage>}
   */
  async send(message) {
    if (this.isHolder()) return this.serve(message, this.userId());
    const id = message.id;
    if (typeof id !== "string" || !id) return refusal(null, "invalid", "a relayed message needs an id");
    if (!this.holderOnline()) return refusal(id, "no_gm", "no referee is connected to hold the bridge");
    return new Promise((resolve) => {
      const timer = this.timers.setTimeout(() => {
        this.#waiting.delete(id);
        resolve(refusal(id, "no_gm", "no referee answered; is a GM connected to the bridge?"));
      }, this.timeoutMs);
      this.#waiting.set(id, { resolve, timer });
      this.socket.emit(SOCKET_NAME, { kind: RELAY_KIND.REQUEST, from: this.userId(), message });
    });
  }

  /**
   * The holder's side: vet a message from `userId` and forward it. Never throws: failures come back
   * as `error` messages for the requester.
   * @param {unknown} message
   * @param {string} userId
   * @returns {Promise<BridgeMessage>}
   */
  async serve(message, userId) {
    const vetted = vetRelayed(message, userId, { ownsToken: this.ownsToken, isGm: this.isGm });
    if ("refuse" in vetted) return vetted.refuse;
    try {
      return await this.forward(vetted.forward, userId);
    } catch (error) {
      const err = /** @type {{code?: unknown, reason?: unknown, message?: unknown, path?: unknown, field?: unknown, key?: unknown, values?: unknown, msg?: unknown}} */ (error);
      if (typeof err.field === "string" && typeof err.key === "string") {
        // A FormError from the request builder: the rule as a message, the path into the choice.
        return refusal(vetted.forward.id, "invalid", String(err.message), `$.choice.${err.field}`, {
          key: err.key,
          values: isPlainObject(err.values) ? err.values : {},
        });
      }
      const refused = refusal(
        vetted.forward.id,
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
    this.socket.emit(SOCKET_NAME, { kind: RELAY_KIND.STATUS, status });
  }

  /** A client that has just started asks the holder for the connection's state. */
  askStatus() {
    this.socket.emit(SOCKET_NAME, { kind: RELAY_KIND.ASK_STATUS });
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
   * One socket message, on any client. Foundry passes the sender's id where it knows it; a message
   * whose claimed sender differs from that is dropped.
   * @param {unknown} data
   * @param {string} [senderId]
   */
  async receive(data, senderId) {
    if (!isPlainObject(data)) return;
    switch (data.kind) {
      case RELAY_KIND.REQUEST: {
        if (!this.isHolder()) return; // only the holder answers
        const from = data.from;
        if (typeof from !== "string" || (typeof senderId === "string" && senderId !== from)) return;
        const reply = await this.serve(data.message, from);
        this.socket.emit(SOCKET_NAME, { kind: RELAY_KIND.REPLY, to: from, id: reply.id, reply });
        return;
      }
      case RELAY_KIND.REPLY: {
        if (data.to !== this.userId() || typeof data.id !== "string") return;
        const waiting = this.#waiting.get(data.id);
        if (!waiting) return;
        this.#waiting.delete(data.id);
        this.timers.clearTimeout(waiting.timer);
        waiting.resolve(/** @type {BridgeMessage} */ (data.reply));
        return;
      }
      case RELAY_KIND.STATUS:
        if (this.isHolder()) return; // the holder knows its own connection
        for (const listener of this.#statusListeners) listener(data.status);
        return;
      case RELAY_KIND.ASK_STATUS:
        if (this.isHolder()) this.publishStatus(this.currentStatus());
        return;
      default:
    }
  }
}
