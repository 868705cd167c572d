/**
 * The glue of standing-orders.js: when a Combat's turn comes to a token holding a standing order that
 * ends then (d100's overwatch), the browser holding the bridge lifts it the way a result would (the
 * token's Volley state, then its derived status) and says so in chat. Every other browser does nothing.
 *
 * The notice is drawn in each reader's language: the message keeps its key and the token's name in
 * `flags.volley.notice`, and `decorateNotice` writes it again when the message is rendered.
 */

import { ordersEnding, recordTurn, turnsBegun } from "../standing-orders.js";
import { allSystems, systemPlugin } from "../registry.js";
import { isHolder } from "./bridge.js";
import { findTokenDocument, syncDerivedStatuses, tokenHandle, tokenState } from "./documents.js";
import { MODULE_ID, overwatchEndsOnTurn, worldRuleSystem } from "./settings.js";
import { t } from "./words.js";
import { isHtmlElement } from "./window-dom.js";

/**
 * @typedef {import("../standing-orders.js").TurnState} TurnState
 * @typedef {import("../standing-orders.js").StandingOrder} StandingOrder
 * @typedef {{key: string, values: {name: string}}} Notice
 */

/** Names are what the table typed; a notice keeps at most this much of one. */
const NAME_MAX = 80;

/** Tokens whose orders are being lifted now, so a turn change heard twice does not lift and post twice. */
const lifting = new Set();

/** Where a Combat keeps whose turns have begun (`TurnsBegun`), under the module's flags. */
const TURNS_BEGUN = "turnsBegun";

/**
 * Foundry's `combatTurnChange` hook (every client, after the Combat's update): end the orders of the
 * token whose turn begins, on the browser that writes, and remember on the Combat that it began (so
 * stepping back and forward again does not begin it twice).
 * @param {Combat | null | undefined} combat
 * @param {Partial<TurnState>} prior
 * @param {Partial<TurnState>} current
 */
export async function onCombatTurnChange(combat, prior, current) {
  const plugin = systemPlugin(worldRuleSystem());
  const writer = isHolder();
  // A copy, read before the write below (a flag read is the document's own object, which the write may
  // change in place).
  const begun = turnsBegun(combat?.getFlag(MODULE_ID, TURNS_BEGUN));
  if (writer && plugin?.standingOrders?.length) {
    const record = recordTurn(begun, current);
    if (record) {
      try {
        await combat?.setFlag(MODULE_ID, TURNS_BEGUN, record);
      } catch (error) {
        console.error("volley:", error);
      }
    }
  }
  const due = ordersEnding({
    prior,
    current,
    begun,
    writer,
    enabled: overwatchEndsOnTurn(),
    orders: plugin?.standingOrders ?? [],
    stateOf: (id) => {
      const doc = findTokenDocument(id);
      return doc ? tokenState(doc) : null;
    },
  });
  if (!plugin || !due || lifting.has(due.token)) return;
  const doc = findTokenDocument(due.token);
  if (!doc) return;
  lifting.add(due.token);
  try {
    await tokenHandle(doc, plugin.id).setState(Object.fromEntries(due.orders.map((order) => [order.state, null])));
    await syncDerivedStatuses(doc, plugin);
    for (const order of due.orders) await postNotice(order, doc);
  } catch (error) {
    console.error("volley:", error);
    ui.notifications.error(`Volley: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    lifting.delete(due.token);
  }
}

/**
 * Say in chat that a token's order ended. A token the players cannot see is only told to game masters.
 * @param {StandingOrder} order
 * @param {TokenDocument} token
 */
async function postNotice(order, token) {
  /** @type {Notice} */
  const notice = { key: order.notice, values: { name: String(token.name ?? token.id ?? "").slice(0, NAME_MAX) } };
  const gms = game.users.contents.filter((user) => user.isGM).map((user) => String(user.id));
  await ChatMessage.create({
    content: noticeHtml(notice),
    author: game.user.id,
    speaker: ChatMessage.getSpeaker({ token }),
    whisper: token.hidden ? gms : [],
    flags: { [MODULE_ID]: { notice } },
  });
}

/**
 * A notice as this client reads it.
 * @param {Notice} notice
 */
function noticeHtml(notice) {
  const p = document.createElement("p");
  p.className = "volley-notice";
  p.textContent = t(notice.key, notice.values);
  return p.outerHTML;
}

/** The notices the rule systems can post: a message naming any other key is not Volley's. */
function noticeKeys() {
  return new Set(allSystems().flatMap((plugin) => (plugin.standingOrders ?? []).map((order) => order.notice)));
}

/**
 * The notice a chat message carries, read defensively (anyone allowed to could have edited the flags).
 * @param {{flags: unknown}} message
 * @returns {Notice | null}
 */
export function noticeOf(message) {
  const raw = /** @type {any} */ (message.flags)?.[MODULE_ID]?.notice;
  if (typeof raw !== "object" || raw === null) return null;
  const key = raw.key;
  const name = raw.values?.name;
  if (typeof key !== "string" || !noticeKeys().has(key) || typeof name !== "string") return null;
  return { key, values: { name: name.slice(0, NAME_MAX) } };
}

/**
 * Foundry's `renderChatMessageHTML`: a notice is written again in the reader's language.
 * @param {{flags: unknown}} message
 * @param {unknown} html
 */
export function decorateNotice(message, html) {
  const notice = noticeOf(message);
  if (!notice || !isHtmlElement(html)) return;
  const line = html.querySelector(".volley-notice");
  if (line) line.textContent = t(notice.key, notice.values);
}
