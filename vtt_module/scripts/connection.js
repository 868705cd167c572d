/**
 * The referee's one websocket to the bridge (ThreeHats' webSocketManager pattern, slimmed down).
 *
 * - Handshake: `hello` with the access token, then wait for `welcome`; nothing else is sent before it.
 * - Requests wait in a map keyed by their id, each with its own timeout. If the socket drops, the
 *   unanswered ones are sent again after the next `welcome` with the same id: the bridge treats the id
 *   as an idempotency key, so a retry can never roll the dice twice.
 * - An answer `journal_unreadable` (the bridge cannot tell just now whether this id was already
 *   answered) is not final: the same message goes again, same id, after each of RESEND_DELAYS_MS, and
 *   only the answer after the last of them is the request's. A new id could roll twice; the same id
 *   never does. The request's own timeout keeps running meanwhile.
 * - Reconnects back off exponentially (1 s, 2 s, 4 s ... capped at 30 s) and the count resets on welcome.
 * - An `error` before `welcome` means the bridge refused us (a wrong token), and an address the
 *   browser will not open is as hopeless: no reconnect loop, the status says so until `start()` is
 *   called again (the settings changed).
 * - Messages that answer no request go to a type-to-handler map.
 *
 * The WebSocket constructor and the timers are injected so node:test can drive it with fakes.
 */

import { isMessage } from "./i18n/format.js";
import { INCOMING, hello, parseMessage, ProtocolError } from "./protocol.js";

/** Reconnect delays: `initialMs * factor^attempt`, never more than `maxMs`. */
export const BACKOFF = Object.freeze({ initialMs: 1000, factor: 2, maxMs: 30_000 });

/** How long a request waits for its answer, and the handshake for `welcome`. */
export const REQUEST_TIMEOUT_MS = 15_000;
export const HELLO_TIMEOUT_MS = 10_000;

/**
 * How long to wait before sending a request again, same id, after each `journal_unreadable` answer:
 * four resends within 3.75 s, well inside REQUEST_TIMEOUT_MS.
 */
export const RESEND_DELAYS_MS = Object.freeze([250, 500, 1000, 2000]);

/**
 * Error codes that mean "nothing was done, ask again with the same id" (docs/protocol.md, Errors).
 * Not `journal_failed` (a write failed: the referee should know) nor `internal`.
 */
export const RESEND_SAME_ID = Object.freeze(["journal_unreadable"]);

const OPEN = 1;

/**
 * Whether a bridge address is this machine: `localhost`, an IPv4 address in 127.0.0.0/8, or `[::1]`.
 * Anything else (a LAN name or address, a public host, an address that does not parse) is not.
 * @param {string} address a ws:// or wss:// URL
 */
export function isLoopbackAddress(address) {
  let host;
  try {
    host = new URL(address).hostname.toLowerCase();
  } catch {
    return false;
  }
  if (host === "localhost" || host === "[::1]") return true;
  const parts = host.split(".");
  return parts.length === 4 && parts[0] === "127" && parts.every((part) => /^(0|[1-9]\d{0,2})$/.test(part) && Number(part) <= 255);
}

/**
 * @param {number} attempt 0 for the first reconnect
 * @param {{initialMs: number, factor: number, maxMs: number}} [policy]
 */
export function backoffDelay(attempt, policy = BACKOFF) {
  return Math.min(policy.maxMs, policy.initialMs * policy.factor ** Math.max(0, attempt));
}

/** A failed request: the bridge's own error (code, message, JSON path) or a local one. */
export class BridgeError extends Error {
  /**
   * `msg` is the refusal as a rules message (`{key, values}`), when the bridge sent one, for showing
   * it in the user's language; `reason` is the bridge's English.
   * @param {{code: string, message: string, path?: string | null, msg?: {key: string, values?: Record<string, unknown>} | null}} details
   */
  constructor({ code, message, path = null, msg = null }) {
    super(path ? `${path}: ${message}` : message);
    this.name = "BridgeError";
    this.code = code;
    this.path = path;
    this.reason = message;
    this.msg = msg;
  }
}

/**
 * @typedef {{
 *   send(data: string): void, close(code?: number, reason?: string): void, readyState: number,
 *   onopen: ((event: any) => void) | null, onmessage: ((event: any) => void) | null,
 *   onclose: ((event: any) => void) | null, onerror: ((event: any) => void) | null
 * }} SocketLike the part of the browser's WebSocket the connection uses
 * @typedef {new (url: string) => SocketLike} SocketConstructor
 * @typedef {{setTimeout: (fn: () => void, ms: number) => unknown, clearTimeout: (handle: any) => void}} Timers
 * @typedef {"idle" | "connecting" | "ready" | "waiting" | "refused" | "stopped"} ConnectionState
 * @typedef {{state: ConnectionState, attempt: number, delayMs?: number, error?: BridgeError, welcome?: Record<string, unknown>}} ConnectionStatus
 * @typedef {import("./protocol.js").BridgeMessage} BridgeMessage
 * @typedef {{message: BridgeMessage, resolve: (reply: BridgeMessage) => void,
 *   reject: (error: Error) => void, timer: unknown, promise: Promise<BridgeMessage>,
 *   resends: number, resendTimer: unknown, refused: BridgeError | null}} PendingRequest
 *   `resends` counts the same-id resends after `journal_unreadable`; `resendTimer` is set while one
 *   waits its delay, and `refused` is the answer that made it wait
 */

/** @type {Timers} */
const realTimers = {
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle),
};

export class BridgeConnection {
  /** @type {SocketLike | null} */
  #socket = null;
  /** @type {ConnectionState} */
  #state = "idle";
  #attempt = 0;
  /** @type {unknown} */
  #reconnectTimer = null;
  /** @type {unknown} */
  #helloTimer = null;
  /** @type {Map<string, PendingRequest>} */
  #pending = new Map();
  /** @type {Map<string, (message: BridgeMessage) => void>} */
  #handlers = new Map();
  /** @type {Set<(status: ConnectionStatus) => void>} */
  #listeners = new Set();
  /** @type {Record<string, unknown> | undefined} */
  #welcome = undefined;

  /**
   * @param {{
   *   url: string, token: string, WebSocket: SocketConstructor, timers?: Timers,
   *   requestTimeoutMs?: number, helloTimeoutMs?: number,
   *   backoff?: {initialMs: number, factor: number, maxMs: number},
   *   resendDelaysMs?: readonly number[],
   *   client?: string | null, log?: (...args: unknown[]) => void
   * }} options
   */
  constructor({
    url,
    token,
    WebSocket,
    timers = realTimers,
    requestTimeoutMs = REQUEST_TIMEOUT_MS,
    helloTimeoutMs = HELLO_TIMEOUT_MS,
    backoff = BACKOFF,
    resendDelaysMs = RESEND_DELAYS_MS,
    client = null,
    log = () => {},
  }) {
    this.url = url;
    this.token = token;
    this.SocketClass = WebSocket;
    this.timers = timers;
    this.requestTimeoutMs = requestTimeoutMs;
    this.helloTimeoutMs = helloTimeoutMs;
    this.backoff = backoff;
    this.resendDelaysMs = resendDelaysMs;
    this.client = client;
    this.log = log;
  }

  /** @returns {ConnectionState} */
  get state() {
    return this.#state;
  }

  /** What the bridge said in its `welcome` (version, session...), once connected. */
  get welcome() {
    return this.#welcome;
  }

  /** How many requests are waiting for an answer. */
  get pendingCount() {
    return this.#pending.size;
  }

  /** Open the connection (again). Harmless when already connecting or connected. */
  start() {
    if (this.#socket || this.#state === "waiting") return;
    this.#attempt = 0;
    this.#open();
  }

  /**
   * Close for good: no reconnect, every waiting request fails with code `closed`.
   * @param {string} [reason]
   */
  stop(reason = "connection closed") {
    this.#clearTimers();
    const socket = this.#socket;
    this.#socket = null;
    this.#setState("stopped");
    if (socket) {
      this.#detach(socket);
      socket.close(1000, reason);
    }
    this.#rejectAll(new BridgeError({ code: "closed", message: reason }));
  }

  /**
   * Handle a message type that answers no request (e.g. a bridge-initiated notice).
   * @param {string} type
   * @param {(message: BridgeMessage) => void} handler
   * @returns {() => void} unsubscribe
   */
  on(type, handler) {
    this.#handlers.set(type, handler);
    return () => {
      if (this.#handlers.get(type) === handler) this.#handlers.delete(type);
    };
  }

  /**
   * @param {(status: ConnectionStatus) => void} listener
   * @returns {() => void} unsubscribe
   */
  onStatus(listener) {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Send a message with an `id` and wait for the bridge's answer to that id.
   *
   * The promise resolves with the answer (`result`, `odds`, `pending`, `pong`) and rejects with a
   * BridgeError for an `error` answer, a timeout or `stop()`; a `journal_unreadable` answer is
   * first retried with the same id (RESEND_DELAYS_MS). A second call with an id that is still
   * waiting returns the first call's promise instead of sending twice.
   * @param {BridgeMessage} message
   * @returns {Promise<BridgeMessage>}
   */
  request(message) {
    const id = message.id;
    if (typeof id !== "string" || !id) {
      return Promise.reject(new BridgeError({ code: "invalid", message: "a request needs an id" }));
    }
    const waiting = this.#pending.get(id);
    if (waiting) return waiting.promise;
    if (this.#state === "stopped" || this.#state === "refused") {
      const why = this.#state === "refused" ? "the bridge refused the access token" : "not connected";
      return Promise.reject(new BridgeError({ code: this.#state, message: why }));
    }
    /** @type {PendingRequest} */
    const entry = /** @type {any} */ ({ message, resends: 0, resendTimer: null, refused: null });
    entry.promise = new Promise((resolve, reject) => {
      entry.resolve = resolve;
      entry.reject = reject;
    });
    entry.timer = this.timers.setTimeout(() => {
      if (this.#pending.get(id) !== entry) return;
      this.#pending.delete(id);
      const waitingToResend = entry.resendTimer !== null;
      this.timers.clearTimeout(entry.resendTimer);
      // Out of time while waiting to ask again: the bridge's own last word says more than "no answer".
      if (waitingToResend && entry.refused) {
        entry.reject(entry.refused);
        return;
      }
      const seconds = this.requestTimeoutMs / 1000;
      entry.reject(new BridgeError({ code: "timeout", message: `no answer from the bridge in ${seconds} s` }));
    }, this.requestTimeoutMs);
    this.#pending.set(id, entry);
    if (this.#state === "ready") this.#send(message);
    return entry.promise;
  }

  #open() {
    this.#setState("connecting");
    /** @type {SocketLike} */
    let socket;
    try {
      socket = new this.SocketClass(this.url);
    } catch (error) {
      // The browser refuses the address itself (not ws:// or wss://, malformed): retrying cannot help.
      const reason = error instanceof Error ? error.message : String(error);
      const refused = new BridgeError({ code: "bad_url", message: `cannot open ${this.url}: ${reason}` });
      this.log("volley:", refused.message);
      this.#setState("refused", { error: refused });
      this.#rejectAll(refused);
      return;
    }
    this.#socket = socket;
    socket.onopen = () => {
      socket.send(JSON.stringify(hello(this.token, this.client)));
      this.#helloTimer = this.timers.setTimeout(() => {
        this.log("volley: no welcome from the bridge; reconnecting");
        socket.close(4000, "no welcome");
        this.#onClose(socket);
      }, this.helloTimeoutMs);
    };
    socket.onmessage = (event) => this.#onMessage(event.data);
    socket.onclose = () => this.#onClose(socket);
    socket.onerror = () => {}; // a close event always follows; reconnecting happens there
  }

  /** @param {unknown} data */
  #onMessage(data) {
    let message;
    try {
      message = parseMessage(data);
    } catch (error) {
      if (error instanceof ProtocolError) {
        this.log("volley: ignoring a frame:", error.message);
        return;
      }
      throw error;
    }
    if (this.#state !== "ready") {
      this.#handshake(message);
      return;
    }
    const entry = typeof message.id === "string" ? this.#pending.get(message.id) : undefined;
    if (entry) {
      // An answer while a resend waits its delay (a copy sent before a reconnect) settles it as well.
      this.timers.clearTimeout(entry.resendTimer);
      entry.resendTimer = null;
      const refused = message.type === INCOMING.ERROR ? errorFrom(message) : null;
      if (refused && this.#resendLater(/** @type {string} */ (message.id), entry, refused)) return;
      this.#pending.delete(/** @type {string} */ (message.id));
      this.timers.clearTimeout(entry.timer);
      if (refused) entry.reject(refused);
      else entry.resolve(message);
      return;
    }
    const handler = this.#handlers.get(message.type);
    if (handler) handler(message);
    else this.log("volley: no handler for", message.type, message.id ?? "");
  }

  /**
   * After a refusal that asks for the same id again, wait the next delay and send it again; false
   * when the refusal is final (another code, or every resend spent).
   * @param {string} id
   * @param {PendingRequest} entry
   * @param {BridgeError} refused
   */
  #resendLater(id, entry, refused) {
    if (!RESEND_SAME_ID.includes(refused.code) || entry.resends >= this.resendDelaysMs.length) return false;
    const delayMs = this.resendDelaysMs[entry.resends];
    entry.resends += 1;
    entry.refused = refused;
    this.log(`volley: ${refused.code} for ${id}; asking again with the same id in ${delayMs} ms`);
    entry.resendTimer = this.timers.setTimeout(() => {
      entry.resendTimer = null;
      // Not connected now: the next welcome sends every waiting request, this one with them.
      if (this.#pending.get(id) === entry && this.#state === "ready") this.#send(entry.message);
    }, delayMs);
    return true;
  }

  /** @param {BridgeMessage} message */
  #handshake(message) {
    if (message.type === INCOMING.WELCOME) {
      this.timers.clearTimeout(this.#helloTimer);
      this.#helloTimer = null;
      this.#attempt = 0;
      this.#welcome = message;
      this.#setState("ready");
      this.#handlers.get(INCOMING.WELCOME)?.(message);
      // Unanswered requests go (again) with the same id: the bridge answers a known id from its log.
      // One waiting out a resend delay goes now, once: its timer is cancelled.
      for (const entry of this.#pending.values()) {
        this.timers.clearTimeout(entry.resendTimer);
        entry.resendTimer = null;
        this.#send(entry.message);
      }
      return;
    }
    if (message.type === INCOMING.ERROR) {
      const error = errorFrom(message);
      this.log("volley: the bridge refused the connection:", error.message);
      this.#clearTimers();
      const socket = this.#socket;
      this.#socket = null;
      if (socket) {
        this.#detach(socket);
        socket.close(1000, "refused");
      }
      this.#setState("refused", { error });
      this.#rejectAll(error);
      return;
    }
    this.log("volley: ignoring", message.type, "before welcome");
  }

  /** @param {SocketLike} socket */
  #onClose(socket) {
    if (socket !== this.#socket) return; // an old socket we already gave up on
    this.#detach(socket);
    this.#socket = null;
    this.timers.clearTimeout(this.#helloTimer);
    this.#helloTimer = null;
    if (this.#state === "stopped" || this.#state === "refused") return;
    this.#scheduleReconnect();
  }

  #scheduleReconnect() {
    const delayMs = backoffDelay(this.#attempt, this.backoff);
    this.#attempt += 1;
    this.#setState("waiting", { delayMs });
    this.#reconnectTimer = this.timers.setTimeout(() => {
      this.#reconnectTimer = null;
      if (this.#state === "waiting") this.#open();
    }, delayMs);
  }

  /** @param {BridgeMessage} message */
  #send(message) {
    const socket = this.#socket;
    if (socket && socket.readyState === OPEN) socket.send(JSON.stringify(message));
  }

  /** @param {SocketLike} socket */
  #detach(socket) {
    socket.onopen = null;
    socket.onmessage = null;
    socket.onclose = null;
    socket.onerror = null;
  }

  #clearTimers() {
    this.timers.clearTimeout(this.#reconnectTimer);
    this.timers.clearTimeout(this.#helloTimer);
    this.#reconnectTimer = null;
    this.#helloTimer = null;
  }

  /** @param {Error} error */
  #rejectAll(error) {
    const entries = [...this.#pending.values()];
    this.#pending.clear();
    for (const entry of entries) {
      this.timers.clearTimeout(entry.timer);
      this.timers.clearTimeout(entry.resendTimer);
      entry.reject(error);
    }
  }

  /**
   * @param {ConnectionState} state
   * @param {{delayMs?: number, error?: BridgeError}} [extra]
   */
  #setState(state, extra = {}) {
    this.#state = state;
    /** @type {ConnectionStatus} */
    const status = { state, attempt: this.#attempt, ...extra };
    if (state === "ready") status.welcome = this.#welcome;
    for (const listener of this.#listeners) listener(status);
  }
}

/**
 * @param {BridgeMessage} message an `error` message
 * @returns {BridgeError}
 */
export function errorFrom(message) {
  return new BridgeError({
    code: typeof message.code === "string" ? message.code : "error",
    message: typeof message.message === "string" ? message.message : "the bridge reported an error",
    path: typeof message.path === "string" ? message.path : null,
    msg: isMessage(message.msg) ? message.msg : null,
  });
}
