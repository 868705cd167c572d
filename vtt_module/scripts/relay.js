/**
 * Players reach the bridge through the referee: requests travel over the module's Foundry socket to
 * the elected GM's browser, which checks them and forwards them on its one bridge connection.
 *
 * The GM side is where the checks live, because that is where Foundry knows who owns what:
 * - only rules requests (`attack`, `action`, `odds`) are relayed;
 * - the acting token (the request's `attacker`/`shooter`) must be a token the sending user owns;
 * - scripted `dice` are stripped: a player never chooses the faces, whatever the bridge allows.
 * The answer goes back to the requesting user only, keyed by the request id.
 *
 * Pure: the Foundry socket, the ownership test and the forwarding are injected.
 */

import { REQUEST_TYPES, isPlainObject } from "./protocol.js";

/** The module's socket channel (`socket: true` in module.json). */
export const SOCKET_NAME = "module.volley";

export const RELAY_KIND = Object.freeze({ REQUEST: "volley.request", REPLY: "volley.reply" });

/** How long a player waits for the GM's answer. */
export const RELAY_TIMEOUT_MS = 20_000;

/**
 * @typedef {import("./protocol.js").BridgeMessage} BridgeMessage
 * @typedef {{emit(name: string, data: unknown): void, on(name: string, fn: (data: any, senderId?: string) => void): void}} SocketLike
 * @typedef {import("./connection.js").Timers} Timers
 */

/**
 * The token a rules request acts for: the one that must belong to the user who sends it.
 * Systems name it `attacker` (attacks) or `shooter`; either has an `id`.
 * @param {unknown} request
 * @returns {string | null}
 */
export function actingTokenId(request) {
  if (!isPlainObject(request)) return null;
  for (const key of ["attacker", "shooter", "actor"]) {
    const part = request[key];
    if (isPlainObject(part) && typeof part.id === "string" && part.id) return part.id;
  }
  return null;
}

/**
 * An `error` message in the bridge's own shape, so callers handle refusals one way.
 * @param {string | null} id
 * @param {string} code
 * @param {string} message
 * @param {string | null} [path]
 * @returns {BridgeMessage}
 */
export function refusal(id, code, message, path = null) {
  return { type: "error", id: id ?? undefined, code, message, path };
}

/**
 * Check one player's message as the GM would, and return the message to forward or a refusal.
 * @param {unknown} message
 * @param {string} userId who sent it
 * @param {(userId: string, tokenId: string) => boolean} ownsToken
 * @returns {{forward: BridgeMessage} | {refuse: BridgeMessage}}
 */
export function vetRelayed(message, userId, ownsToken) {
  if (!isPlainObject(message) || typeof message.id !== "string" || !message.id) {
    return { refuse: refusal(null, "invalid", "a relayed message needs an id") };
  }
  const id = message.id;
  if (typeof message.type !== "string" || !REQUEST_TYPES.includes(message.type)) {
    return { refuse: refusal(id, "forbidden", `players cannot send '${String(message.type)}' messages`) };
  }
  if (!isPlainObject(message.request)) {
    return { refuse: refusal(id, "invalid", "a request must be an object", "$.request") };
  }
  const tokenId = actingTokenId(message.request);
  if (!tokenId) {
    return { refuse: refusal(id, "invalid", "the request names no acting token", "$.request.attacker.id") };
  }
  if (!ownsToken(userId, tokenId)) {
    return {
      refuse: refusal(id, "forbidden", `user ${userId} does not own token ${tokenId}`, "$.request.attacker.id"),
    };
  }
  const { dice: _dice, ...request } = message.request;
  return { forward: { type: message.type, id, request } };
}

export class Relay {
  /** @type {Map<string, {resolve: (reply: BridgeMessage) => void, timer: unknown}>} */
  #waiting = new Map();

  /**
   * @param {{
   *   socket: SocketLike, userId: () => string, isGm: () => boolean,
   *   ownsToken: (userId: string, tokenId: string) => boolean,
   *   forward: (message: BridgeMessage, userId: string) => Promise<BridgeMessage>,
   *   timers?: Timers, timeoutMs?: number
   * }} options `forward` sends a vetted message to the bridge (the GM's own handling: chat card,
   *   token updates) and resolves with the bridge's answer.
   */
  constructor({ socket, userId, isGm, ownsToken, forward, timers, timeoutMs = RELAY_TIMEOUT_MS }) {
    this.socket = socket;
    this.userId = userId;
    this.isGm = isGm;
    this.ownsToken = ownsToken;
    this.forward = forward;
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
   * Send a rules message from this user: straight to the bridge when this browser is the elected
   * GM, otherwise through the GM. Resolves with the bridge's answer or an `error` message.
   * @param {BridgeMessage} message
   * @returns {Promise<BridgeMessage>}
   */
  async send(message) {
    if (this.isGm()) return this.serve(message, this.userId());
    const id = message.id;
    if (typeof id !== "string" || !id) return refusal(null, "invalid", "a relayed message needs an id");
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
   * The GM's side: vet a message from `userId` and forward it. Never throws: failures come back as
   * `error` messages for the requester.
   * @param {unknown} message
   * @param {string} userId
   * @returns {Promise<BridgeMessage>}
   */
  async serve(message, userId) {
    const vetted = vetRelayed(message, userId, this.ownsToken);
    if ("refuse" in vetted) return vetted.refuse;
    try {
      return await this.forward(vetted.forward, userId);
    } catch (error) {
      const err = /** @type {{code?: unknown, reason?: unknown, message?: unknown, path?: unknown}} */ (error);
      return refusal(
        vetted.forward.id ?? null,
        typeof err.code === "string" ? err.code : "internal",
        String(err.reason ?? err.message ?? error),
        typeof err.path === "string" ? err.path : null,
      );
    }
  }

  /**
   * One socket message, on any client. Foundry passes the sender's id where it knows it; a message
   * whose claimed sender differs from that is dropped.
   * @param {unknown} data
   * @param {string} [senderId]
   */
  async receive(data, senderId) {
    if (!isPlainObject(data)) return;
    if (data.kind === RELAY_KIND.REQUEST) {
      if (!this.isGm()) return; // only the elected GM answers
      const from = data.from;
      if (typeof from !== "string" || (typeof senderId === "string" && senderId !== from)) return;
      const reply = await this.serve(data.message, from);
      this.socket.emit(SOCKET_NAME, { kind: RELAY_KIND.REPLY, to: from, id: reply.id, reply });
      return;
    }
    if (data.kind === RELAY_KIND.REPLY && data.to === this.userId() && typeof data.id === "string") {
      const waiting = this.#waiting.get(data.id);
      if (!waiting) return;
      this.#waiting.delete(data.id);
      this.timers.clearTimeout(waiting.timer);
      waiting.resolve(/** @type {BridgeMessage} */ (data.reply));
    }
  }
}
