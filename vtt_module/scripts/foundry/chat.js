/**
 * Chat cards: posted once per request by the browser that holds the bridge, drawn again by every
 * client in its own language from the message's flags, with an Undo button for game masters.
 *
 * The message's `flags.volley` keep what the card needs and what Undo needs: the bridge's card and
 * result, the system, the token and weapon that acted, and `before` (the old values of everything the
 * result changed, updates.js), so Undo still works after a reload.
 *
 * Two-step attacks: the first step's card (`pending`: the pool rolled) keeps the choice and offers
 * **Allocate** to the player who fired (an owner of the token) and to game masters; the allocation
 * step posts the result as a card of its own, and the pending card is then marked `settled`: split by
 * whom, the hits, and a link to the result; or that the bridge no longer holds it (it expired or was
 * forgotten), so it offers nothing more.
 */

import { CARD_TEMPLATE, renderCard } from "../card.js";
import { diceSoNiceData } from "../table/dice-so-nice.js";
import { cardVisibility, diceShowOptions, ROLL_MODES } from "../table/roll-mode.js";
import { systemPlugin } from "../systems/index.js";
import { findTokenDocument } from "./documents.js";
import { activeControl } from "./focus.js";
import { MODULE_ID } from "./settings.js";
import { hasWord, messageText, t } from "./words.js";

/**
 * @typedef {{requestId: string, system: string, token: string, weapon: string | null,
 *   card: unknown, result: unknown, capacity: number | null, before: unknown[],
 *   pending: unknown, choice: unknown, requester?: string, undone: {by: string, at: number} | null,
 *   settled?: Settled | null}} CardFlags
 * @typedef {{kind: "allocated", by: string | null, requestId: string | null, messageId: string | null,
 *   hits: {name: string, hits: number}[], at: number} | {kind: "expired", code: string, at: number}} Settled
 *   how a pending attack ended: split (by whom, by which request, its card, the hits), or gone from the bridge
 */

/**
 * The parts of a chat message Volley reads and writes (Foundry's ChatMessage has them all).
 * @typedef {{id: string | null, flags: unknown, update(changes: Record<string, unknown>): Promise<unknown>}} CardMessage
 */

/** @type {((view: import("../card.js").CardView) => string) | null} */
let cardTemplate = null;

/**
 * The world's chat messages, as the parts Volley reads. (The v13 types' configured ChatMessage
 * loses its fields through the collection's generics; the objects are full ChatMessages.)
 * @returns {CardMessage[]}
 */
function chatMessages() {
  return /** @type {CardMessage[]} */ (/** @type {unknown} */ (game.messages.contents));
}

/**
 * @param {string} id
 * @returns {CardMessage | null}
 */
export function chatMessage(id) {
  return /** @type {CardMessage | undefined} */ (/** @type {unknown} */ (game.messages.get(id))) ?? null;
}

/** Compile the card template once (in `ready`), so messages can be drawn as they render. */
export async function loadCardTemplate() {
  cardTemplate = /** @type {any} */ (await foundry.applications.handlebars.getTemplate(CARD_TEMPLATE));
}

/** @type {import("../card.js").CardWords} */
const words = { text: messageText, localize: (key) => t(key), has: hasWord, format: (key, values) => t(key, values) };

/**
 * @param {{flags: unknown}} message
 * @returns {CardFlags | null}
 */
export function cardFlags(message) {
  const flags = /** @type {any} */ (message.flags)?.[MODULE_ID];
  return flags && typeof flags.requestId === "string" ? /** @type {CardFlags} */ (flags) : null;
}

/**
 * The card's HTML in this client's language.
 * @param {Pick<CardFlags, "card" | "result" | "system" | "capacity" | "undone" | "settled">} flags
 */
export function cardHtml(flags) {
  if (!cardTemplate) return "";
  const plugin = systemPlugin(flags.system);
  return renderCard(flags.card, cardTemplate, {
    words,
    extras: plugin?.cardExtras ? plugin.cardExtras(flags.result, { nameOf: (id) => findTokenDocument(id)?.name ?? null }) : [],
    rowNotes: plugin?.cardRows ? plugin.cardRows(flags.result) : [],
    capacity: flags.capacity,
    undone: Boolean(flags.undone),
    settled: settledView(flags.settled),
    rolled: rolledAny(flags.result),
  });
}

/**
 * Whether a result rolled any die (setting an overwatch order rolls none: its card has no "Rolls").
 * @param {unknown} result
 */
function rolledAny(result) {
  const rolls = typeof result === "object" && result !== null ? /** @type {any} */ (result).rolls : undefined;
  return !Array.isArray(rolls) || rolls.length > 0;
}

/**
 * How a pending card says its attack ended, in this client's language.
 * @param {Settled | null | undefined} settled
 * @returns {import("../card.js").SettledView | null}
 */
function settledView(settled) {
  if (!settled || typeof settled !== "object") return null;
  if (settled.kind === "expired") return { kind: "expired", text: t("VOLLEY.Card.Expired"), messageId: null };
  const hits = (Array.isArray(settled.hits) ? settled.hits : []).slice(0, 32).map((row) => t("VOLLEY.Card.HitsOf", { name: String(row.name), n: Number(row.hits) || 0 }));
  const by = typeof settled.by === "string" ? (game.users.get(settled.by)?.name ?? "") : "";
  return {
    kind: "allocated",
    text: t(by ? "VOLLEY.Card.AllocatedBy" : "VOLLEY.Card.Allocated", { name: by, hits: hits.join(", ") || "—" }),
    messageId: typeof settled.messageId === "string" ? settled.messageId : null,
  };
}

/**
 * The card posted for a request id, if any.
 * @param {string} requestId
 * @returns {CardMessage | null}
 */
export function cardFor(requestId) {
  const index = cardIndex();
  const id = index.get(requestId);
  const message = id ? chatMessage(id) : null;
  if (message && cardFlags(message)?.requestId === requestId) return message;
  if (id) index.delete(requestId);
  return null;
}

/**
 * Request id → card message id, so finding a card does not read every message of the world (a long
 * campaign keeps thousands): built once from `game.messages`, then kept by the chat hooks.
 * @type {Map<string, string> | null}
 */
let cardIds = null;

function cardIndex() {
  if (cardIds) return cardIds;
  const index = new Map();
  cardIds = index;
  for (const message of chatMessages()) indexCard(message);
  Hooks.on("createChatMessage", (message) => indexCard(/** @type {CardMessage} */ (/** @type {unknown} */ (message))));
  Hooks.on("deleteChatMessage", (message) => {
    const requestId = cardFlags(/** @type {CardMessage} */ (/** @type {unknown} */ (message)))?.requestId;
    if (requestId && index.get(requestId) === message.id) index.delete(requestId);
  });
  return index;
}

/** @param {CardMessage} message */
function indexCard(message) {
  const requestId = cardFlags(message)?.requestId;
  // The first card posted for an id is the one kept (postCard posts once per id).
  if (requestId && message.id && cardIds && !cardIds.has(requestId)) cardIds.set(requestId, message.id);
}

/**
 * Where a keyboard user goes back to on a pending attack's card when its allocation step closes and
 * the control that opened the step is gone (the card was drawn again): its Allocate button while the
 * attack waits, else the link to the result it settled into, else nothing.
 * @param {string} pendingId
 * @returns {HTMLElement | null}
 */
export function pendingCardControl(pendingId) {
  const id = cardFor(pendingId)?.id;
  const drawn = id ? document.querySelector(`[data-message-id="${CSS.escape(id)}"]`) : null;
  return drawn?.querySelector(".volley-card__allocate") ?? drawn?.querySelector("[data-volley-goto]") ?? null;
}

/**
 * A pending attack ended: say so on its card, for everyone (its flags and its stored HTML). A card
 * already settled stays as it was.
 * @param {string} pendingId the request id the bridge answered with `pending`
 * @param {Settled} settled
 */
export async function settlePending(pendingId, settled) {
  const message = cardFor(pendingId);
  const flags = message ? cardFlags(message) : null;
  if (!message || !flags || !flags.pending || flags.settled) return;
  /** @type {Record<string, unknown>} */
  const changes = { content: cardHtml({ ...flags, settled }) };
  changes[`flags.${MODULE_ID}.settled`] = settled;
  await message.update(changes);
}

/**
 * The requester's roll mode as the card honours it; anything else reads as a private roll, as in core.
 * @param {unknown} mode
 */
function rollModeOf(mode) {
  const known = /** @type {string[]} */ (Object.values(ROLL_MODES));
  return typeof mode === "string" && known.includes(mode) ? mode : mode === "roll" ? ROLL_MODES.PUBLIC : ROLL_MODES.PRIVATE;
}

/**
 * Post the card for one answer, once per request id (a resent or replayed id does not post twice),
 * read by exactly those who would read the requester's own roll in its roll mode (table/roll-mode.js);
 * with Dice So Nice, the bridge's dice roll in 3D for the same people first (table/dice-so-nice.js).
 * @param {Omit<CardFlags, "undone">} flags
 * @param {string} userId who acted
 * @param {TokenDocument | null} shooter
 * @param {unknown} rollMode the requester's roll mode (their client's core setting, sent with the choice)
 * @returns {Promise<string | null>} the card's message id
 */
export async function postCard(flags, userId, shooter, rollMode) {
  const posted = cardFor(flags.requestId);
  if (posted) return posted.id;
  if (!cardTemplate) await loadCardTemplate();
  const poster = String(game.user.id);
  const gms = game.users.contents.filter((user) => user.isGM).map((user) => String(user.id));
  const visibility = cardVisibility({ rollMode: rollModeOf(rollMode), requester: userId, poster, gms });
  await showDice(flags.result, userId, visibility, poster);
  /** @type {CardFlags} */
  const stored = { ...flags, requester: userId, undone: null, settled: null };
  const message = await ChatMessage.create({
    content: cardHtml(stored),
    author: visibility.author,
    whisper: visibility.whisper,
    blind: visibility.blind,
    speaker: ChatMessage.getSpeaker(shooter ? { token: shooter } : {}),
    flags: { [MODULE_ID]: stored },
  });
  return message?.id ?? null;
}

/**
 * Dice So Nice, when the table has it: the bridge's own faces, in the order the rules rolled them.
 * @param {unknown} result
 * @param {string} owner
 * @param {import("../table/roll-mode.js").CardVisibility} visibility
 * @param {string} poster
 */
async function showDice(result, owner, visibility, poster) {
  const dice3d = /** @type {{show?: (...args: unknown[]) => Promise<unknown>} | undefined} */ (/** @type {any} */ (game).dice3d);
  if (typeof dice3d?.show !== "function") return;
  const rolls = typeof result === "object" && result !== null ? /** @type {any} */ (result).rolls : null;
  const data = diceSoNiceData(rolls, { owner });
  if (!data.throws.length) return;
  const { synchronize, whisper, blind } = diceShowOptions(visibility, poster);
  try {
    await dice3d.show(data, game.user, synchronize, whisper, blind);
  } catch (error) {
    console.warn("volley: Dice So Nice could not show the dice", error);
  }
}

/**
 * Mark a card undone, for everyone and for good (its flags and its stored HTML).
 * @param {CardMessage} message
 * @param {string} userId who undid it
 */
export async function markUndone(message, userId) {
  const flags = cardFlags(message);
  if (!flags) return;
  const undone = { by: userId, at: Date.now() };
  /** @type {Record<string, unknown>} */
  const changes = { content: cardHtml({ ...flags, undone }) };
  changes[`flags.${MODULE_ID}.undone`] = undone;
  await message.update(changes);
}

/** Cards whose Undo this client pressed: when drawn undone, the focus goes to their "undone" line. */
const undoing = new Set();

/**
 * The Undo button is gone once the card is drawn undone; a keyboard user's focus goes to the line
 * saying what Undo did instead of falling onto the page.
 * @param {string} messageId
 */
export function focusWhenUndone(messageId) {
  undoing.add(messageId);
}

/**
 * Focus the card's "undone" line once it is on the page (Foundry inserts the drawn message after the
 * render hook), unless the user has put the focus somewhere meanwhile.
 * @param {HTMLElement} html
 */
function focusUndoneLine(html, tries = 20) {
  const line = /** @type {HTMLElement | null} */ (html.querySelector(".volley-card__undone"));
  if (!line || activeControl()) return;
  if (line.isConnected) line.focus();
  else if (tries > 0) requestAnimationFrame(() => focusUndoneLine(html, tries - 1));
}

/**
 * A button at the foot of a card.
 * @param {Element} card
 * @param {{className: string, icon: string, label: string, hint: string, onClick: (button: HTMLButtonElement) => void}} spec
 */
function cardButton(card, { className, icon, label, hint, onClick }) {
  if (card.querySelector(`.${className}`)) return;
  const button = document.createElement("button");
  button.type = "button";
  button.className = className;
  button.innerHTML = `<i class="${icon}" inert></i> `;
  button.append(label);
  button.dataset.tooltip = hint;
  button.title = hint;
  button.addEventListener("click", (event) => {
    event.preventDefault();
    onClick(button);
  });
  card.append(button);
}

/**
 * Whether this user may split a pending attack: the player who fired (an owner of the token) or a GM.
 * @param {CardFlags} flags
 */
function mayAllocate(flags) {
  return game.user.isGM || Boolean(findTokenDocument(flags.token)?.isOwner);
}

/**
 * `renderChatMessageHTML`: draw a Volley card in this client's language; give game masters an Undo
 * button on a result that is not undone yet, and the player who fired (or a GM) an Allocate button on
 * a pending attack that is still waiting; a settled pending card links to its result.
 * @param {CardMessage} message
 * @param {HTMLElement} html
 * @param {(message: CardMessage, button: HTMLButtonElement) => void} onUndo
 * @param {(message: CardMessage, button: HTMLButtonElement) => void} [onAllocate]
 */
export function decorateChatMessage(message, html, onUndo, onAllocate) {
  const flags = cardFlags(message);
  if (!flags || !(html instanceof HTMLElement)) return;
  const section = html.querySelector(".volley-card");
  const fresh = cardHtml(flags);
  if (section && fresh) section.outerHTML = fresh;
  if (flags.undone && message.id && undoing.delete(message.id)) focusUndoneLine(html);
  const card = html.querySelector(".volley-card");
  if (!card) return;
  for (const link of card.querySelectorAll("[data-volley-goto]")) {
    link.addEventListener("click", (event) => {
      event.preventDefault();
      const id = /** @type {HTMLElement} */ (link).dataset.volleyGoto ?? "";
      document.querySelector(`[data-message-id="${CSS.escape(id)}"]`)?.scrollIntoView({ block: "center", behavior: "smooth" });
    });
  }
  if (flags.pending) {
    if (flags.settled || !onAllocate || !mayAllocate(flags)) return;
    cardButton(card, {
      className: "volley-card__allocate",
      icon: "fa-solid fa-people-arrows",
      label: t("VOLLEY.Card.Allocate"),
      hint: t("VOLLEY.Card.AllocateHint"),
      onClick: (button) => onAllocate(message, button),
    });
    return;
  }
  if (!game.user.isGM || flags.undone) return;
  cardButton(card, {
    className: "volley-card__undo",
    icon: "fa-solid fa-rotate-left",
    label: t("VOLLEY.Card.Undo"),
    hint: t("VOLLEY.Card.UndoHint"),
    onClick: (button) => onUndo(message, button),
  });
}
