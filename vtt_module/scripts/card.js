/**
 * The chat card for one result. The bridge sends a structured card (title, weapon line, one row per
 * target, the rules engine's log); this turns it into the plain view the Handlebars template shows,
 * in the reader's language.
 *
 * Words: a card's title and log lines are messages (`{key, values}`, rendered from the
 * `VOLLEY.Msg.*` catalogue) since protocol v2, plain English strings before; both are accepted. The
 * system's name and the statuses come from the module's own lang files. Every client renders the card
 * from the message's flags in its own language; the HTML stored in the message is the referee's copy.
 *
 * Safety: everything on a card came from a request somebody typed (token names, weapon names) or from
 * the bridge, so nothing is trusted as markup. The view holds only strings, numbers and booleans taken
 * from known fields, bounded in length and count; the template prints them with `{{ }}` only, which
 * escapes; `escapeHtml` is for the few places the module builds markup by hand.
 *
 * Pure: the compiled template and the word lookups are passed in.
 */

import { isPlainObject } from "./protocol.js";

/** Where the module's template lives once installed. */
export const CARD_TEMPLATE = "modules/volley/templates/chat-card.hbs";

/** Caps so a hostile or broken card cannot flood the chat log. */
export const CARD_LIMITS = Object.freeze({ text: 200, logLines: 60, rows: 32, statuses: 8, extras: 8, notes: 4 });

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
 * @param {string} s
 */
function bounded(s) {
  return s.length > CARD_LIMITS.text ? `${s.slice(0, CARD_LIMITS.text - 1)}…` : s;
}

/**
 * @param {unknown} value
 * @param {string} [fallback]
 */
function text(value, fallback = "") {
  if (typeof value !== "string" && typeof value !== "number") return fallback;
  return bounded(String(value));
}

/** @param {unknown} value */
function count(value) {
  return typeof value === "number" && Number.isFinite(value) ? Math.max(0, Math.trunc(value)) : 0;
}

/**
 * @typedef {{
 *   text: (value: unknown) => string,
 *   localize: (key: string) => string,
 *   has?: (key: string) => boolean,
 *   format?: (key: string, values: Record<string, unknown>) => string
 * }} CardWords how words reach the card: `text` renders a plain string or a rules message; `localize`
 *   the module's own keys; `has` whether a module key exists (a status the module has no name for is
 *   shown by its id); `format` a module key with its placeholders filled (a row's notes)
 * @typedef {"" | "good" | "bad" | "alert"} Tone how a line on the card's face reads at a glance: a test
 *   passed or a jam cleared (good), failed (bad), something the referee must act on (alert: a critical)
 * @typedef {{label: string, value: string, tone: Tone}} ExtraView
 * @typedef {{text: string, tone: Tone}} NoteView
 * @typedef {{target: string, name: string, hits: number, kind: "hit" | "miss", role: string,
 *   bystander: boolean, notes: NoteView[], statusesAdd: string[], statusesRemove: string[]}} CardRowView
 *   `role`: a word after the name for a token that was not aimed at (a bystander); `notes`: what the
 *   system says of this target on the card's face (GURPS: shots, effective skill, hits dodged, a
 *   critical; d100: where the hits struck, a test passed or failed)
 * @typedef {{kind: "allocated" | "expired", text: string, messageId: string | null}} SettledView how a
 *   pending attack ended (split, with its result's message; or gone from the bridge), already in words
 * @typedef {{title: string, system: string, systemTitle: string, action: string,
 *   weapon: {name: string, loaded: number, capacity: number | null, jammed: boolean} | null,
 *   rows: CardRowView[], totalHits: number, log: string[], pending: boolean, aimedAt: string,
 *   extras: ExtraView[], undone: boolean, settled: SettledView | null, hasEffects: boolean,
 *   logLabel: string, tableRules: string[], hitsShown: boolean}} CardView
 *   `aimedAt`: the targets' names, for a pending card (which has no hits yet); `hasEffects`: whether any
 *   row has a note or a status (else the card has no Effects column); `tableRules`: the readings the
 *   table changed from Volley's (the bridge's `card.table_rules`), in words; `hitsShown`: false on a
 *   card that hit nobody by its nature (a d100 suppression test or recovery), which has no Hits column
 */

/** English words when no lookup is given (node tests, logs). @type {CardWords} */
const PLAIN_WORDS = {
  text: (value) => (typeof value === "string" ? value : isPlainObject(value) && typeof value.key === "string" ? value.key : ""),
  localize: (key) => key,
};

/**
 * @param {unknown} value
 * @param {CardWords} words
 */
function statusList(value, words) {
  if (!Array.isArray(value)) return [];
  return value
    .slice(0, CARD_LIMITS.statuses)
    .filter((s) => typeof s === "string" && s)
    .map((id) => {
      const key = `VOLLEY.Statuses.${id}`;
      const known = words.has ? words.has(key) : false;
      return bounded(known ? words.localize(key) : String(id));
    });
}

/** @param {unknown} tone @returns {Tone} */
function toneOf(tone) {
  return tone === "good" || tone === "bad" || tone === "alert" ? tone : "";
}

/**
 * A value for a module text: a number or short name as it is; a module key (`{key}`, a location, a
 * fault) in words; a list of them joined.
 * @param {unknown} value
 * @param {CardWords} words
 * @returns {string | number}
 */
function wordOf(value, words) {
  if (typeof value === "number") return value;
  if (typeof value === "string") return bounded(value);
  if (isPlainObject(value) && typeof value.key === "string") return words.localize(value.key);
  if (Array.isArray(value)) return bounded(value.slice(0, 16).map((item) => String(wordOf(item, words))).join(", "));
  return "";
}

/**
 * A module key with its values, in words (a row's note, a line's value).
 * @param {string} key
 * @param {unknown} values
 * @param {CardWords} words
 */
function formatKey(key, values, words) {
  const filled = Object.fromEntries(Object.entries(isPlainObject(values) ? values : {}).map(([name, value]) => [name, wordOf(value, words)]));
  return words.format ? words.format(key, filled) : key;
}

/**
 * A system's note on one row, in words: a module key with its values (numbers, short names, or keys).
 * @param {import("./registry.js").CardNote} note
 * @param {CardWords} words
 * @returns {NoteView}
 */
function formatNote(note, words) {
  if (!isPlainObject(note) || typeof note.key !== "string") return { text: "", tone: "" };
  return { text: bounded(formatKey(note.key, note.values, words)), tone: toneOf(note.tone) };
}

/**
 * The statuses each token gains and loses in a result's `updates` (what a protocol-2 card's rows listed).
 * @param {unknown} updates
 * @returns {Map<string, {statuses_add: unknown[], statuses_remove: unknown[]}>}
 */
function statusesByToken(updates) {
  /** @type {Map<string, {statuses_add: unknown[], statuses_remove: unknown[]}>} */
  const found = new Map();
  for (const update of Array.isArray(updates) ? updates : []) {
    if (!isPlainObject(update) || typeof update.token !== "string") continue;
    const into = found.get(update.token) ?? { statuses_add: [], statuses_remove: [] };
    found.set(update.token, into);
    if (Array.isArray(update.statuses_add)) into.statuses_add.push(...update.statuses_add);
    if (Array.isArray(update.statuses_remove)) into.statuses_remove.push(...update.statuses_remove);
  }
  return found;
}

/**
 * The template's view of a bridge card (see bridge/card.py): known fields only, as plain values.
 * @param {unknown} card
 * @param {{words?: CardWords, extras?: import("./registry.js").CardExtra[],
 *   rowNotes?: import("./registry.js").CardRowNote[], capacity?: number | null,
 *   undone?: boolean, settled?: SettledView | null, rolled?: boolean, result?: unknown, hits?: boolean}} [options] `extras`: the system's
 *   lines under the table; `rowNotes`: the system's notes per target row; `capacity`: the weapon's full
 *   load, shown beside the rounds left; `settled`: how a pending attack ended; `rolled`: false when no
 *   die was rolled (setting an overwatch order), so the log is not headed "Rolls"; `result`: the
 *   reply's result, whose `log` and `pending` a protocol-3 card is shown with (a protocol-2 card
 *   carries its own copies); `hits`: false for a card with no Hits column
 * @returns {CardView}
 */
export function cardView(card, { words = PLAIN_WORDS, extras = [], rowNotes = [], capacity = null, undone = false, settled = null, rolled = true, result = null, hits = true } = {}) {
  const c = isPlainObject(card) ? card : {};
  const own = "log" in c || !isPlainObject(result) ? c : result;
  const notesOf = new Map(rowNotes.map((note) => [note.target, note]));
  const statusesOf = own === c ? null : statusesByToken(own.updates);
  const rows = (Array.isArray(c.rows) ? c.rows : []).slice(0, CARD_LIMITS.rows).map((raw) => {
    const row = isPlainObject(raw) ? raw : {};
    const hits = count(row.hits);
    const target = text(row.target);
    const extra = notesOf.get(target);
    // A protocol-3 row lists no statuses: they are the result's updates for its token.
    const statuses = "statuses_add" in row || !statusesOf ? row : (statusesOf.get(target) ?? {});
    const bystander = typeof extra?.role === "string" && extra.role !== "";
    return {
      target,
      name: text(row.name, text(row.target, "?")),
      hits,
      kind: /** @type {"hit" | "miss"} */ (hits > 0 ? "hit" : "miss"),
      role: bystander ? bounded(words.localize(/** @type {string} */ (extra?.role))) : "",
      bystander,
      notes: (extra?.notes ?? []).slice(0, CARD_LIMITS.notes).map((note) => formatNote(note, words)).filter((note) => note.text),
      statusesAdd: statusList(statuses.statuses_add, words),
      statusesRemove: statusList(statuses.statuses_remove, words),
    };
  });
  const w = isPlainObject(c.weapon) ? c.weapon : null;
  const logLines = Array.isArray(own.log) ? own.log : [];
  const system = text(c.system);
  const systemKey = `VOLLEY.Systems.${system}`;
  const systemTitle = system && words.has?.(systemKey) ? words.localize(systemKey) : text(c.system_title, system);
  return {
    title: bounded(words.text(c.title) || "Volley"),
    system,
    systemTitle,
    action: text(c.action),
    weapon: w
      ? {
          name: text(w.name),
          loaded: count(w.loaded),
          capacity: typeof capacity === "number" && capacity > 0 ? Math.trunc(capacity) : null,
          jammed: w.jammed === true,
        }
      : null,
    rows,
    logLabel: rolled ? "VOLLEY.Card.Rolls" : "VOLLEY.Card.Steps",
    hasEffects: rows.some((row) => row.notes.length > 0 || row.statusesAdd.length > 0 || row.statusesRemove.length > 0),
    totalHits: rows.reduce((sum, row) => sum + row.hits, 0),
    log: logLines
      .slice(0, CARD_LIMITS.logLines)
      .map((line) => bounded(words.text(line)))
      .filter(Boolean),
    pending: own.pending !== null && own.pending !== undefined,
    aimedAt: bounded(rows.map((row) => row.name).join(", ")),
    extras: extras.slice(0, CARD_LIMITS.extras).map((extra) => ({
      label: bounded(words.localize(extra.label)),
      value: bounded(
        isPlainObject(extra.value) && typeof extra.value.key === "string"
          ? isPlainObject(extra.value.values)
            ? formatKey(extra.value.key, extra.value.values, words)
            : words.localize(extra.value.key)
          : String(extra.value ?? ""),
      ),
      tone: toneOf(extra.tone),
    })),
    hitsShown: hits,
    undone,
    tableRules: (Array.isArray(c.table_rules) ? c.table_rules : [])
      .slice(0, CARD_LIMITS.logLines)
      .map((line) => bounded(words.text(line)))
      .filter(Boolean),
    settled: settled
      ? {
          kind: settled.kind === "expired" ? "expired" : "allocated",
          text: bounded(String(settled.text ?? "")),
          messageId: typeof settled.messageId === "string" && /^[A-Za-z0-9_-]{1,64}$/.test(settled.messageId) ? settled.messageId : null,
        }
      : null,
  };
}

/**
 * Render a bridge card with the module's compiled chat-card template.
 * @param {unknown} card
 * @param {(view: CardView) => string} template
 * @param {Parameters<typeof cardView>[1]} [options]
 */
export function renderCard(card, template, options) {
  return template(cardView(card, options));
}
