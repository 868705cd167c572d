/**
 * Reading numbers and words that a person typed (the profile editor) or chose (an attack dialog), with
 * a refusal that names the field and the rule when they do not fit.
 *
 * The same readers run in the player's browser (to show what is wrong as they type) and in the
 * referee's (to refuse a relayed choice that a hand-edited client sent), so both say the same thing.
 * Refusals are messages (an i18n key under `VOLLEY.Form.` and its values), never English sentences,
 * so the player sees them in their own language.
 *
 * Pure: no Foundry globals.
 */

/** A value a person gave that does not fit: which field, and the rule as a message. */
export class FormError extends Error {
  /**
   * @param {string} field the form's field name, e.g. `targets.0.shots` or `stats.rof`
   * @param {string} key i18n key of the rule, e.g. `VOLLEY.Form.AtLeast`
   * @param {Record<string, unknown>} [values] the rule's numbers
   */
  constructor(field, key, values = {}) {
    super(`${field}: ${englishRule(key, values)}`);
    this.name = "FormError";
    this.field = field;
    this.key = key;
    this.values = values;
  }
}

/** English for the log and for node tests; the dialog localises `key` itself. */
const ENGLISH = /** @type {Record<string, string>} */ ({
  "VOLLEY.Form.Required": "required",
  "VOLLEY.Form.WholeNumber": "not a whole number: {value}",
  "VOLLEY.Form.AtLeast": "must be at least {min}",
  "VOLLEY.Form.AtMost": "must be at most {max}",
  "VOLLEY.Form.OneOf": "one of {options}, not {value}",
  "VOLLEY.Form.TooLong": "at most {max} characters",
  "VOLLEY.Form.NoShots": "give at least one target a shot",
  "VOLLEY.Form.NotSet": "not set in the character's Volley profile",
  "VOLLEY.Form.UnknownTarget": "not a token on this scene",
  "VOLLEY.Form.UnknownToken": "no such token on any scene",
  "VOLLEY.Form.UnknownWeapon": "the actor has no such weapon",
  "VOLLEY.Form.NoWeapon": "the actor has no weapon for this system; add one in its Volley profile",
  "VOLLEY.Form.WrongSystem": "this world plays {system}",
  "VOLLEY.Form.NoSystem": "choose the world's rule system in the module settings",
  "VOLLEY.Form.NoOdds": "this action has no odds to preview",
  "VOLLEY.Form.NoAllocation": "this system has no two-step allocation",
  "VOLLEY.Form.NothingToUndo": "this card has nothing to undo",
  "VOLLEY.Form.AlreadyUndone": "this card is already undone",
  "VOLLEY.Form.Held": "{weapon} waits for the allocation of its pending attack: allocate or cancel it first",
  "VOLLEY.Form.NothingToCancel": "{weapon} has no pending attack to cancel",
  "VOLLEY.Form.HeldChanged": "{weapon} changed since this attack was rolled ({changes}): the split would overwrite it; cancel the attack and fire again",
  "VOLLEY.Form.UndoLater": "a later card changed {weapon}: undo that one first",
  "VOLLEY.Form.UndoChanged": "{weapon} was changed outside Volley since this card: Undo would overwrite that",
});

/**
 * @param {string} key
 * @param {Record<string, unknown>} values
 */
function englishRule(key, values) {
  const template = ENGLISH[key] ?? key.split(".").at(-1) ?? key;
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

/**
 * @typedef {{min?: number, max?: number, optional?: boolean}} IntRule
 */

/**
 * A whole number from a form string or a number; `null` for an empty optional field.
 * @param {unknown} raw
 * @param {string} field
 * @param {IntRule} [rule]
 * @returns {number | null}
 */
export function readInt(raw, field, { min, max, optional = false } = {}) {
  const text = typeof raw === "number" ? String(raw) : typeof raw === "string" ? raw.trim() : "";
  if (text === "" || raw === null || raw === undefined) {
    if (optional) return null;
    throw new FormError(field, "VOLLEY.Form.Required");
  }
  if (!/^[-+]?\d+$/.test(text)) throw new FormError(field, "VOLLEY.Form.WholeNumber", { value: text.slice(0, 20) });
  const n = Number(text);
  if (min !== undefined && n < min) throw new FormError(field, "VOLLEY.Form.AtLeast", { min });
  if (max !== undefined && n > max) throw new FormError(field, "VOLLEY.Form.AtMost", { max });
  return n;
}

/**
 * A whole number that must be there.
 * @param {unknown} raw
 * @param {string} field
 * @param {{min?: number, max?: number}} [rule]
 * @returns {number}
 */
export function requireInt(raw, field, rule = {}) {
  return /** @type {number} */ (readInt(raw, field, { ...rule, optional: false }));
}

/**
 * One of a fixed set of words.
 * @template {string} T
 * @param {unknown} raw
 * @param {string} field
 * @param {readonly T[]} options
 * @param {T} [fallback] used when the field is empty
 * @returns {T}
 */
export function readChoice(raw, field, options, fallback) {
  const text = typeof raw === "string" ? raw.trim() : "";
  if (text === "" && fallback !== undefined) return fallback;
  const found = options.find((option) => option === text);
  if (found === undefined) {
    throw new FormError(field, "VOLLEY.Form.OneOf", { options: options.join(", "), value: text.slice(0, 20) || "—" });
  }
  return found;
}

/**
 * A short line of text (a name), trimmed.
 * @param {unknown} raw
 * @param {string} field
 * @param {{max?: number, optional?: boolean}} [rule]
 */
export function readText(raw, field, { max = 80, optional = true } = {}) {
  const text = typeof raw === "string" ? raw.trim() : typeof raw === "number" ? String(raw) : "";
  if (!text && !optional) throw new FormError(field, "VOLLEY.Form.Required");
  if (text.length > max) throw new FormError(field, "VOLLEY.Form.TooLong", { max });
  return text;
}

/**
 * A checkbox: true, "true", "on" or "1" is ticked; anything else is not.
 * @param {unknown} raw
 */
export function readFlag(raw) {
  return raw === true || raw === "true" || raw === "on" || raw === "1" || raw === 1;
}
