/**
 * The bridge's websocket protocol as the module speaks it: message builders and request ids.
 *
 * Every message is one JSON object with a `type`. The referee's browser says `hello` with the access
 * token first and waits for `welcome`; after that each request carries an `id` the bridge echoes in
 * its answer. The id is also the idempotency key: sending the same id again (after a reconnect, say)
 * returns the answer the bridge already logged instead of rolling new dice. See docs/protocol.md.
 *
 * Pure module: no Foundry globals, so node:test covers it.
 */

/** Where `volley serve` listens by default (loopback only). */
export const DEFAULT_BRIDGE_URL = "ws://127.0.0.1:8765/ws";

/** Message types the module sends. */
export const OUTGOING = Object.freeze({
  HELLO: "hello",
  ATTACK: "attack",
  ACTION: "action",
  ODDS: "odds",
  ALLOCATE: "allocate",
  UNDO: "undo",
  CANCEL: "cancel",
  APPLIED: "applied",
  PING: "ping",
});

/** Message types the bridge answers with. */
export const INCOMING = Object.freeze({
  WELCOME: "welcome",
  RESULT: "result",
  ODDS: "odds",
  PENDING: "pending",
  ERROR: "error",
  PONG: "pong",
  UNDONE: "undone",
  CANCELLED: "cancelled",
  MARKED: "marked",
});

/**
 * Request types a rules request may travel in (players may relay these through the GM).
 * @type {readonly string[]}
 */
export const REQUEST_TYPES = Object.freeze([OUTGOING.ATTACK, OUTGOING.ACTION, OUTGOING.ODDS]);

/** Raised for a frame that is not a protocol message (not JSON, not an object, no type). */
export class ProtocolError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = "ProtocolError";
  }
}

/**
 * A fresh request id: 16 random bytes as hex, prefixed with the module id.
 *
 * `crypto.getRandomValues` works on plain-http pages too (Foundry served on a LAN address), where
 * `crypto.randomUUID` does not exist.
 * @param {{getRandomValues: (array: Uint8Array) => Uint8Array}} [source]
 * @returns {string}
 */
export function newRequestId(source = globalThis.crypto) {
  const bytes = source.getRandomValues(new Uint8Array(16));
  return `volley-${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/**
 * @param {string} token the access token `volley serve` printed
 * @param {string | null} [client] who is connecting, for the bridge's log ("volley 0.1.0 / world x")
 */
export function hello(token, client = null) {
  return client ? { type: OUTGOING.HELLO, token, client } : { type: OUTGOING.HELLO, token };
}

/** The longest Foundry user id a message may name (protocol v2's `user`). */
export const MAX_USER_ID = 64;

/**
 * A rules request under one of the request types (`attack`, `action` or `odds`).
 * @param {string} type
 * @param {string} id
 * @param {Record<string, unknown>} request
 * @param {string | null} [user] the Foundry user it is for (protocol v2: per-user limits on the bridge)
 */
export function rulesMessage(type, id, request, user = null) {
  if (!REQUEST_TYPES.includes(type)) throw new ProtocolError(`not a request type: ${type}`);
  if (typeof id !== "string" || !id) throw new ProtocolError("a request needs an id");
  if (!isPlainObject(request)) throw new ProtocolError("a request must be an object");
  return user ? { type, id, request, user: user.slice(0, MAX_USER_ID) } : { type, id, request };
}

/** @param {string} id @param {Record<string, unknown>} request */
export const attack = (id, request) => rulesMessage(OUTGOING.ATTACK, id, request);
/** @param {string} id @param {Record<string, unknown>} request */
export const action = (id, request) => rulesMessage(OUTGOING.ACTION, id, request);
/** @param {string} id @param {Record<string, unknown>} request */
export const odds = (id, request) => rulesMessage(OUTGOING.ODDS, id, request);

/**
 * The referee's answer to a `pending` message: how to split what the bridge asked about.
 * @param {string} id
 * @param {string} pendingId
 * @param {unknown} allocation
 * @param {string | null} [user]
 */
export function allocate(id, pendingId, allocation, user = null) {
  const message = { type: OUTGOING.ALLOCATE, id, pending_id: pendingId, allocation };
  return user ? { ...message, user: user.slice(0, MAX_USER_ID) } : message;
}

/**
 * Take back the request `targetId`: the bridge journals it (replay ignores it) and answers `undone`.
 * @param {string} id
 * @param {string} targetId
 * @param {string | null} [user]
 */
export function undo(id, targetId, user = null) {
  const message = { type: OUTGOING.UNDO, id, target_id: targetId };
  return user ? { ...message, user: user.slice(0, MAX_USER_ID) } : message;
}

/**
 * Cancel the pending two-step attack `pendingId` before its allocation: nothing is spent; the bridge
 * journals it and answers `cancelled` (issue #31).
 * @param {string} id
 * @param {string} pendingId
 * @param {string | null} [user]
 */
export function cancel(id, pendingId, user = null) {
  const message = { type: OUTGOING.CANCEL, id, pending_id: pendingId };
  return user ? { ...message, user: user.slice(0, MAX_USER_ID) } : message;
}

/**
 * Mark the request `targetId` as applied at the table, once (issue #31): the bridge journals the mark
 * and answers `marked`, or refuses a second mark of the key with `already_applied`. `outside`: what
 * changed outside Volley since the weapon's last card (docs/protocol.md, `applied`).
 * @param {string} id
 * @param {string} targetId
 * @param {Record<string, unknown>[]} outside
 * @param {string | null} [user]
 */
export function applied(id, targetId, outside, user = null) {
  const message = { type: OUTGOING.APPLIED, id, target_id: targetId, outside: outside.slice(0, 64) };
  return user ? { ...message, user: user.slice(0, MAX_USER_ID) } : message;
}

/** @param {string} id */
export function ping(id) {
  return { type: OUTGOING.PING, id };
}

/**
 * @typedef {{type: string, id?: string, [key: string]: unknown}} BridgeMessage
 */

/**
 * Parse one websocket frame; anything that is not an object with a string `type` is refused.
 * @param {unknown} data
 * @returns {BridgeMessage}
 */
export function parseMessage(data) {
  if (typeof data !== "string") throw new ProtocolError("expected a text frame");
  let value;
  try {
    value = JSON.parse(data);
  } catch {
    throw new ProtocolError("frame is not JSON");
  }
  if (!isPlainObject(value) || typeof value.type !== "string") {
    throw new ProtocolError("frame is not a message (no type)");
  }
  return readReply(/** @type {BridgeMessage} */ (value));
}

/**
 * A reply in the shape the module reads. Protocol 3 sends each thing once: a `result`'s token updates
 * and a `pending` reply's pool are only in its `result`. A retry may return a reply the bridge
 * journaled in protocol 2's shape, which also carried them at the top (and a card with its own log:
 * card.js reads either). `updates` and `pending` are read from `result` when the reply has no copy.
 * @param {BridgeMessage} message
 * @returns {BridgeMessage}
 */
export function readReply(message) {
  const result = isPlainObject(message.result) ? message.result : null;
  if (!result) return message;
  if (message.type === INCOMING.RESULT && !("updates" in message)) {
    message.updates = Array.isArray(result.updates) ? result.updates : [];
  } else if (message.type === INCOMING.PENDING && !("pending" in message)) {
    message.pending = result.pending ?? null;
  }
  return message;
}

/**
 * @param {unknown} value
 * @returns {value is Record<string, unknown>}
 */
export function isPlainObject(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
