// The page around the module: the scene board (tokens are buttons named by the token's name), the
// Token HUD, the chat log, the players list and the notifications. It plays the part of Foundry's
// canvas and sidebar, firing the same hooks (renderTokenHUD with an HTMLElement, renderChatMessageHTML,
// renderPlayers, targetToken) so the module draws itself as it would in Foundry.

import { findStatus } from "./stand-in/generations.js";

const byId = (id) => document.getElementById(id);

/** A status's name as the world knows it (the module localises its own). */
function statusName(id) {
  const status = findStatus(CONFIG.statusEffects, id);
  return status ? game.i18n.localize(status.name) : id;
}

/** The rounds in the token's current Volley weapon, read from its profile (for the token's face). */
function roundsOf(token) {
  const profile = token.actor?.getFlag("volley", "profile");
  // A page still starting is drawn when another page changes the world (its tokens' actors): before
  // the module's init the setting is not registered yet, and the face shows no rounds until it is.
  let system;
  try {
    system = game.settings.get("volley", "ruleSystem");
  } catch {
    return "";
  }
  const weapons = (profile?.weapons ?? []).filter((w) => w.system === system);
  const current = weapons.find((w) => w.id === profile?.current?.[system]) ?? weapons[0];
  if (!current) return "";
  const loaded = current.state?.loaded;
  return typeof loaded === "number" ? `${current.name}: ${game.i18n.format("SANDBOX.Rounds", { n: loaded })}` : current.name;
}

/**
 * The HUD's labels hang outside its box, as Foundry's tooltips do: the left column's to the left of
 * its buttons, the right column's to the right. A token near the board's edge (every demo shooter
 * stands at its left) would have them cut off at the edge of the page, the longer Russian ones most:
 * move the HUD sideways, off the token's left edge, until every label is on the board.
 * @param {HTMLElement} hud
 * @param {HTMLElement} board
 */
function keepLabelsOnBoard(hud, board) {
  const MARGIN = 4;
  const edges = hudEdges(hud);
  const bounds = board.getBoundingClientRect();
  let shift = 0;
  if (edges.left < bounds.left + MARGIN) shift = bounds.left + MARGIN - edges.left;
  else if (edges.right > bounds.right - MARGIN) shift = Math.max(bounds.left + MARGIN - edges.left, bounds.right - MARGIN - edges.right);
  if (shift) hud.style.left = `${Math.round((Number.parseFloat(hud.style.left) || 0) + shift)}px`;
}

/**
 * How far left and right the HUD and its controls' labels (their `::after`) reach on the page.
 * @param {HTMLElement} hud
 */
function hudEdges(hud) {
  const box = hud.getBoundingClientRect();
  let left = box.left;
  let right = box.right;
  for (const control of hud.querySelectorAll(".control-icon")) {
    const label = getComputedStyle(control, "::after");
    const offset = Number.parseFloat(label.left);
    const width = Number.parseFloat(label.width) + Number.parseFloat(label.paddingLeft) + Number.parseFloat(label.paddingRight);
    if (label.content === "none" || !Number.isFinite(offset) || !Number.isFinite(width)) continue;
    const start = control.getBoundingClientRect().left + control.clientLeft + offset;
    left = Math.min(left, start);
    right = Math.max(right, start + width);
  }
  return { left, right };
}

export class Table {
  constructor({ world }) {
    this.world = world;
    this.hudToken = null;
    this.pending = false;
    /** Every message drawn, in order, and whether `ready` had fired (core draws the log before it). */
    this.rendered = [];
  }

  /** Redraw on the next frame (documents change in bursts). */
  changed() {
    if (this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => {
      this.pending = false;
      this.renderBoard();
      this.renderPlayers();
      this.renderCombat();
    });
  }

  renderBoard() {
    const board = byId("board");
    const scene = canvas.scene;
    board.dataset.scene = scene.id;
    board.setAttribute("aria-label", `${game.i18n.localize("SANDBOX.Board")}: ${scene.name}`);
    const seen = new Set();
    for (const token of scene.tokens.contents) {
      seen.add(token.id);
      let el = board.querySelector(`[data-token-id="${token.id}"]`);
      if (!el) {
        el = document.createElement("button");
        el.type = "button";
        el.className = "sandbox-token";
        el.dataset.tokenId = token.id;
        el.innerHTML = '<strong class="sandbox-token__name"></strong><span class="sandbox-token__rounds"></span><span class="sandbox-token__statuses"></span><span class="sandbox-token__target"></span>';
        el.addEventListener("click", (event) => {
          event.stopPropagation();
          // Clicking a token controls it (shift-click adds it to those controlled), as on Foundry's canvas.
          const object = canvas.scene.tokens.get(token.id)?.object;
          if (object) canvas.tokens.controlled = event.shiftKey ? [...new Set([...canvas.tokens.controlled, object])] : [object];
          this.showHud(token.id); // drawn afresh if it is already up, as Foundry redraws a HUD it binds again
        });
        board.append(el);
      }
      el.setAttribute("aria-label", token.name);
      el.style.left = `${token.x}px`;
      el.style.top = `${token.y}px`;
      el.querySelector(".sandbox-token__name").textContent = token.name;
      el.querySelector(".sandbox-token__rounds").textContent = roundsOf(token);
      const statuses = el.querySelector(".sandbox-token__statuses");
      statuses.replaceChildren(
        ...[...token.actor.statuses].map((id) => {
          const chip = document.createElement("span");
          chip.className = `sandbox-chip sandbox-chip--${id}`;
          chip.textContent = statusName(id);
          return chip;
        }),
      );
      const targeted = game.user.targets.has(token.object);
      el.classList.toggle("sandbox-token--targeted", targeted);
      el.querySelector(".sandbox-token__target").textContent = targeted ? game.i18n.localize("SANDBOX.Targeted") : "";
      el.classList.toggle("sandbox-token--owned", token.isOwner && !game.user.isGM);
      el.classList.toggle("sandbox-token--turn", game.combat?.combatant?.tokenId === token.id);
    }
    for (const el of board.querySelectorAll(".sandbox-token")) if (!seen.has(el.dataset.tokenId)) el.remove();
  }

  /** The user targets exactly these tokens (Foundry: T over a token), with the targetToken hook. */
  setTargets(ids) {
    const wanted = new Set(ids.map((id) => canvas.scene.tokens.get(id)?.object).filter(Boolean));
    for (const token of [...game.user.targets]) {
      if (!wanted.has(token)) {
        game.user.targets.delete(token);
        Hooks.callAll("targetToken", game.user, token, false);
      }
    }
    for (const token of wanted) {
      if (!game.user.targets.has(token)) {
        game.user.targets.add(token);
        Hooks.callAll("targetToken", game.user, token, true);
      }
    }
    this.changed();
  }

  toggleTarget(id) {
    const token = canvas.scene.tokens.get(id)?.object;
    if (!token) return;
    const ids = [...game.user.targets].map((t) => t.id);
    this.setTargets(game.user.targets.has(token) ? ids.filter((t) => t !== id) : [...ids, id]);
  }

  /**
   * The Token HUD over a token: v13's renderTokenHUD hook with an HTMLElement. It stays up while a
   * window opened from it is open (as in Foundry), so the focus can go back to the control that opened
   * the window; it is placed right after the token in the page, so Tab goes from the token into it.
   */
  showHud(tokenId) {
    this.closeHud();
    const token = canvas.scene.tokens.get(tokenId);
    if (!token) return;
    this.hudToken = tokenId;
    const hud = document.createElement("div");
    hud.id = "token-hud";
    hud.className = "token-hud";
    hud.setAttribute("role", "toolbar");
    hud.setAttribute("aria-label", `HUD: ${token.name}`);
    hud.innerHTML = '<div class="col left"></div><div class="col middle"></div><div class="col right"></div>';
    const left = hud.querySelector(".col.left");
    const target = document.createElement("button");
    target.type = "button";
    target.className = "control-icon";
    target.setAttribute("aria-label", game.i18n.localize("SANDBOX.Target"));
    target.setAttribute("aria-pressed", String(game.user.targets.has(token.object)));
    target.innerHTML = '<i class="fa-solid fa-bullseye" inert></i>';
    target.addEventListener("click", (event) => {
      event.stopPropagation();
      this.toggleTarget(tokenId);
      target.setAttribute("aria-pressed", String(game.user.targets.has(token.object)));
    });
    const sheet = document.createElement("button");
    sheet.type = "button";
    sheet.className = "control-icon";
    sheet.setAttribute("aria-label", game.i18n.localize("SANDBOX.Sheet"));
    sheet.innerHTML = '<i class="fa-solid fa-id-card" inert></i>';
    sheet.addEventListener("click", (event) => {
      event.stopPropagation();
      if (token.isOwner) void new foundry.applications.sheets.ActorSheetV2({ document: token.actor }).render({ force: true });
    });
    left.append(target, ...(token.isOwner ? [sheet] : []));
    hud.style.left = `${token.x}px`;
    hud.style.top = `${token.y + 78}px`;
    hud.addEventListener("click", (event) => event.stopPropagation());
    const tokenButton = byId("board").querySelector(`[data-token-id="${tokenId}"]`);
    if (tokenButton) tokenButton.after(hud);
    else byId("board").append(hud);
    Hooks.callAll("renderTokenHUD", { object: token.object, document: token, token: token.object }, hud, {}, {});
    keepLabelsOnBoard(hud, byId("board"));
  }

  /** Close the HUD; a keyboard user who was in it lands back on its token. */
  closeHud() {
    const hud = byId("token-hud");
    const hadFocus = hud?.contains(document.activeElement);
    hud?.remove();
    if (hadFocus) byId("board").querySelector(`[data-token-id="${this.hudToken}"]`)?.focus();
    this.hudToken = null;
  }

  /**
   * One chat message, drawn as Foundry's chat log draws it, then handed to renderChatMessageHTML: not at
   * all if this user may not see it (`visible`); a roll whose content this user may not see as core
   * draws it (v13 ChatMessage#renderHTML: the author's name, the flavor "… privately rolled some dice",
   * the rolls rendered private: "???" and "?"), never the message's own content.
   */
  renderMessage(message, { initial = false } = {}) {
    const log = byId("chat-log");
    // A message this page has never drawn is posted, not looked up: v13 ChatLog#postOne appends the new
    // element without searching the log; only #updateMessage queries it by id (a long session's log is
    // not searched once per card).
    const li = initial || !this.#posted.has(message.id) ? null : log.querySelector(`[data-message-id="${message.id}"]`);
    if (!game.messages.has(message.id) || !message.visible) {
      li?.remove();
      this.#posted.delete(message.id);
      return;
    }
    const fresh = document.createElement("li");
    fresh.className = "chat-message message";
    fresh.classList.toggle("whisper", message.whisper.length > 0);
    fresh.classList.toggle("blind", message.blind);
    fresh.dataset.messageId = message.id;
    const author = message.author?.name ?? "";
    fresh.innerHTML =
      '<header class="message-header"><span class="message-sender"></span> <span class="message-author"></span><span class="whisper-to"></span><span class="flavor-text"></span></header><div class="message-content"></div>';
    const hidden = message.isRoll && !message.isContentVisible;
    fresh.querySelector(".message-sender").textContent = hidden ? author : message.alias;
    fresh.querySelector(".message-author").textContent = author ? `(${author})` : "";
    if (message.whisper.length && !message.isRoll) {
      fresh.querySelector(".whisper-to").textContent = ` → ${message.whisper.map((id) => game.users.get(id)?.name ?? id).join(", ")}`;
    }
    const flavor = hidden ? game.i18n.format("CHAT.PrivateRollContent", { user: author }) : message.flavor;
    fresh.querySelector(".flavor-text").textContent = flavor ? ` ${flavor}` : "";
    const content = fresh.querySelector(".message-content");
    if (hidden) content.innerHTML = message.rolls.map((roll) => roll._html({ isPrivate: true })).join("");
    else {
      content.innerHTML = message.content; // Foundry inserts content as HTML
      if (!content.childElementCount && message.isRoll) content.innerHTML = message.rolls.map((roll) => roll._html({ isPrivate: false })).join("");
    }
    const atBottom = this.#atBottom;
    if (li) li.replaceWith(fresh);
    else if (initial) log.append(fresh);
    else this.#insertInOrder(log, fresh, message);
    this.#posted.add(message.id);
    this.rendered.push({ id: message.id, content: hidden ? "" : message.content, ready: game.ready });
    Hooks.callAll("renderChatMessageHTML", message, fresh, { message: message.toObject(), user: game.user, author: message.author, alias: message.alias, isWhisper: message.whisper.length > 0 });
    // v13 ChatLog#postOne: a message appended at the bottom scrolls the log down when it was at the
    // bottom or the message is this user's, through ChatLog#scrollBottom (asynchronous: it waits for the
    // log's images first, then sets the scroll container's scrollTop; no scrollIntoView of every card,
    // which laid out the page around a log that grows all session).
    if (!initial && !li && fresh === log.lastElementChild && (atBottom || message.isAuthor)) this.#scrollBottom(log);
  }

  /**
   * Ids of the messages this page drew: v13's `ChatMessage#logged` (foundry-vtt-types 13.345.1
   * client/documents/chat-message.d.mts: "Set `true` in ChatLog#postOne and ChatLog#_renderBatch").
   * The types leave ChatLog a stub; its postOne/scrollBottom here follow v13's
   * client/applications/sidebar/tabs/chat.mjs as public copies of it read.
   */
  #posted = new Set();
  /** Whether the log was scrolled to its end (v13 ChatLog#isAtBottom, kept by its scroll listener). */
  #atBottom = true;
  #scrollPending = false;
  #watching = false;

  /** v13 ChatLog#scrollBottom: once, after this task's posts (`scroll.scrollTop = 0x7fffffbf`). */
  #scrollBottom(log) {
    if (!this.#watching) {
      this.#watching = true;
      log.addEventListener("scroll", () => {
        this.#atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 2;
      }, { passive: true });
    }
    if (this.#scrollPending) return;
    this.#scrollPending = true;
    queueMicrotask(() => {
      this.#scrollPending = false;
      log.scrollTop = 0x7fffffbf;
      this.#atBottom = true;
    });
  }

  /** The whole log at start-up, in the world's order (existing entries drawn afresh), then scrolled down. */
  renderLog(messages) {
    const log = byId("chat-log");
    log.replaceChildren();
    this.#posted.clear();
    for (const message of messages) this.renderMessage(message, { initial: true });
    log.scrollTop = 0x7fffffbf; // v13 ChatLog#scrollBottom
  }

  /** The log is in the messages' order (a late page draws what came while it was loading in place). */
  #insertInOrder(log, li, message) {
    const last = log.lastElementChild;
    const lastMessage = last ? game.messages.get(last.dataset.messageId) : null;
    if (!lastMessage || lastMessage.timestamp <= message.timestamp) {
      log.append(li);
      return;
    }
    const later = [...log.children].find((other) => (game.messages.get(other.dataset.messageId)?.timestamp ?? 0) > message.timestamp);
    log.insertBefore(li, later ?? null);
  }

  removeMessage(message) {
    this.#posted.delete(message.id);
    byId("chat-log").querySelector(`[data-message-id="${message.id}"]`)?.remove();
  }

  /** The encounter's line in the header: whose turn it is, and the controls that move the turn. */
  renderCombat() {
    const combat = game.combat;
    const output = byId("combat-turn");
    const button = byId("next-turn");
    const back = byId("previous-turn");
    if (!output || !button || !back) return;
    const name = combat?.combatant?.name ?? "";
    output.textContent = combat?.started ? game.i18n.format("SANDBOX.TurnOf", { round: combat.round, name }) : game.i18n.localize("SANDBOX.NotBegun");
    button.textContent = game.i18n.localize(combat?.started ? "SANDBOX.NextTurn" : "SANDBOX.BeginCombat");
    back.textContent = game.i18n.localize("SANDBOX.PreviousTurn");
    // Moving the turn is the referee's (Foundry lets a player end only their own turn).
    button.hidden = !game.user.isGM;
    back.hidden = !game.user.isGM || !combat?.started;
  }

  renderPlayers() {
    const list = byId("players");
    if (!list.dataset.rendered) {
      list.dataset.rendered = "1";
      list.innerHTML = `<h2>${game.i18n.localize("SANDBOX.Players")}</h2><ul class="sandbox-players"></ul>`;
      Hooks.callAll("renderPlayers", { id: "players" }, list, {}, {});
    }
    const ul = list.querySelector(".sandbox-players");
    ul.replaceChildren(
      ...game.users.contents.map((user) => {
        const li = document.createElement("li");
        const role = user.role === 3 ? " (AGM)" : user.isGM ? " (GM)" : ""; // 3: CONST.USER_ROLES.ASSISTANT
        li.textContent = `${user.name}${role}${user.id === game.user.id ? " ★" : ""}`;
        li.classList.toggle("sandbox-players__inactive", !user.active);
        return li;
      }),
    );
  }

  notify(level, text) {
    const area = byId("notifications");
    const div = document.createElement("div");
    div.className = `notification ${level}`;
    div.textContent = text;
    area.append(div);
    while (area.children.length > 4) area.firstElementChild.remove();
    setTimeout(() => div.remove(), 8000);
  }
}
