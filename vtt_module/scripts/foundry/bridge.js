/**
 * The table's line to the bridge: which browser holds the connection, the connection itself, the
 * relay every other browser uses to reach it, and the connection's state as every client sees it.
 *
 * - Election (gm-election.js `electHolderBrowser`), per browser, not per user: every GM browser says
 *   over the module socket that it is there and whether it has an access token (presence.js); Foundry's
 *   `game.users.activeGM` first, then the other GMs; within one GM, the oldest browser. A second tab of
 *   the holding GM is a follower and says so on its status line. The user flag `bridgeToken` is still
 *   written (older clients read it), but the election reads the browsers.
 * - Handover: when the holder's page goes (closed, reloaded: `pagehide` says goodbye at once; crashed:
 *   its silence does after `PRESENCE_TIMING.expiryMs`) the next browser takes the connection, and every
 *   player's waiting request is sent to it again under the same id (relay.js).
 * - The holder's connection state is broadcast over the module socket, so a player's Fire control
 *   and preview show "bridge offline" at once, and the referee always sees connected, reconnecting
 *   in N s, or refused and why.
 * - The token goes only to the address this browser's referee chose (settings.js): an address off this
 *   machine waits, state `unconfirmed`, until the referee confirms it in this browser; the referee's
 *   status line shows such an address.
 */

import { fromConnection, fromWire, isOnline, toWire, UNKNOWN_STATUS } from "../bridge-status.js";
import { BridgeConnection, isLoopbackAddress } from "../connection.js";
import { electHolderBrowser, TOKEN_FLAG } from "../gm-election.js";
import { newBrowserId, Presence, PRESENCE_TIMING, presenceTimingFrom } from "../presence.js";
import { Relay, relayTimeoutMs } from "../relay.js";
import { accessToken, bridgeAddressTrusted, bridgeUrl, confirmBridgeAddress, MODULE_ID, requestTimeoutMs } from "./settings.js";
import { t } from "./words.js";

/**
 * @typedef {import("../bridge-status.js").BridgeStatus} BridgeStatus
 * @typedef {import("../relay.js").RelayedMessage} RelayedMessage
 * @typedef {import("../protocol.js").BridgeMessage} BridgeMessage
 */

/** @type {BridgeConnection | null} */
let connection = null;
/** @type {Relay | null} */
let relay = null;
/** @type {Presence | null} */
let presence = null;
/** This page load's own id among the table's browsers. */
export const BROWSER_ID = newBrowserId();
/** The holder last elected here, to notice a handover. */
let lastHolder = "";
/** This browser's own connection state, when it holds the bridge. @type {BridgeStatus} */
let ownStatus = UNKNOWN_STATUS;
/** What the holder last said, when another browser holds the bridge. @type {BridgeStatus} */
let heardStatus = UNKNOWN_STATUS;
/** @type {Set<(status: BridgeStatus) => void>} */
const listeners = new Set();
/** @type {ReturnType<typeof setInterval> | null} */
let ticker = null;
/** Notices already shown this session, so each is said once. */
const said = new Set();
let started = false;
/** Requests sent before this browser has heard who holds the bridge, waiting to hear it. @type {Set<() => void>} */
const waitingForHolder = new Set();

/** The users as the election reads them. */
function electorate() {
  return game.users.contents.map((user) => ({
    id: String(user.id),
    active: user.active,
    isGM: user.isGM,
    role: Number(user.role),
    flags: /** @type {Record<string, any>} */ (user.flags),
  }));
}

/**
 * The browser that holds the bridge (its user's `id`, its `browser` id), or null when no GM browser is
 * there.
 * @returns {{id: string, browser: string, token: boolean} | null}
 */
export function bridgeHolder() {
  if (!presence) return null;
  const elected = electHolderBrowser(presence.browsers(), electorate(), game.users.activeGM?.id ?? null);
  return elected ? { id: elected.user, browser: elected.browser, token: elected.token } : null;
}

/** Whether this browser holds the bridge. */
export function isHolder() {
  const holder = bridgeHolder();
  return started && holder !== null && holder.browser === BROWSER_ID;
}

/** Whether another browser of this same user holds the bridge (this one is a follower tab). */
export function isFollower() {
  const holder = bridgeHolder();
  return started && holder !== null && holder.id === game.user.id && holder.browser !== BROWSER_ID;
}

/** The connection, on the holder's browser. */
export function bridgeConnection() {
  return connection;
}

/**
 * The bridge's state as this client knows it.
 * @returns {BridgeStatus}
 */
export function bridgeStatus() {
  const holder = bridgeHolder();
  if (!holder) return { state: "no_gm" };
  if (holder.browser === BROWSER_ID) return ownStatus;
  if (holder.id === game.user.id) return { ...heardStatus, follower: true };
  return heardStatus;
}

/**
 * @param {(status: BridgeStatus) => void} listener called on every change, and every second while a
 *   reconnect is counting down
 * @returns {() => void} unsubscribe
 */
export function onBridgeStatus(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function announce() {
  const status = bridgeStatus();
  for (const listener of listeners) {
    try {
      listener(status);
    } catch (error) {
      console.error("volley: a bridge status listener failed", error);
    }
  }
  const counting = status.state === "waiting";
  if (counting && ticker === null) ticker = setInterval(announce, 1000);
  if (!counting && ticker !== null) {
    clearInterval(ticker);
    ticker = null;
  }
}

/**
 * Send a relayed message (a choice, an undo) from this user through whoever holds the bridge.
 * @param {RelayedMessage} message
 * @returns {Promise<BridgeMessage>}
 */
export async function sendRelayed(message) {
  if (!relay) return { type: "error", id: message.id, code: "not_ready", message: "Volley is not ready yet" };
  await holderHeard();
  return /** @type {Relay} */ (relay).send(message);
}

/**
 * Until this browser knows who holds the bridge, or has waited the settle time for the others to answer
 * (after which "no referee" is the truth): a macro or a console call made the moment a page is ready is
 * sent to the holder, not refused because the referee's answer to this page's hello is still on its way.
 * @returns {Promise<void>}
 */
function holderHeard() {
  if (mayRelayNow()) return Promise.resolve();
  return new Promise((resolve) => waitingForHolder.add(resolve));
}

/**
 * Whether a relayed message may go now: the holder is known, the settle time is over, or there is no
 * presence to wait on.
 * @returns {boolean}
 */
function mayRelayNow() {
  return bridgeHolder() !== null || presence === null || presence.settled;
}

/** The presence changed (a browser heard, the settle time over): wake whoever waits for the holder. */
function presenceChanged() {
  if (mayRelayNow()) {
    for (const wake of waitingForHolder) wake();
    waitingForHolder.clear();
  }
  syncConnection();
}

/**
 * Start the relay and the election (in `ready`).
 * @param {(message: RelayedMessage, userId: string) => Promise<BridgeMessage>} forward the holder's handling
 * @param {(userId: string, tokenId: string) => boolean} ownsToken
 * @param {(userId: string, shooterId: string, tokenId: string) => boolean} [maySee] whether a player may
 *   name that token beside that shooter (relay.js vetRelayed)
 */
export async function startBridge(forward, ownsToken, maySee) {
  const isGm = (/** @type {string} */ userId) => Boolean(game.users.get(userId)?.isGM);
  // The table's own settle time, if it set one (CONFIG.volley.presence), else the module's.
  const timing = { ...PRESENCE_TIMING, ...presenceTimingFrom(/** @type {any} */ (globalThis).CONFIG?.volley?.presence) };
  relay = new Relay({
    socket: game.socket,
    userId: () => String(game.user.id),
    browser: BROWSER_ID,
    holder: () => {
      const holder = bridgeHolder();
      return holder ? { user: holder.id, browser: holder.browser } : null;
    },
    ownsToken,
    isGm,
    maySee,
    forward,
    currentStatus: () => toWire(ownStatus, Date.now()),
    timeoutMs: () => relayTimeoutMs(requestTimeoutMs(), timing),
  });
  presence = new Presence({
    emit: (data, routing) => relay?.emit(data, routing),
    browser: BROWSER_ID,
    userId: () => String(game.user.id),
    isGm,
    hasToken: () => accessToken() !== "",
    onChange: presenceChanged,
    timing,
  });
  const here = presence;
  relay.also((data, senderId) => here.receive(data, senderId));
  relay.attach();
  relay.onStatus((wire) => {
    const before = heardStatus.state;
    heardStatus = fromWire(wire, Date.now());
    // The holder is connected again: whatever this browser still waits for goes to it again. (Not when
    // this browser only now learns it: what it sent went to that holder, and a new holder is sent
    // everything anyway, syncConnection.)
    if (heardStatus.state === "ready" && before !== "ready" && before !== "unknown") relay?.resend();
    announce();
  });
  started = true;
  globalThis.addEventListener?.("pagehide", () => presence?.stop());
  presence.start();
  await publishTokenFlag();
  syncConnection();
  if (!isHolder()) relay.askStatus();
}

/**
 * Foundry says a user connected or left: a user who left has no browsers any more.
 * @param {string} userId
 * @param {boolean} connected
 */
export function userConnection(userId, connected) {
  if (!connected) presence?.userLeft(userId);
  if (connected) presence?.announce();
  syncConnection();
}

/** A GM's browser tells the others whether it has an access token (the election reads it). */
export async function publishTokenFlag() {
  if (!game.user.isGM) return;
  const has = accessToken() !== "";
  if (game.user.getFlag(MODULE_ID, TOKEN_FLAG) === has) return;
  try {
    await game.user.setFlag(MODULE_ID, TOKEN_FLAG, has);
  } catch (error) {
    console.warn("volley: could not record whether this browser has a bridge token", error);
  }
}

/** @param {BridgeStatus} status */
function setOwnStatus(status) {
  ownStatus = status;
  if (isHolder()) relay?.publishStatus(toWire(status, Date.now()));
  announce();
}

/**
 * @param {string} key
 * @param {"info" | "warn" | "error"} level
 * @param {string} text
 */
function sayOnce(key, level, text) {
  if (said.has(key)) return;
  said.add(key);
  ui.notifications[level](text);
}

/**
 * Hold the bridge connection if and only if this browser is elected; run again whenever users or
 * settings change.
 * @param {boolean} [restart] the connection settings changed: reconnect with the new ones
 */
export function syncConnection(restart = false) {
  if (!started) return;
  presence?.announce();
  const holder = bridgeHolder();
  const mine = holder?.browser === BROWSER_ID;
  const key = holder ? holder.browser : "";
  const handedOver = key !== lastHolder;
  if (handedOver) {
    lastHolder = key;
    // Another browser holds the bridge now: every request this one waits for goes to it again.
    queueMicrotask(() => relay?.resend());
  }
  if (game.user.isGM && game.users.activeGM?.id === game.user.id && !accessToken() && holder && holder.id !== game.user.id) {
    sayOnce(`handed:${holder.id}`, "info", t("VOLLEY.Bridge.HandedOver", { name: game.users.get(holder.id)?.name ?? holder.id }));
  }
  if (!mine) {
    if (connection) {
      connection.stop("another GM holds the bridge connection");
      connection = null;
    }
    ownStatus = UNKNOWN_STATUS;
    // What this holder last said stands while it holds; a new holder is asked (at most once a second
    // per user, relay.js), rather than on every presence change.
    if (handedOver || heardStatus === UNKNOWN_STATUS) {
      heardStatus = UNKNOWN_STATUS;
      relay?.askStatus();
    }
    announce();
    return;
  }
  if (connection && !restart) return;
  connection?.stop("settings changed");
  connection = null;
  const token = accessToken();
  if (!token) {
    sayOnce("no-token", "warn", t("VOLLEY.Bridge.NoTokenNotice"));
    setOwnStatus({ state: "no_token" });
    return;
  }
  said.delete("no-token");
  const url = bridgeUrl();
  if (!bridgeAddressTrusted()) {
    // Not this machine, and not confirmed here: nothing is sent until the referee says so.
    setOwnStatus({ state: "unconfirmed", address: url });
    if (!said.has(`confirm:${url}`)) {
      said.add(`confirm:${url}`);
      void askBridgeAddress();
    }
    return;
  }
  const version = game.modules.get(MODULE_ID)?.version ?? "dev";
  connection = new BridgeConnection({
    url,
    token,
    WebSocket: globalThis.WebSocket,
    requestTimeoutMs: requestTimeoutMs(),
    client: `volley-module ${version} / ${game.world?.id ?? "world"}`,
    log: (...args) => console.warn(...args),
  });
  const offMachine = isLoopbackAddress(url) ? null : url;
  connection.onStatus((status) => {
    const seen = fromConnection(status, Date.now());
    // The referee's own line says where the bridge is when it is not this machine (never on the wire).
    setOwnStatus(offMachine ? { ...seen, address: offMachine } : seen);
    if (status.state === "ready") {
      for (const key of [...said]) if (key.startsWith("refused:") || key === "waiting") said.delete(key);
      sayOnce("ready", "info", t("VOLLEY.Bridge.ConnectedNotice"));
    } else if (status.state === "waiting") {
      said.delete("ready");
      sayOnce("waiting", "warn", t("VOLLEY.Bridge.LostNotice"));
    }
    if (status.state === "refused") {
      const key = status.error?.code === "bad_url" ? "VOLLEY.Bridge.BadUrlNotice" : "VOLLEY.Bridge.RefusedNotice";
      sayOnce(`refused:${status.error?.reason ?? ""}`, "error", t(key, { reason: status.error?.reason ?? "" }));
    }
  });
  connection.start();
}

/** A confirmation is being asked for: one at a time. */
let asking = false;

/**
 * Ask the referee, in this browser, whether the bridge is at this browser's address (one off this
 * machine): yes, and the token goes there from now on; no, and nothing is sent. The status line offers
 * the question again.
 */
export async function askBridgeAddress() {
  const url = bridgeUrl();
  if (asking || bridgeAddressTrusted()) return;
  asking = true;
  try {
    const DialogV2 = /** @type {any} */ (foundry.applications.api).DialogV2;
    const content = document.createElement("p");
    content.textContent = t("VOLLEY.Bridge.ConfirmAddress", { address: url });
    const yes = await DialogV2.confirm({
      window: { title: t("VOLLEY.Bridge.ConfirmTitle") },
      content: content.outerHTML,
      rejectClose: false,
      modal: true,
    });
    if (yes === true && bridgeUrl() === url) {
      await confirmBridgeAddress();
      syncConnection(true);
    }
  } catch (error) {
    console.warn("volley: could not ask to confirm the bridge's address", error);
  } finally {
    asking = false;
  }
}

/** True when this client may fire now (the holder's bridge is connected). */
export function bridgeOnline() {
  return isOnline(bridgeStatus());
}
