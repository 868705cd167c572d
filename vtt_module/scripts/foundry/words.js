/**
 * Words on screen: the module's own strings (`lang/<lang>.json`, `lang/systems/*.json`) and the rules'
 * messages (`lang/messages.<lang>.json`), both through Foundry's translations, both filled by the
 * module's template renderer (i18n/format.js), so the module's strings may use plural and yes/no forms
 * too ("{n} {n|round|rounds}").
 */

import { formatTemplate, isMessage, MESSAGE_PREFIX, renderText } from "../i18n/format.js";

/** The client's language (`en`, `ru`...). */
export function language() {
  return game.i18n?.lang ?? "en";
}

/** The decimal separator of the client's language. */
export function decimalSeparator() {
  return language() === "ru" ? "," : ".";
}

/**
 * A module string, its placeholders filled.
 * @param {string} key
 * @param {Record<string, unknown>} [values]
 */
export function t(key, values) {
  const template = game.i18n.localize(key);
  return values ? formatTemplate(template, values, language(), rulesText) : template;
}

/** @param {string} key */
export function hasWord(key) {
  return game.i18n.has(key);
}

/**
 * The template of a rules message key, or null when no language has it.
 * @param {string} key without the `VOLLEY.Msg.` prefix
 */
export function rulesText(key) {
  const full = MESSAGE_PREFIX + key;
  return game.i18n.has(full) ? game.i18n.localize(full) : null;
}

/**
 * A card's words: a plain string as it is, a rules message rendered.
 * @param {unknown} value
 */
export function messageText(value) {
  return renderText(value, language(), rulesText);
}

/**
 * A refusal or a form problem, as the user should read it: the rule in their language when it came as
 * a message (a form problem's `key`, `values`; a bridge refusal's `msg`, docs/protocol.md); a refusal
 * of the bridge's own (no `msg`: rate limits, a pending attack gone...) in the module's words for its
 * `code` when the user reads another language than the bridge's English; else the bridge's English.
 * @param {unknown} error
 */
export function problemText(error) {
  const e = /** @type {{field?: unknown, path?: unknown, key?: unknown, values?: unknown, msg?: unknown, code?: unknown, reason?: unknown, message?: unknown}} */ (
    typeof error === "object" && error !== null ? error : { message: String(error) }
  );
  if (isMessage(e.msg) && rulesText(e.msg.key) !== null) return messageText(e.msg);
  const where = typeof e.field === "string" ? e.field : typeof e.path === "string" ? e.path : "";
  if (typeof e.key === "string" && hasWord(e.key)) {
    const values = typeof e.values === "object" && e.values !== null ? /** @type {Record<string, unknown>} */ (e.values) : {};
    const rule = t(e.key, values);
    return where ? `${fieldName(where)}: ${rule}` : rule;
  }
  const code = e.code;
  if (typeof code === "string" && language() !== "en" && hasWord(`VOLLEY.BridgeRefusal.${code}`)) {
    return t(`VOLLEY.BridgeRefusal.${code}`);
  }
  return String(e.reason ?? e.message ?? error);
}

/**
 * A form field's name as the user knows it ("targets.0.shots" reads "Shots"), when the module has one.
 * @param {string} field
 */
function fieldName(field) {
  const last = field.replace(/^\$\.choice\./, "").split(".").filter((part) => !/^\d+$/.test(part)).at(-1) ?? field;
  const key = `VOLLEY.Fields.${last}`;
  return hasWord(key) ? game.i18n.localize(key) : field;
}
