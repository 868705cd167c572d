/**
 * The GURPS attack choice as a plain model (issue #37): what the attack dialog shows and edits, and what
 * the module API fills in without any dialog. Its fields carry their form names (the dialog's DOM names),
 * labels and options as i18n messages, and defaults; `set` refuses a value naming the field by its label;
 * `liveCheck` is the running shots-against-RoF line (B373); `toRequest` is the choice a button sends.
 *
 * Pure: no DOM, no Foundry globals. It takes the facts it needs as data (choice-facts in
 * scripts/foundry/choice.js gathers them from a token).
 */

import { FormError, readChoice, readFlag, requireInt } from "../../fields.js";
import { DEFAULT_ARMOURY } from "./requests.js";
import { rofShots } from "./notation.js";
import { ChoiceModel } from "../common/choice.js";

/**
 * @typedef {import("../../registry.js").ChoiceFacts} ChoiceFacts
 * @typedef {import("../../registry.js").ChoiceField} ChoiceField
 * @typedef {import("../../registry.js").ChoiceMessage} ChoiceMessage
 * @typedef {import("../../registry.js").ChoiceActionSpec} ChoiceActionSpec
 * @typedef {import("../../registry.js").WeaponReadout} WeaponReadout
 */

const USING = /** @type {const} */ (["armoury", "weapon"]);

export class GurpsChoice extends ChoiceModel {
  /** @param {ChoiceFacts} facts */
  constructor(facts) {
    super(facts);
    this.reset();
  }

  /** The shots the dialog offers at the first target: RoF, no more than are loaded, at least one. */
  #firstShots() {
    const weapon = this.facts.weapon;
    if (!weapon) return 0;
    const loaded = typeof weapon.state.loaded === "number" ? weapon.state.loaded : 0;
    return Math.max(1, Math.min(rofShots(weapon.stats.rof), loaded || 1));
  }

  /** The target's Dodge from its GURPS numbers (null: none set, and no Dodge box). @param {number} index */
  dodgeOf(index) {
    const dodge = this.facts.targets[index]?.character?.dodge;
    return typeof dodge === "number" ? dodge : null;
  }

  /** @returns {ChoiceField[]} */
  fields() {
    const weapon = this.facts.weapon;
    if (!weapon) return [];
    /** @type {ChoiceField[]} */
    const fields = [{ name: "modifier", label: { key: "VOLLEY.Gurps.SkillModifier" }, kind: "int", default: "0", min: -30, max: 30 }];
    for (const [index, target] of this.facts.targets.entries()) {
      const name = { name: target.name };
      fields.push(
        { name: `targets.${index}.id`, label: { key: "VOLLEY.Dialog.Target" }, kind: "hidden", default: target.id },
        { name: `targets.${index}.shots`, label: { key: "VOLLEY.Gurps.ShotsAt", values: name }, kind: "int", default: String(index === 0 ? this.#firstShots() : 0), min: 0 },
        { name: `targets.${index}.modifier`, label: { key: "VOLLEY.Gurps.ModifierFor", values: name }, kind: "int", default: "0", min: -30, max: 30 },
      );
      // A target without a Dodge in its profile has no box (it cannot dodge).
      if (this.dodgeOf(index)) fields.push({ name: `targets.${index}.dodges`, label: { key: "VOLLEY.Gurps.DodgesFor", values: name }, kind: "flag", default: "on" });
    }
    if (weapon.state.jammed === true) {
      const armoury = typeof this.facts.character.armoury === "number" ? this.facts.character.armoury : null;
      const offset = typeof this.facts.character.iq_minus_dx === "number" ? this.facts.character.iq_minus_dx : 0;
      const skill = typeof weapon.skill === "number" ? weapon.skill : null;
      fields.push(
        {
          name: "using",
          label: { key: "VOLLEY.Gurps.UnjamUsing" },
          kind: "select",
          default: "armoury",
          options: [
            {
              value: "armoury",
              label: { key: "VOLLEY.Gurps.UnjamArmoury", values: { skill: armoury ?? DEFAULT_ARMOURY, note: armoury === null ? { key: "VOLLEY.Gurps.DefaultNote" } : "" } },
            },
            { value: "weapon", label: { key: "VOLLEY.Gurps.UnjamWeapon", values: { skill: skill === null ? "—" : skill + offset } } },
          ],
        },
        { name: "unjam.modifier", label: { key: "VOLLEY.Gurps.UnjamModifier" }, kind: "int", default: "0", min: -30, max: 30 },
      );
    }
    return fields;
  }

  /**
   * The system's part of the choice for `action` (FormError names a bad field).
   * @param {string} action
   * @returns {Record<string, unknown>}
   */
  systemRequest(action) {
    const values = this.formValues();
    if (action === "unjam") {
      const using = readChoice(values.using, "using", USING, "armoury");
      // B407: a mechanical problem is fixed with Armoury alone; the weapon's own skill clears misfires
      // and stoppages. Refused here, by the field, not after sending (#31).
      if (using === "weapon" && this.facts.weapon?.state.malfunction === "mechanical") throw new FormError("using", "VOLLEY.Gurps.Form.ArmouryOnly");
      return { using, modifier: requireInt(values["unjam.modifier"] ?? 0, "unjam.modifier", { min: -30, max: 30 }) };
    }
    if (action !== "attack") return {};
    const targets = [];
    for (let index = 0; `targets.${index}.id` in values; index += 1) {
      targets.push({
        id: values[`targets.${index}.id`],
        shots: requireInt(values[`targets.${index}.shots`] || 0, `targets.${index}.shots`, { min: 0, max: 999 }),
        modifier: requireInt(values[`targets.${index}.modifier`] || 0, `targets.${index}.modifier`, { min: -30, max: 30 }),
        dodges: readFlag(values[`targets.${index}.dodges`]),
      });
    }
    return { modifier: requireInt(values.modifier || 0, "modifier", { min: -30, max: 30 }), targets };
  }

  /**
   * The shots typed so far against RoF and the rounds loaded (B373: 1 to RoF shots in a turn, no more
   * than are loaded): "Shots 16 / RoF 13", and why Fire is held back while over.
   * @returns {{tally: ChoiceMessage, blocked: ChoiceMessage | null} | null}
   */
  liveCheck() {
    const weapon = this.facts.weapon;
    const values = this.formValues();
    if (!weapon || !(`targets.0.id` in values)) return null;
    let shots = 0;
    for (let index = 0; `targets.${index}.id` in values; index += 1) {
      const n = Number(values[`targets.${index}.shots`] || 0);
      if (Number.isFinite(n) && n > 0) shots += Math.trunc(n);
    }
    const rof = rofShots(weapon.stats.rof);
    const loaded = typeof weapon.state.loaded === "number" ? weapon.state.loaded : 0;
    /** @type {ChoiceMessage | null} */
    let blocked = null;
    if (shots > rof) blocked = { key: "VOLLEY.Gurps.TallyOverRof", values: { over: shots - rof, rof } };
    else if (shots > loaded) blocked = { key: "VOLLEY.Gurps.TallyOverLoaded", values: { loaded } };
    else if (shots === 0) blocked = { key: "VOLLEY.Form.NoShots" };
    return { tally: { key: "VOLLEY.Gurps.Tally", values: { shots, rof } }, blocked };
  }

  /**
   * The buttons for the weapon; the first `primary` one is Fire.
   * @param {WeaponReadout} readout
   * @returns {ChoiceActionSpec[]}
   */
  actions(readout) {
    const weapon = this.facts.weapon;
    if (!weapon) return [];
    // A botched repair destroyed it (B407): it neither fires, reloads nor is unjammed.
    const destroyed = weapon.state.malfunction === "destroyed" ? { key: "VOLLEY.Gurps.Destroyed", values: { weapon: weapon.name } } : null;
    /** @type {ChoiceActionSpec[]} */
    const actions = [
      {
        action: "attack",
        label: { key: "VOLLEY.Dialog.Fire" },
        icon: "fa-solid fa-crosshairs",
        primary: true,
        needsTargets: true,
        blocked: destroyed ?? (readout.jammed ? { key: "VOLLEY.Dialog.JammedBlocks" } : null),
      },
      // B407 and the seed say nothing of a reload while jammed: Volley's reading lets it fill the
      // magazine and leaves the malfunction (docs/rules/gurps.md, "Reload"); the button says so.
      { action: "reload", label: { key: "VOLLEY.Dialog.Reload" }, icon: "fa-solid fa-rotate", hint: readout.jammed ? { key: "VOLLEY.Gurps.ReloadJammed" } : null, blocked: destroyed },
    ];
    if (readout.jammed) {
      // The rules clear a jam by its cause (B407); a jam recorded without one cannot be cleared here.
      const cause = typeof weapon.state.malfunction === "string" && weapon.state.malfunction ? null : { key: "VOLLEY.Gurps.UnjamNoFault" };
      actions.push({ action: "unjam", label: { key: "VOLLEY.Dialog.Unjam" }, icon: "fa-solid fa-wrench", blocked: destroyed ?? cause });
    }
    return actions;
  }
}

/**
 * The GURPS choice for these facts, at the dialog's defaults.
 * @param {ChoiceFacts} facts
 */
export function gurpsChoice(facts) {
  return new GurpsChoice(facts);
}
