/**
 * The chat card for one result. The bridge sends a structured card (title, weapon line, one row per
 * target, the rules engine's log); this turns it into the plain view the Handlebars template shows.
 *
 * Safety: everything on a card came from a request somebody typed (token names, weapon names) or from
 * the bridge, so nothing is trusted as markup. The view holds only strings, numbers and booleans taken
 * from known fields, bounded in length and count; the template prints them with `{{ }}` only, which
 * escapes; `escapeHtml` is for the few places the module builds markup by hand.
 *
 * Pure: the compiled template is passed in (Foundry's `getTemplate` in the VTT, Handlebars in tests).
 */

import { isPlainObject } from "./protocol.js";

/** Where the module's template lives once installed. */
export const CARD_TEMPLATE = "modules/volley/templates/chat-card.hbs";

/** Caps so a hostile or broken card cannot flood the chat log. */
export const CARD_LIMITS = Object.freeze({ text: 200, logLines: 60, rows: 32, statuses: 8 });

const HTML_ESCAPES = /** @type {Record<string, string>} */ ({
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
  "`": "&#96;",
  "=": "&#61;",
});

/**
 * Escape text for HTML content and quoted attribute values.
 * @param {unknown} value
 */
export function escapeHtml(value) {
  return String(value ?? "").replace(/[&<>"'`=]/g, (ch) => HTML_ESCAPES[ch] ?? ch);
}

/**
 * @param {unknown} value
 * @param {string} [fallback]
 */
function text(value, fallback = "") {
  if (typeof value !== "string" && typeof value !== "number") return fallback;
  const s = String(value);
  return s.length > CARD_LIMITS.text ? `${s.slice(0, CARD_LIMITS.text - 1)}…` : s;
}

/** @param {unknown} value */
function count(value) {
  return typeof value === "number" && Number.isFinite(value) ? Math.max(0, Math.trunc(value)) : 0;
}

/** @param {unknown} value */
function statusList(value) {
  return Array.isArray(value) ? value.slice(0, CARD_LIMITS.statuses).map((s) => text(s)).filter(Boolean) : [];
}

/**
 * @typedef {{target: string, name: string, hits: number, kind: "hit" | "miss",
 *   statusesAdd: string[], statusesRemove: string[]}} CardRowView
 * @typedef {{title: string, system: string, systemTitle: string, action: string,
 *   weapon: {name: string, loaded: number, jammed: boolean} | null,
 *   rows: CardRowView[], totalHits: number, log: string[], pending: boolean}} CardView
 */

/**
 * The template's view of a bridge card (see bridge/card.py): known fields only, as plain values.
 * @param {unknown} card
 * @returns {CardView}
 */
export function cardView(card) {
  const c = isPlainObject(card) ? card : {};
  const rows = (Array.isArray(c.rows) ? c.rows : []).slice(0, CARD_LIMITS.rows).map((raw) => {
    const row = isPlainObject(raw) ? raw : {};
    const hits = count(row.hits);
    return {
      target: text(row.target),
      name: text(row.name, text(row.target, "?")),
      hits,
      kind: /** @type {"hit" | "miss"} */ (hits > 0 ? "hit" : "miss"),
      statusesAdd: statusList(row.statuses_add),
      statusesRemove: statusList(row.statuses_remove),
    };
  });
  const w = isPlainObject(c.weapon) ? c.weapon : null;
  const logLines = Array.isArray(c.log) ? c.log : [];
  return {
    title: text(c.title, "Volley"),
    system: text(c.system),
    systemTitle: text(c.system_title, text(c.system)),
    action: text(c.action),
    weapon: w ? { name: text(w.name), loaded: count(w.loaded), jammed: w.jammed === true } : null,
    rows,
    totalHits: rows.reduce((sum, row) => sum + row.hits, 0),
    log: logLines.slice(0, CARD_LIMITS.logLines).map((line) => text(line)),
    pending: c.pending !== null && c.pending !== undefined,
  };
}

/**
 * Render a bridge card with the module's compiled chat-card template.
 * @param {unknown} card
 * @param {(view: CardView) => string} template
 */
export function renderCard(card, template) {
  return template(cardView(card));
}
