/**
 * The GURPS rapid-fire dialog: shots split over the targets, a modifier per target (range, size,
 * cover...), a situational modifier to the shooter's skill (Aim, shock...), whether each target may
 * dodge; Reload; and, while the weapon is jammed, Unjam with Armoury or the IQ-based weapon skill.
 * Skill, RoF, Rcl, Malf and rounds come from the actor's profile and are only shown here.
 *
 * The choice itself is the GURPS choice model (./choice.js, #37): the form is drawn from its fields,
 * each edit is written into it, and its checks and request are the dialog's. The module API fills the
 * same model without this window.
 */

import { AttackDialog, ChoiceAttackDialog } from "../common/attack-dialog.js";
import { choiceFacts, say } from "../../foundry/choice.js";
import { t } from "../../foundry/words.js";
import { gurpsChoice } from "./choice.js";

/**
 * @typedef {import("../../profile/types.js").VolleyWeapon} VolleyWeapon
 * @typedef {import("../../profile/weapons.js").Arsenal} Arsenal
 * @typedef {import("../common/attack-dialog.js").TargetRef} TargetRef
 */

export default class GurpsAttackDialog extends ChoiceAttackDialog {
  static PARTS = AttackDialog.partsWith("modules/volley/templates/systems/gurps/attack-body.hbs");

  /**
   * The model for the weapon and targets as they are now, holding `values` (the form's, when given).
   * @param {Record<string, string>} [values]
   */
  choice(values) {
    const model = gurpsChoice(choiceFacts(this.token, this.plugin, this.weaponId, this.targets()));
    if (values) model.assign(values);
    return model;
  }

  /**
   * @param {VolleyWeapon} weapon
   * @param {Arsenal} _arsenal
   * @param {TargetRef[]} targets
   */
  async systemContext(weapon, _arsenal, targets) {
    const model = this.choice();
    const skill = typeof weapon.skill === "number" ? weapon.skill : null;
    const using = model.fields().find((field) => field.name === "using");
    const option = (/** @type {string} */ value) => say(using?.options?.find((o) => o.value === value)?.label);
    return {
      skill: skill ?? "—",
      stats: t("VOLLEY.Gurps.StatsLine", {
        rof: String(weapon.stats.rof ?? "—"),
        rcl: weapon.stats.rcl ?? "—",
        malf: weapon.stats.malf ?? 17,
      }),
      targets: targets.map((target, index) => ({
        ...target,
        shots: model.values[`targets.${index}.shots`],
        shotsLabel: say(model.labelOf(`targets.${index}.shots`)),
        modifierLabel: say(model.labelOf(`targets.${index}.modifier`)),
        dodgesLabel: t("VOLLEY.Gurps.DodgesFor", { name: target.name }),
        dodge: model.dodgeOf(index),
      })),
      jammed: Boolean(using),
      unjamArmoury: option("armoury"),
      unjamWeapon: option("weapon"),
    };
  }

  /**
   * @param {Record<string, string>} values
   * @param {string} action
   */
  choiceFields(values, action) {
    return this.choice(values).systemRequest(action);
  }

  /**
   * The model's running check of the shots against RoF and the rounds loaded, in the user's words.
   * @param {Record<string, string>} values
   */
  liveCheck(values) {
    const check = this.choice(values).liveCheck();
    return check ? { tally: say(check.tally), blocked: check.blocked ? say(check.blocked) : null } : null;
  }
}
