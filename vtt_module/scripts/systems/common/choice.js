/**
 * What every system's choice model shares (issue #37): a plain object holding the attack dialog's
 * values by their form names, which the dialog edits and the module API fills without any dialog.
 *
 * A system subclasses `ChoiceModel` and gives `fields()` (each field's form name, label message, kind,
 * options, default), `systemRequest(action)` (its part of the choice, FormError naming a bad field),
 * `liveCheck()` and `actions(readout)`. The base keeps the values, checks `set`, and builds the
 * request a button sends (`toRequest`).
 *
 * Pure: no DOM, no Foundry globals; labels and refusals are messages (an i18n key and its values) that
 * the caller puts in the user's language.
 */

import { FormError } from "../../fields.js";

/**
 * @typedef {import("../../registry.js").ChoiceFacts} ChoiceFacts
 * @typedef {import("../../registry.js").ChoiceField} ChoiceField
 * @typedef {import("../../registry.js").ChoiceMessage} ChoiceMessage
 * @typedef {import("../../registry.js").ChoiceActionSpec} ChoiceActionSpec
 * @typedef {import("../../registry.js").WeaponReadout} WeaponReadout
 */

/** A value `set` refuses: the field (its form name and the label the user reads on it) and the rule. */
export class ChoiceError extends FormError {
  /**
   * @param {string} field
   * @param {ChoiceMessage | null} label the field's label, or null when the choice has no such field
   * @param {string} key
   * @param {Record<string, unknown>} [values]
   */
  constructor(field, label, key, values = {}) {
    super(field, key, values);
    this.name = "ChoiceError";
    this.label = label;
  }
}

/**
 * What a number field of the form takes (the HTML rule for `<input type="number">`: anything else
 * reads as empty, so the API refuses it rather than send the default).
 */
const NUMBER = /^-?(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][-+]?\d+)?$/;

export class ChoiceModel {
  /** The form's values by name; a box is "on" or "off". @type {Record<string, string>} */
  values = {};

  /** @param {ChoiceFacts} facts */
  constructor(facts) {
    this.facts = facts;
  }

  /** The fields as the form shows them now, in order. @returns {ChoiceField[]} */
  fields() {
    return [];
  }

  /** @param {string} _action @returns {Record<string, unknown>} */
  systemRequest(_action) {
    return {};
  }

  /** The running check of the values, or null for none. @returns {{tally: ChoiceMessage, blocked: ChoiceMessage | null} | null} */
  liveCheck() {
    return null;
  }

  /** @param {WeaponReadout} _readout @returns {ChoiceActionSpec[]} */
  actions(_readout) {
    return [{ action: "attack", label: { key: "VOLLEY.Dialog.Fire" }, icon: "fa-solid fa-crosshairs", primary: true, needsTargets: true }];
  }

  /** The action whose odds the preview shows, or null for none. @returns {string | null} */
  previewAction() {
    return this.facts.previewActions[0] ?? null;
  }

  /** Every field at its default (the form as it first renders). */
  reset() {
    this.values = {};
    for (const field of this.fields()) this.values[field.name] = field.default;
  }

  /** @param {string} name */
  field(name) {
    return this.fields().find((field) => field.name === name) ?? null;
  }

  /** @param {string} name @returns {ChoiceMessage | null} */
  labelOf(name) {
    return this.field(name)?.label ?? null;
  }

  /**
   * Take the values as a form holds them (the dialog's edits, read from its controls): kept as they
   * are, checked only when a request is built.
   * @param {Record<string, string>} values
   */
  assign(values) {
    this.values = { ...values };
  }

  /**
   * Set one field as a user would, refusing a name the form has not, an option it does not offer, or a
   * number field given something else.
   * @param {string} name
   * @param {unknown} value
   */
  set(name, value) {
    const fields = this.fields();
    const field = fields.find((f) => f.name === name);
    if (!field) {
      const names = fields.map((f) => f.name).join(", ") || "—";
      throw new ChoiceError(name, null, "VOLLEY.Api.NoField", { field: name, fields: names });
    }
    if (field.disabled) throw new ChoiceError(name, field.label, field.disabled.key, field.disabled.values ?? {});
    const text = String(value);
    if (field.kind === "select") {
      const options = (field.options ?? []).map((option) => option.value);
      if (!options.includes(text)) throw new ChoiceError(name, null, "VOLLEY.Api.NoChoice", { field: name, value: text, choices: options.join(", ") });
      this.values[name] = text;
    } else if (field.kind === "flag") {
      this.values[name] = value === true || value === "on" || value === "true" ? "on" : "off";
    } else if (field.kind === "int") {
      if (!NUMBER.test(text)) throw new ChoiceError(name, field.label, "VOLLEY.Form.WholeNumber", { value: text.slice(0, 20) });
      this.values[name] = text;
    } else {
      this.values[name] = text;
    }
  }

  /** The values as a form submits them: a clear box left out. */
  formValues() {
    const flags = new Set(this.fields().filter((field) => field.kind === "flag").map((field) => field.name));
    /** @type {Record<string, string>} */
    const values = {};
    for (const [name, value] of Object.entries(this.values)) if (!(flags.has(name) && value === "off")) values[name] = value;
    return values;
  }

  /**
   * The choice a button sends for `action`, without who may read the card (the user's own roll mode,
   * which the caller adds). Throws FormError naming the field (`labelOf` gives its label).
   * @param {string} action
   * @returns {Record<string, unknown> & {system: string, token: string, weapon: string, action: string}}
   */
  toRequest(action) {
    const weapon = this.facts.weapon;
    if (!weapon) throw new FormError("weapon", "VOLLEY.Form.NoWeapon");
    return { ...this.systemRequest(action), system: this.facts.system, token: this.facts.token.id, weapon: weapon.id, action };
  }
}
