/**
 * GURPS 4e rapid fire (Basic Set B373-B375, malfunctions B407) as a Volley rule system plug-in.
 *
 * The profile holds, per weapon, the weapon table's RoF, Rcl, Shots and Malf plus the character's
 * effective skill with it; per character, Armoury, the IQ-based offset (IQ − DX, for clearing a
 * misfire or stoppage with the weapon skill), and Dodge (used when the character is a target).
 */

import { loadedWithinCapacity } from "../common/magazine.js";
import { registerSystem, standardReadout, standardWeaponStateKey } from "../registry.js";
import { DEFAULT_MALF, GURPS_FAULTS, parseRof } from "./notation.js";
import { buildGurpsRequest } from "./requests.js";

/**
 * What the table asks first about each target, on the card's face: the shots at it and the effective
 * skill they were rolled against, and how many of the hits it dodged (or that it was not fired at).
 * @param {unknown} result
 * @returns {import("../registry.js").CardRowNote[]}
 */
export function cardRows(result) {
  const targets = typeof result === "object" && result !== null ? /** @type {any} */ (result).targets : null;
  if (!Array.isArray(targets)) return [];
  return targets
    .filter((t) => typeof t === "object" && t !== null && typeof t.id === "string")
    .map((t) => {
      /** @type {import("../registry.js").CardNote[]} */
      const notes = [];
      const shots = Number(t.shots) || 0;
      if (t.outcome === "not fired" || shots === 0) notes.push({ key: "VOLLEY.Gurps.Card.NotFired" });
      else if (t.attack && typeof t.effective === "number") notes.push({ key: "VOLLEY.Gurps.Card.ShotsAt", values: { n: shots, skill: t.effective } });
      else notes.push({ key: "VOLLEY.Gurps.Card.ShotsOnly", values: { n: shots } });
      if (t.dodge && typeof t.dodged === "number") notes.push({ key: "VOLLEY.Gurps.Card.Dodged", values: { n: t.dodged, of: Number(t.scored) || 0 } });
      return { target: t.id, notes };
    });
}

/** @type {import("../registry.js").RuleSystemPlugin} */
const gurps = {
  id: "gurps",
  label: "VOLLEY.Systems.gurps",
  gameSystems: ["gurps"],
  profile: {
    character: [
      { key: "armoury", kind: "int", label: "VOLLEY.Gurps.Armoury", min: 0, max: 30, optional: true, default: null },
      { key: "iq_minus_dx", kind: "int", label: "VOLLEY.Gurps.IqMinusDx", hint: "VOLLEY.Gurps.IqMinusDxHint", min: -10, max: 10, optional: true, default: 0 },
      { key: "dodge", kind: "int", label: "VOLLEY.Gurps.Dodge", hint: "VOLLEY.Gurps.DodgeHint", min: 0, max: 30, optional: true, default: null },
    ],
    skill: { key: "skill", kind: "int", label: "VOLLEY.Gurps.Skill", hint: "VOLLEY.Gurps.SkillHint", min: 1, max: 30, default: 12 },
    stats: [
      { key: "rof", kind: "text", label: "VOLLEY.Gurps.RoF", hint: "VOLLEY.Gurps.RoFHint", default: 1, parse: parseRof },
      { key: "rcl", kind: "int", label: "VOLLEY.Gurps.Rcl", min: 1, max: 20, default: 2 },
      { key: "capacity", kind: "int", label: "VOLLEY.Gurps.Capacity", min: 1, max: 10000, default: 30 },
      { key: "malf", kind: "int", label: "VOLLEY.Gurps.Malf", hint: "VOLLEY.Gurps.MalfHint", min: 3, max: 25, default: DEFAULT_MALF },
    ],
    state: [
      { key: "loaded", kind: "int", label: "VOLLEY.Gurps.Loaded", min: 0, max: 10000, default: 30 },
      { key: "jammed", kind: "flag", label: "VOLLEY.Gurps.Jammed", default: false },
      {
        key: "malfunction",
        kind: "select",
        label: "VOLLEY.Gurps.Malfunction",
        options: GURPS_FAULTS,
        optionLabel: "VOLLEY.Faults",
        optional: true,
        default: null,
      },
    ],
    check: loadedWithinCapacity,
  },
  readout: standardReadout,
  weaponStateKey: standardWeaponStateKey,
  buildRequest: buildGurpsRequest,
  previewActions: ["attack"],
  dialog: () => import("./attack-dialog.js"),
  cardRows,
  cardExtras(result) {
    const weapon = /** @type {Record<string, unknown>} */ (
      typeof result === "object" && result !== null ? (/** @type {any} */ (result).weapon ?? {}) : {}
    );
    /** @type {import("../registry.js").CardExtra[]} */
    const extras = [];
    if (typeof weapon.spent === "number") extras.push({ label: "VOLLEY.Card.RoundsFired", value: weapon.spent });
    if (typeof weapon.malfunction === "string" && GURPS_FAULTS.includes(weapon.malfunction)) {
      extras.push({ label: "VOLLEY.Gurps.Card.Malfunction", value: { key: `VOLLEY.Faults.${weapon.malfunction}` } });
    }
    if (weapon.explosion_risk === true) extras.push({ label: "VOLLEY.Gurps.Card.ExplosionRisk", value: { key: "VOLLEY.Card.Yes" } });
    return extras;
  },
};

registerSystem(gurps);

export default gurps;
