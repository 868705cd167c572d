/**
 * Drawing a Volley card in a reader's client (`renderChatMessageHTML`): the card in this reader's
 * language from its flags, a private card lifted (or its secret part asked of the browser holding the
 * bridge, and asked again when that browser is back), its dice shown once to the reader who lifted it,
 * and the card's buttons: Undo for game masters, Allocate and Cancel on a pending attack, links to a
 * settled attack's result. What a card holds, and posting and marking it, are ./chat.js.
 */

import { diceSoNiceData } from "../chat-card/dice-so-nice.js";
import { afterCardTemplate, cardFlags, cardHtml, cardRecord, cardTemplateReady, isVeiled, mayRead, rememberRevealed } from "./chat.js";
import { findTokenDocument } from "./documents.js";
import { activeControl } from "./focus.js";
import { t } from "./words.js";
import { documentOf, isHtmlElement } from "./window-dom.js";

/**
 * @typedef {import("./chat.js").CardFlags} CardFlags
 * @typedef {import("./chat.js").CardMessage} CardMessage
 */

/** Reveals asked for and not answered yet, by request key. @type {Map<string, Promise<boolean>>} */
const revealing = new Map();
/** Private cards drawn without their secret part, to draw again once it can be asked for. @type {Map<string, () => unknown>} */
const waitingReveals = new Map();

/** The browser holding the bridge is there: every private card still waiting asks again. */
export function retryReveals() {
  const again = [...waitingReveals.values()];
  waitingReveals.clear();
  for (const draw of again) draw();
}

/**
 * Ask once for a private card's secret part, and keep it.
 * @param {CardMessage} message
 * @param {(message: CardMessage) => Promise<Record<string, unknown> | null>} reveal
 * @returns {Promise<boolean>} whether it is known now
 */
function askToReveal(message, reveal) {
  const requestId = cardFlags(message)?.requestId ?? "";
  const asked = revealing.get(requestId);
  if (asked) return asked;
  const answer = reveal(message)
    .then((secret) => {
      if (secret) rememberRevealed(message, secret);
      return Boolean(secret);
    })
    .catch(() => false)
    .finally(() => revealing.delete(requestId));
  revealing.set(requestId, answer);
  return answer;
}

/** Cards created while this page was open, whose dice this reader has not watched yet. */
const freshCards = new Set();

/**
 * A chat message was created while this page is open (`createChatMessage`): if it is a private card,
 * its dice are shown here in 3D once this reader has lifted it.
 * @param {{id: string | null}} message
 */
export function noteCreatedCard(message) {
  if (message.id) freshCards.add(message.id);
}

/**
 * Dice So Nice animates a message's own rolls in every reader's browser; a private card's roll holds
 * no die, so its reader's browser shows the bridge's dice itself, once, where only that reader sees
 * them (`synchronize` false: nobody else's screen).
 * @param {CardMessage} message
 * @param {CardFlags} flags
 */
function animateLifted(message, flags) {
  if (!message.id || !freshCards.delete(message.id)) return;
  const dice3d = /** @type {any} */ (game).dice3d;
  if (!dice3d || typeof dice3d.show !== "function") return;
  const rolls = typeof flags.result === "object" && flags.result !== null ? /** @type {any} */ (flags.result).rolls : null;
  const data = diceSoNiceData(rolls, { owner: flags.requester });
  if (!data.throws.length) return;
  void Promise.resolve(dice3d.show(data, game.users.get(String(flags.requester ?? "")) ?? game.user, false)).catch(() => {});
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
  if (!line || activeControl(html)) return;
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
  const button = documentOf(card).createElement("button");
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
 * @param {(message: CardMessage) => Promise<Record<string, unknown> | null>} [reveal] asks the browser
 *   holding the bridge for a private card's secret part (null when it will not say)
 * @param {(message: CardMessage, button: HTMLButtonElement) => void} [onCancel] cancel a pending attack (#31)
 */
export function decorateChatMessage(message, html, onUndo, onAllocate, reveal, onCancel) {
  const clear = cardFlags(message);
  if (!clear || !isHtmlElement(html)) return;
  // Core drew "???" for a reader who may not read this roll: nothing of the card is added back.
  if (message.isContentVisible === false) return;
  /** @type {CardFlags | null} */
  let flags = clear;
  if (isVeiled(clear)) {
    if (!mayRead(clear, game.user)) return;
    flags = cardRecord(message);
    if (!flags) {
      // Only the browser holding the bridge can lift it: ask it, and draw the card when it answers.
      html.querySelector(".volley-card")?.setAttribute("aria-busy", "true");
      if (reveal) {
        const again = () => html.isConnected && decorateChatMessage(message, html, onUndo, onAllocate, reveal, onCancel);
        // Not answered (the table's relay not started yet, no referee's browser there): asked again
        // when the bridge is back (retryReveals).
        void askToReveal(message, reveal).then((ok) => (ok ? again() : waitingReveals.set(clear.requestId, again)));
      }
      return;
    }
    animateLifted(message, flags);
  }
  const section = html.querySelector(".volley-card");
  if (!cardTemplateReady()) {
    // The chat log is drawn before the template has arrived: hold the card's place, never show the
    // poster's words, and draw it in this reader's language as soon as the template is there.
    if (section) section.replaceChildren();
    section?.setAttribute("aria-busy", "true");
    afterCardTemplate(() => decorateChatMessage(message, html, onUndo, onAllocate, reveal, onCancel));
    return;
  }
  const fresh = cardHtml(flags);
  if (section && fresh) section.outerHTML = fresh;
  if (flags.undone && message.id && undoing.delete(message.id)) focusUndoneLine(html);
  const card = html.querySelector(".volley-card");
  if (!card) return;
  for (const link of card.querySelectorAll("[data-volley-goto]")) {
    link.addEventListener("click", (event) => {
      event.preventDefault();
      const id = /** @type {HTMLElement} */ (link).dataset.volleyGoto ?? "";
      // The log this card is drawn in (the sidebar's, or a chat log popped out into its own window).
      documentOf(html).querySelector(`[data-message-id="${CSS.escape(id)}"]`)?.scrollIntoView({ block: "center", behavior: "smooth" });
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
    // Cancel: the attack holds its weapon until it is split or cancelled; cancelling spends nothing.
    if (onCancel) {
      cardButton(card, {
        className: "volley-card__cancel",
        icon: "fa-solid fa-ban",
        label: t("VOLLEY.Card.Cancel"),
        hint: t("VOLLEY.Card.CancelHint"),
        onClick: (button) => onCancel(message, button),
      });
    }
    return;
  }
  // Undo only for a result whose updates were applied and whose record is sealed (chat-card/seal.js).
  if (!game.user.isGM || flags.undone || flags.applied !== true || typeof flags.seal !== "string") return;
  cardButton(card, {
    className: "volley-card__undo",
    icon: "fa-solid fa-rotate-left",
    label: t("VOLLEY.Card.Undo"),
    hint: t("VOLLEY.Card.UndoHint"),
    onClick: (button) => onUndo(message, button),
  });
}
