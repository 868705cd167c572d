/**
 * The bridge connection's state as the table sees it: connected, reconnecting in N s, refused and why,
 * or why there is no connection at all (no token pasted, no referee online).
 *
 * The referee's browser derives it from its connection and broadcasts it over the module socket, so a
 * player's Fire control and preview know at once that the bridge is down instead of waiting for a
 * request to time out. A retry time travels as "in N ms" and is turned into the receiver's own clock
 * on arrival, so clients with different clocks count down alike.
 *
 * Pure.
 */

/**
 * @typedef {"ready" | "connecting" | "waiting" | "refused" | "stopped" | "no_token" | "no_gm" | "unconfirmed" | "unknown"} BridgeState
 * @typedef {{state: BridgeState, retryAt?: number, reason?: string, holder?: string, follower?: boolean, address?: string}} BridgeStatus
 *   `retryAt`: when the next reconnect is tried, on this client's clock (ms); `follower`: another tab of
 *   this same user holds the bridge (this one relays through it, and says so); `address`: the bridge's
 *   address when it is not this machine, in the holder's own status only (it never goes on the wire);
 *   `unconfirmed`: that address waits for the referee's confirmation in the holder's browser
 * @typedef {{state: BridgeState, retryInMs?: number, reason?: string, holder?: string}} WireStatus
 */

const STATES = new Set(["ready", "connecting", "waiting", "refused", "stopped", "no_token", "no_gm", "unconfirmed", "unknown"]);

/** What a client knows before anyone has told it anything. */
export const UNKNOWN_STATUS = Object.freeze(/** @type {BridgeStatus} */ ({ state: "unknown" }));

/**
 * The status of this browser's own connection.
 * @param {import("./connection.js").ConnectionStatus} connection
 * @param {number} now
 * @returns {BridgeStatus}
 */
export function fromConnection(connection, now) {
  /** @type {BridgeStatus} */
  const status = { state: connection.state === "idle" ? "connecting" : connection.state };
  if (connection.state === "waiting" && typeof connection.delayMs === "number") status.retryAt = now + connection.delayMs;
  if (connection.state === "refused" && connection.error) status.reason = connection.error.reason;
  return status;
}

/**
 * @param {BridgeStatus} status
 * @param {number} now
 * @returns {WireStatus}
 */
export function toWire(status, now) {
  /** @type {WireStatus} */
  const wire = { state: status.state };
  if (typeof status.retryAt === "number") wire.retryInMs = Math.max(0, status.retryAt - now);
  if (status.reason) wire.reason = status.reason.slice(0, 200);
  if (status.holder) wire.holder = status.holder;
  return wire;
}

/**
 * A status received over the socket; anything malformed reads as unknown.
 * @param {unknown} wire
 * @param {number} now
 * @returns {BridgeStatus}
 */
export function fromWire(wire, now) {
  if (typeof wire !== "object" || wire === null) return UNKNOWN_STATUS;
  const w = /** @type {Record<string, unknown>} */ (wire);
  if (typeof w.state !== "string" || !STATES.has(w.state)) return UNKNOWN_STATUS;
  /** @type {BridgeStatus} */
  const status = { state: /** @type {BridgeState} */ (w.state) };
  if (typeof w.retryInMs === "number" && Number.isFinite(w.retryInMs)) status.retryAt = now + Math.max(0, w.retryInMs);
  if (typeof w.reason === "string") status.reason = w.reason.slice(0, 200);
  if (typeof w.holder === "string") status.holder = w.holder.slice(0, 64);
  return status;
}

/** @param {BridgeStatus} status */
export function isOnline(status) {
  return status.state === "ready";
}

/**
 * What to tell the user, as an i18n key and its values.
 * @param {BridgeStatus} status
 * @param {number} now
 * @returns {{key: string, values: Record<string, string | number>}}
 */
export function statusWords(status, now) {
  switch (status.state) {
    case "ready":
      return status.address ? { key: "VOLLEY.Bridge.ConnectedTo", values: { address: status.address } } : { key: "VOLLEY.Bridge.Connected", values: {} };
    case "unconfirmed":
      return status.address ? { key: "VOLLEY.Bridge.Unconfirmed", values: { address: status.address } } : { key: "VOLLEY.Bridge.UnconfirmedElsewhere", values: {} };
    case "waiting": {
      const seconds = typeof status.retryAt === "number" ? Math.max(0, Math.ceil((status.retryAt - now) / 1000)) : 0;
      return seconds > 0
        ? { key: "VOLLEY.Bridge.Reconnecting", values: { seconds } }
        : { key: "VOLLEY.Bridge.Connecting", values: {} };
    }
    case "connecting":
      return { key: "VOLLEY.Bridge.Connecting", values: {} };
    case "refused":
      return { key: "VOLLEY.Bridge.Refused", values: { reason: status.reason ?? "" } };
    case "no_token":
      return { key: "VOLLEY.Bridge.NoToken", values: {} };
    case "no_gm":
      return { key: "VOLLEY.Bridge.NoReferee", values: {} };
    case "stopped":
      return { key: "VOLLEY.Bridge.Stopped", values: {} };
    default:
      return { key: "VOLLEY.Bridge.Unknown", values: {} };
  }
}
