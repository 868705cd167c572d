/**
 * The GURPS rapid-fire dialog: shots split over the targets, a modifier per target (range, size,
 * cover...), a situational modifier to the shooter's skill (Aim, shock...), whether each target may
 * dodge; Reload; and, while the weapon is jammed, Unjam with Armoury or the IQ-based weapon skill.
 * Skill, RoF, Rcl, Malf and rounds come from the actor's profile and are only shown here.
 */

import { AttackDialog } from "../common/attack-dialog.js";
import { FormError, readChoice, readFlag, requireInt } from "../../fields.js";
import { arsenalOf, findTokenDocument } from "../../foundry/documents.js";
import { t } from "../../foundry/words.js";
import { DEFAULT_ARMOURY } from "./requests.js";
import { rofShots } from "./notation.js";

/**
 * @typedef {import("../../profile/types.js").VolleyWeapon} VolleyWeapon
 * @typedef {import("../../profile/weapons.js").Arsenal} Arsenal
 * @typedef {import("../common/attack-dialog.js").TargetRef} TargetRef
 */

export default class GurpsAttackDialog extends AttackDialog {
  static PARTS = AttackDialog.partsWith("modules/volley/templates/systems/gurps/attack-body.hbs");

  /**
   * @param {VolleyWeapon} weapon
   * @param {Arsenal} arsenal
   * @param {TargetRef[]} targets
   */
  async systemContext(weapon, arsenal, targets) {
    const loaded = typeof weapon.state.loaded === "number" ? weapon.state.loaded : 0;
    const first = Math.max(1, Math.min(rofShots(weapon.stats.rof), loaded || 1));
    const armoury = typeof arsenal.character.armoury === "number" ? arsenal.character.armoury : null;
    const offset = typeof arsenal.character.iq_minus_dx === "number" ? arsenal.character.iq_minus_dx : 0;
    const skill = typeof weapon.skill === "number" ? weapon.skill : null;
    return {
      skill: skill ?? "—",
      stats: t("VOLLEY.Gurps.StatsLine", {
        rof: String(weapon.stats.rof ?? "—"),
        rcl: weapon.stats.rcl ?? "—",
        malf: weapon.stats.malf ?? 17,
      }),
      targets: targets.map((target, index) => ({
        ...target,
        shots: index === 0 ? first : 0,
        shotsLabel: t("VOLLEY.Gurps.ShotsAt", { name: target.name }),
        modifierLabel: t("VOLLEY.Gurps.ModifierFor", { name: target.name }),
        dodgesLabel: t("VOLLEY.Gurps.DodgesFor", { name: target.name }),
        dodge: this.#dodgeOf(target.id),
      })),
      jammed: weapon.state.jammed === true,
      unjamArmoury: t("VOLLEY.Gurps.UnjamArmoury", { skill: armoury ?? DEFAULT_ARMOURY, note: armoury === null ? t("VOLLEY.Gurps.DefaultNote") : "" }),
      unjamWeapon: t("VOLLEY.Gurps.UnjamWeapon", { skill: skill === null ? "—" : skill + offset }),
    };
  }

  /** The target's Dodge from its GURPS numbers, to show whether it dodges. @param {string} tokenId */
  #dodgeOf(tokenId) {
    const doc = findTokenDocument(tokenId);
    const dodge = doc ? arsenalOf(doc, "gurps").character.dodge : null;
    return typeof dodge === "number" ? dodge : null;
  }

  /**
   * @param {Record<string, string>} values
   * @param {string} action
   */
  choiceFields(values, action) {
    if (action === "unjam") {
      const using = readChoice(values.using, "using", /** @type {const} */ (["armoury", "weapon"]), "armoury");
      // B407: a mechanical problem is fixed with Armoury alone; the weapon's own skill clears misfires
      // and stoppages. Refused here, by the field, not after sending (#31).
      const weapon = arsenalOf(this.token, "gurps").weapons.find((w) => w.id === this.weaponId);
      if (using === "weapon" && weapon?.state.malfunction === "mechanical") throw new FormError("using", "VOLLEY.Gurps.Form.ArmouryOnly");
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
   * The shots typed so far against RoF and the rounds loaded, as the player types them (B373: 1 to RoF
   * shots in a turn, no more than are loaded): "Shots 16 / RoF 13", and Fire held back while over.
   * @param {Record<string, string>} values
   */
  liveCheck(values) {
    const weapon = arsenalOf(this.token, "gurps").weapons.find((w) => w.id === this.weaponId);
    if (!weapon || !(`targets.0.id` in values)) return null;
    let shots = 0;
    for (let index = 0; `targets.${index}.id` in values; index += 1) {
      const n = Number(values[`targets.${index}.shots`] || 0);
      if (Number.isFinite(n) && n > 0) shots += Math.trunc(n);
    }
    const rof = rofShots(weapon.stats.rof);
    const loaded = typeof weapon.state.loaded === "number" ? weapon.state.loaded : 0;
    const tally = t("VOLLEY.Gurps.Tally", { shots, rof });
    /** @type {string | null} */
    let blocked = null;
    if (shots > rof) blocked = t("VOLLEY.Gurps.TallyOverRof", { over: shots - rof, rof });
    else if (shots > loaded) blocked = t("VOLLEY.Gurps.TallyOverLoaded", { loaded });
    else if (shots === 0) blocked = t("VOLLEY.Form.NoShots");
    return { tally, blocked };
  }

  /**
   * @param {VolleyWeapon} weapon
   * @param {import("../../registry.js").WeaponReadout} readout
   */
  actionsFor(weapon, readout) {
    // A botched repair destroyed it (B407): it neither fires, reloads nor is unjammed.
    const destroyed = weapon.state.malfunction === "destroyed" ? t("VOLLEY.Gurps.Destroyed", { weapon: weapon.name }) : null;
    /** @type {import("../common/attack-dialog.js").ActionSpec[]} */
    const actions = [
      {
        action: "attack",
        label: t("VOLLEY.Dialog.Fire"),
        icon: "fa-solid fa-crosshairs",
        primary: true,
        needsTargets: true,
        blocked: destroyed ?? (readout.jammed ? t("VOLLEY.Dialog.JammedBlocks") : null),
      },
      // B407 and the seed say nothing of a reload while jammed: Volley's reading lets it fill the
      // magazine and leaves the malfunction (docs/rules/gurps.md, "Reload"); the button says so.
      { action: "reload", label: t("VOLLEY.Dialog.Reload"), icon: "fa-solid fa-rotate", hint: readout.jammed ? t("VOLLEY.Gurps.ReloadJammed") : undefined, blocked: destroyed },
    ];
    if (readout.jammed) {
      // The rules clear a jam by its cause (B407); a jam recorded without one cannot be cleared here.
      const cause = typeof weapon.state.malfunction === "string" && weapon.state.malfunction ? null : t("VOLLEY.Gurps.UnjamNoFault");
      actions.push({ action: "unjam", label: t("VOLLEY.Dialog.Unjam"), icon: "fa-solid fa-wrench", blocked: destroyed ?? cause });
    }
    return actions;
  }
}
