/**
 * Chat cards: posted once per request by the browser that holds the bridge, drawn again by every
 * client in its own language from the message's flags, with an Undo button for game masters.
 *
 * This file holds what a card is and keeps: its flags, its HTML, posting it, marking it applied, undone
 * or settled, and its private part sealed and lifted. Drawing it in a reader's client, with its
 * buttons, is ./chat-render.js.
 *
 * The message's `flags.volley` keep what the card needs and what Undo needs: the bridge's card and
 * result, the system, the token and weapon that acted, and `before` (the old values of everything the
 * result changed, updates.js), so Undo still works after a reload.
 *
 * Trust (issue #17, docs/protocol.md "Cards"): a card is authored by the GM whose browser posts it,
 * with the shooter as the speaker. In Foundry v13 a player can neither create a message in another
 * user's name nor update or delete a message they did not author (`BaseChatMessage` permission rules:
 * create requires `author` to be the creating user unless a GM creates it; update/delete require
 * OWNER, which only the author and GMs have: foundry-vtt-types 13.345.1
 * `src/foundry/common/documents/chat-message.d.mts`, `metadata.permissions` and `getUserLevel`). So only a card a GM authored is a card: a message with Volley flags from anyone else
 * is drawn as what it is (plain text), gets no button, and is never taken as the card of a request.
 * `before` is also sealed with the bridge's token (chat-card/seal.js). The card is written before the
 * result's updates and marked `applied` after them, so a request asked again after a crash applies its
 * updates once (referee.js).
 *
 * Private cards (issue #32): Foundry sends every chat message to every client and core hides a private
 * roll only when it draws it, so a card not everyone may read (a GM, blind or self roll) keeps in the
 * clear only what every client may know (`PUBLIC_FIELDS`); the rest (the bridge's card and result,
 * the choice, the weapon, `before`, a pending attack's pool) is sealed in `flags.volley.veil`
 * (chat-card/veil.js, a key from the bridge's token). Its `content` holds no result, and its one roll no
 * die (so core still draws "???" for whoever may not read it). A browser with the token lifts the veil
 * itself; any other reader (the player who fired a GM roll, a GM without the token) asks the browser
 * holding the bridge, which answers that user alone (`reveal`, referee.js). Dice So Nice animates the
 * dice in each reader's browser once the card is lifted there.
 *
 * Two-step attacks: the first step's card (`pending`: the pool rolled) keeps the choice and offers
 * **Allocate** to the player who fired (an owner of the token) and to game masters; the allocation
 * step posts the result as a card of its own, and the pending card is then marked `settled`: split by
 * whom, the hits, and a link to the result; or that the bridge no longer holds it (it expired or was
 * forgotten), so it offers nothing more.
 */

import { CARD_TEMPLATE, renderCard } from "../card.js";
import { unveil, veil } from "../chat-card/veil.js";
import { cardVisibility, messageMode } from "../chat-card/roll-mode.js";
import { rollsData } from "../chat-card/rolls.js";
import { systemPlugin } from "../registry.js";
import { findTokenDocument } from "./documents.js";
import { changeText } from "./keeper.js";
import { accessToken, MODULE_ID } from "./settings.js";
import { hasWord, messageText, t } from "./words.js";

/**
 * @typedef {{requestId: string, system: string, token: string, weapon: string | null,
 *   card: unknown, result: unknown, capacity: number | null, before: unknown[],
 *   pending: unknown, choice: unknown, requester?: string, undone: {by: string, at: number} | null,
 *   settled?: Settled | null, applied?: boolean, seal?: string, mode?: string, veil?: string,
 *   outside?: unknown[], previous?: string | null, previousOutside?: boolean}} CardFlags
 *   `requestId` is the bridge's key (relay.js requestKey); `applied`: the result's updates are on the
 *   tokens; `seal`: chat-card/seal.js; `mode`: who reads it (chat-card/roll-mode.js messageMode; absent on
 *   cards from before issue #32: public); `veil`: a private card's secret part (chat-card/veil.js), and then
 *   `pending` is only whether the attack waits; `outside`: what changed outside Volley since the weapon's
 *   last card (foundry/keeper.js, #31); `previous`: the card whose values the weapon held before this one
 *   (Undo hands it back, newest first); `previousOutside`: the weapon, once this card is undone, holds a
 *   change made outside Volley since `previous` (said on this card or an earlier pending one), so the
 *   books Undo writes keep `previous`'s own Undo refused
 * @typedef {{kind: "allocated", by: string | null, requestId: string | null, messageId: string | null,
 *   hits: {name: string, hits: number}[], at: number} | {kind: "expired", code: string, at: number}
 *   | {kind: "cancelled", by: string, at: number}} Settled
 *   how a pending attack ended: split (by whom, by which request, its card, the hits), gone from the
 *   bridge, or cancelled (by whom; nothing was spent)
 */

/**
 * The parts of a chat message Volley reads and writes (Foundry's ChatMessage has them all).
 * @typedef {{id: string | null, flags: unknown, author?: {isGM?: boolean} | null, isContentVisible?: boolean,
 *   update(changes: Record<string, unknown>): Promise<unknown>}} CardMessage
 */

/** What a private card keeps in the clear: what every client may know about it. */
export const PUBLIC_FIELDS = Object.freeze(["requestId", "system", "token", "requester", "mode", "applied", "seal", "undone", "settled", "pending", "veil"]);

/** A private card's one roll: no die (so it is a roll message, read as core reads one, with nothing to read). */
const VEILED_ROLL = Object.freeze({ class: "Roll", options: {}, dice: [], formula: "0", terms: [{ class: "NumericTerm", options: {}, evaluated: true, number: 0 }], total: 0, evaluated: true });

/** The placeholder a private card's stored content is (its readers' clients draw the card itself). */
const VEILED_CONTENT = '<section class="volley-card volley-card--veiled" aria-busy="true"></section>';

/** @type {((view: import("../card.js").CardView) => string) | null} */
let cardTemplate = null;
/** @type {Promise<void> | null} */
let loading = null;
/** Cards drawn before the template was there, filled in once it is. @type {Set<() => void>} */
const waitingForTemplate = new Set();

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

/**
 * Compile the card template once. Started in `init`: core draws the chat log (and calls
 * `renderChatMessageHTML` for every message in it) before `ready` (v13 `Game#setupGame`: `setup`, then
 * the UI is rendered, then `ready`), so a card drawn before the template is there waits for it (a
 * placeholder, never the poster's language) and is filled in when it arrives.
 */
export function loadCardTemplate() {
  loading ??= (async () => {
    cardTemplate = /** @type {any} */ (await foundry.applications.handlebars.getTemplate(CARD_TEMPLATE));
    for (const fill of [...waitingForTemplate]) fill();
    waitingForTemplate.clear();
  })();
  return loading;
}

/** Whether the card template is compiled, so a card can be drawn now. */
export function cardTemplateReady() {
  return cardTemplate !== null;
}

/**
 * Call `fill` once the card template is compiled (asking for it, if no one has yet).
 * @param {() => void} fill
 */
export function afterCardTemplate(fill) {
  waitingForTemplate.add(fill);
  void loadCardTemplate();
}

/** @type {import("../card.js").CardWords} */
const words = { text: messageText, localize: (key) => t(key), has: hasWord, format: (key, values) => t(key, values) };

/**
 * @param {{flags: unknown}} message
 * @returns {CardFlags | null}
 */
export function cardFlags(message) {
  if (!isGmCard(message)) return null;
  const flags = /** @type {any} */ (message.flags)?.[MODULE_ID];
  return flags && typeof flags.requestId === "string" ? /** @type {CardFlags} */ (flags) : null;
}

/**
 * Whether a message is a card a GM posted: its author is a GM (a player cannot post in a GM's name).
 * @param {{flags: unknown, author?: unknown}} message
 */
export function isGmCard(message) {
  // v13: `author` is a ForeignDocumentField, read as the User; its id is looked up should a client hold it bare.
  const raw = /** @type {any} */ (message).author;
  const author = typeof raw === "string" ? game.users.get(raw) : raw;
  return Boolean(author && typeof author === "object" && author.isGM === true);
}

/**
 * The card's line saying what changed outside Volley since the weapon's last card (#31): each change,
 * who made it when it is known, and whether it stood or was put back.
 * @param {unknown} outside the card's `outside` flag
 * @returns {import("../registry.js").CardExtra[]}
 */
function outsideExtras(outside) {
  const changes = (Array.isArray(outside) ? outside : []).filter((c) => typeof c === "object" && c !== null).slice(0, 16);
  if (changes.length === 0) return [];
  const text = changes
    .map((raw) => {
      const change = /** @type {Record<string, unknown>} */ (raw);
      const what = changeText({ weapon: null, field: String(change.field ?? ""), from: change.from, to: change.to });
      const who = typeof change.by_name === "string" && change.by_name ? change.by_name : t("VOLLEY.Books.Unknown");
      return t(change.kept === false ? "VOLLEY.Books.ChangePutBack" : "VOLLEY.Books.ChangeKept", { change: what, user: who });
    })
    .join("; ");
  return [{ label: "VOLLEY.Books.Outside", value: text }];
}

/**
 * The card's HTML in this client's language.
 * @param {Pick<CardFlags, "card" | "result" | "system" | "capacity" | "undone" | "settled" | "outside">} flags
 */
export function cardHtml(flags) {
  if (!cardTemplate) return "";
  const plugin = systemPlugin(flags.system);
  return renderCard(flags.card, cardTemplate, {
    words,
    extras: [
      ...outsideExtras(flags.outside),
      ...(plugin?.cardExtras
        ? plugin.cardExtras(flags.result, { nameOf: (id) => findTokenDocument(id)?.name ?? null, settled: flags.settled ? (flags.settled.kind === "allocated" ? "allocated" : "expired") : null })
        : []),
    ],
    rowNotes: plugin?.cardRows ? plugin.cardRows(flags.result) : [],
    capacity: flags.capacity,
    undone: Boolean(flags.undone),
    settled: settledView(flags.settled),
    rolled: rolledAny(flags.result),
    result: flags.result,
    hits: plugin?.cardHits ? plugin.cardHits(flags.result) : true,
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
  if (settled.kind === "cancelled") {
    const who = typeof settled.by === "string" ? (game.users.get(settled.by)?.name ?? "") : "";
    return { kind: "expired", text: t("VOLLEY.Card.Cancelled", { name: who || "—" }), messageId: null };
  }
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
  if (isVeiled(flags)) {
    // The hits are the result's: a private card says only how it ended; its readers follow the link.
    const bare = settled.kind === "allocated" ? { ...settled, hits: [] } : settled;
    await message.update(flagChanges({ ...flags, settled: bare }));
    return;
  }
  await message.update({ content: cardHtml({ ...flags, settled }), ...flagChanges({ ...flags, settled }) });
}

/**
 * Post the card for one answer, once per request key (a resent or replayed key does not post twice),
 * as the poster (a GM) with the shooter as the speaker, holding the bridge's dice as rolls so core's
 * roll-mode rules decide who reads it (chat-card/roll-mode.js) and Dice So Nice animates it in each
 * reader's own browser: nothing here waits for an animation.
 * @param {Omit<CardFlags, "undone">} flags
 * @param {string} userId who acted
 * @param {TokenDocument | null} shooter
 * @param {unknown} rollMode the requester's roll mode (their client's core setting, sent with the choice)
 * @returns {Promise<CardMessage | null>} the card
 */
export async function postCard(flags, userId, shooter, rollMode) {
  const posted = cardFor(flags.requestId);
  if (posted) return posted;
  await loadCardTemplate();
  const poster = String(game.user.id);
  const gms = game.users.contents.filter((user) => user.isGM).map((user) => String(user.id));
  const mode = cardRollMode(rollMode);
  const visibility = cardVisibility({ rollMode: mode, requester: userId, poster, gms });
  /** @type {CardFlags} */
  const stored = { ...flags, requester: userId, mode, undone: null, settled: null };
  const rolls = typeof flags.result === "object" && flags.result !== null ? /** @type {any} */ (flags.result).rolls : null;
  const shared = { author: visibility.author, whisper: visibility.whisper, blind: visibility.blind, speaker: ChatMessage.getSpeaker(shooter ? { token: shooter } : {}) };
  if (mode !== "public") {
    // The secret part goes under the veil; the rest, and a roll with no die, in the clear.
    const clear = /** @type {CardFlags} */ (/** @type {unknown} */ (publicPart(stored)));
    clear.pending = Boolean(flags.pending);
    clear.veil = veil(accessToken(), flags.requestId, secretPart(stored));
    remember(flags.requestId, stored);
    const message = await ChatMessage.create({ ...shared, content: VEILED_CONTENT, rolls: [JSON.stringify(VEILED_ROLL)], flags: { [MODULE_ID]: clear } });
    return /** @type {CardMessage | null} */ (/** @type {unknown} */ (message)) ?? null;
  }
  const message = await ChatMessage.create({
    ...shared,
    content: cardHtml(stored),
    // Each roll as JSON, as core stores it (v13 BaseChatMessage schema: `rolls` is an array of JSON fields).
    rolls: rollsData(rolls).map((roll) => JSON.stringify(roll)),
    flags: { [MODULE_ID]: stored },
  });
  return /** @type {CardMessage | null} */ (/** @type {unknown} */ (message)) ?? null;
}

/**
 * What of a card's flags is in the clear.
 * @param {Record<string, unknown>} flags
 */
function publicPart(flags) {
  return Object.fromEntries(PUBLIC_FIELDS.filter((field) => field in flags).map((field) => [field, flags[field]]));
}

/**
 * What of a card's flags goes under its veil.
 * @param {Record<string, unknown>} flags
 */
function secretPart(flags) {
  return Object.fromEntries(Object.entries(flags).filter(([field]) => !PUBLIC_FIELDS.includes(field) || field === "pending"));
}

/** Private cards lifted in this browser, by request key: their whole flags. @type {Map<string, CardFlags>} */
const lifted = new Map();

/**
 * @param {string} requestId
 * @param {CardFlags} flags the whole flags
 */
function remember(requestId, flags) {
  lifted.set(requestId, flags);
}

/**
 * Whether a card is private (its secret part veiled).
 * @param {CardFlags} flags
 */
export function isVeiled(flags) {
  return typeof flags.veil === "string";
}

/**
 * A card's whole flags if this browser can have them now: a public card's own; a private card's when
 * lifted before, or liftable with this browser's token. Null when only the browser holding the bridge
 * can lift it (`revealCard`).
 * @param {CardMessage} message
 * @returns {CardFlags | null}
 */
export function cardRecord(message) {
  const flags = cardFlags(message);
  if (!flags) return null;
  if (!isVeiled(flags)) return flags;
  const known = lifted.get(flags.requestId);
  const secret = known ? null : unveil(accessToken(), flags.requestId, flags.veil);
  if (!known && !secret) return null;
  const whole = /** @type {CardFlags} */ ({ ...(known ?? secret), ...publicPart(/** @type {any} */ (flags)), pending: (known ?? secret)?.pending ?? null });
  delete whole.veil;
  remember(flags.requestId, whole);
  return whole;
}

/**
 * A private card's secret part as the browser holding the bridge lifted it for a reader (referee.js).
 * @param {CardMessage} message
 * @param {Record<string, unknown>} secret
 */
export function rememberRevealed(message, secret) {
  const flags = cardFlags(message);
  if (!flags || !isVeiled(flags)) return;
  const whole = /** @type {CardFlags} */ ({ ...secret, ...publicPart(/** @type {any} */ (flags)), pending: secret.pending ?? null });
  delete whole.veil;
  remember(flags.requestId, whole);
}

/**
 * The secret part of a private card, lifted with this browser's token (the holder answering `reveal`).
 * @param {CardMessage} message
 * @returns {Record<string, unknown> | null}
 */
export function liftVeil(message) {
  const flags = cardFlags(message);
  return flags && isVeiled(flags) ? unveil(accessToken(), flags.requestId, flags.veil) : null;
}

/**
 * Who may read a card (as core shows a roll of that mode; chat-card/roll-mode.js): everyone for a public
 * one; a GM roll the GMs and the player who fired; a blind roll the GMs; a self roll the player alone.
 * @param {CardFlags} flags
 * @param {{id: string, isGM: boolean} | null | undefined} user
 */
export function mayRead(flags, user) {
  if (!user) return false;
  const mode = messageMode(flags.mode ?? "public");
  if (mode === "public") return true;
  if (mode === "self") return user.id === flags.requester;
  if (mode === "blind") return user.isGM;
  return user.isGM || user.id === flags.requester;
}

/**
 * The requester's mode as the card honours it (v13's roll modes and v14's message modes alike:
 * chat-card/roll-mode.js `messageMode`); anything else reads as a private roll, as in core.
 * @param {unknown} mode
 */
export function cardRollMode(mode) {
  return messageMode(mode);
}

/**
 * The result's updates are on the tokens: the card says so (and carries the seal of what Undo puts back).
 * @param {CardMessage} message
 * @param {string} seal
 */
export async function markApplied(message, seal) {
  const flags = cardFlags(message);
  if (!flags) return;
  await message.update(flagChanges({ ...flags, applied: true, seal }));
}

/**
 * An update of a card's Volley flags, written whole (a merge of the whole object is the same in any
 * client, however it merges nested keys).
 * @param {CardFlags} flags
 * @returns {Record<string, unknown>}
 */
function flagChanges(flags) {
  return { [`flags.${MODULE_ID}`]: flags };
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
  if (isVeiled(flags)) await message.update(flagChanges({ ...flags, undone }));
  else await message.update({ content: cardHtml({ ...flags, undone }), ...flagChanges({ ...flags, undone }) });
}
