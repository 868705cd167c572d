/**
 * GURPS 4e rapid fire (Basic Set B373-B375, malfunctions B407) as a Volley rule system plug-in.
 *
 * The profile holds, per weapon, the weapon table's RoF, Rcl, Shots and Malf plus the character's
 * effective skill with it; per character, Armoury, the IQ-based offset (IQ − DX, for clearing a
 * misfire or stoppage with the weapon skill), and Dodge (used when the character is a target).
 */

import { loadedWithinCapacity } from "../common/magazine.js";
import { registerSystem, standardReadout, standardWeaponStateKey } from "../../registry.js";
import { DEFAULT_MALF, GURPS_FAULTS, parseRof } from "./notation.js";
import { buildGurpsRequest } from "./requests.js";
import { gurpsChoice } from "./choice.js";

/**
 * What the table asks first about each target, on the card's face: the shots at it and the effective
 * skill they were rolled against, how many of the hits it dodged (or that it was not fired at), and what
 * the referee does next: a critical hit cannot be dodged and rolls on the Critical Hit Table, a
 * critical miss on the Critical Miss Table (B556); a malfunction fired only the rounds it fired (a
 * stoppage one, a misfire none), not the shots planned.
 * @param {unknown} result
 * @returns {import("../../registry.js").CardRowNote[]}
 */
export function cardRows(result) {
  const r = /** @type {any} */ (typeof result === "object" && result !== null ? result : {});
  const targets = r.targets;
  if (!Array.isArray(targets)) return [];
  const fired = Number(r.weapon?.spent) || 0;
  return targets
    .filter((t) => typeof t === "object" && t !== null && typeof t.id === "string")
    .map((t) => {
      /** @type {import("../../registry.js").CardNote[]} */
      const notes = [];
      const shots = Number(t.shots) || 0;
      if (t.outcome === "malfunction") notes.push({ key: "VOLLEY.Gurps.Card.MalfunctionAt", values: { fired, n: shots }, tone: "bad" });
      else if (t.outcome === "not fired" || shots === 0) notes.push({ key: "VOLLEY.Gurps.Card.NotFired" });
      else if (t.attack && typeof t.effective === "number") notes.push({ key: "VOLLEY.Gurps.Card.ShotsAt", values: { n: shots, skill: t.effective } });
      else notes.push({ key: "VOLLEY.Gurps.Card.ShotsOnly", values: { n: shots } });
      if (t.outcome === "critical hit") notes.push({ key: "VOLLEY.Gurps.Card.CriticalHit", tone: "alert" });
      if (t.outcome === "critical miss") notes.push({ key: "VOLLEY.Gurps.Card.CriticalMiss", tone: "alert" });
      if (t.dodge && typeof t.dodged === "number") notes.push({ key: "VOLLEY.Gurps.Card.Dodged", values: { n: t.dodged, of: Number(t.scored) || 0 } });
      return { target: t.id, notes };
    });
}

/**
 * An unjam attempt's outcome on the card's face (B407): cleared, still jammed, or made worse by a critical
 * failure (a mechanical problem, or the weapon destroyed); the roll stays in the Rolls.
 * @param {Record<string, any>} r the result
 * @returns {import("../../registry.js").CardExtra[]}
 */
function unjamLine(r) {
  const check = r.unjam?.check;
  if (r.action !== "unjam" || typeof check !== "object" || check === null) return [];
  const values = { roll: Number(check.roll) || 0, need: Number(check.target) || 0 };
  if (check.success === true) return [{ label: "VOLLEY.Gurps.Card.Unjam", value: { key: "VOLLEY.Gurps.Card.Cleared", values }, tone: "good" }];
  if (check.critical === "failure") {
    const fault = r.weapon?.malfunction;
    const worse = fault === "destroyed" ? "VOLLEY.Gurps.Card.Destroyed" : "VOLLEY.Gurps.Card.Worse";
    return [{ label: "VOLLEY.Gurps.Card.Unjam", value: { key: worse, values: { ...values, fault: { key: `VOLLEY.Faults.${GURPS_FAULTS.includes(fault) ? fault : "mechanical"}` } } }, tone: "bad" }];
  }
  return [{ label: "VOLLEY.Gurps.Card.Unjam", value: { key: "VOLLEY.Gurps.Card.StillJammed", values }, tone: "bad" }];
}

/** @type {import("../../registry.js").RuleSystemPlugin} */
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
    // A jam's cause decides how it is cleared (B407): a weapon ticked jammed must say which (#31: Unjam
    // was offered for one that did not, and the rules refused it).
    check: (weapon) => [
      ...loadedWithinCapacity(weapon),
      ...(weapon.state.jammed === true && !weapon.state.malfunction ? [{ field: "state.malfunction", problem: { key: "VOLLEY.Gurps.Form.FaultNeeded" } }] : []),
    ],
  },
  readout: standardReadout,
  weaponStateKey: standardWeaponStateKey,
  buildRequest: buildGurpsRequest,
  previewActions: ["attack"],
  choice: gurpsChoice,
  dialog: () => import("./attack-dialog.js"),
  cardRows,
  cardExtras(result) {
    const weapon = /** @type {Record<string, unknown>} */ (
      typeof result === "object" && result !== null ? (/** @type {any} */ (result).weapon ?? {}) : {}
    );
    /** @type {import("../../registry.js").CardExtra[]} */
    const extras = unjamLine(/** @type {Record<string, any>} */ (typeof result === "object" && result !== null ? result : {}));
    const action = /** @type {any} */ (result)?.action;
    if (typeof weapon.spent === "number" && (action === "attack" || action === undefined)) extras.push({ label: "VOLLEY.Card.RoundsFired", value: weapon.spent });
    if (typeof weapon.malfunction === "string" && GURPS_FAULTS.includes(weapon.malfunction)) {
      extras.push({ label: "VOLLEY.Gurps.Card.Malfunction", value: { key: `VOLLEY.Faults.${weapon.malfunction}` } });
    }
    if (weapon.explosion_risk === true) extras.push({ label: "VOLLEY.Gurps.Card.ExplosionRisk", value: { key: "VOLLEY.Card.Yes" } });
    return extras;
  },
};

registerSystem(gurps);

export default gurps;
