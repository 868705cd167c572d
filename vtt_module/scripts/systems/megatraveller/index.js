/**
 * MegaTraveller (the fan RCS fire rules, seed 000) as a Volley rule system plug-in.
 *
 * Phase A: the profile (skill level per weapon, Dexterity; the weapon's kind, /R rapid fire, burst
 * size, automatic fire and Auto Tgts, magazine; its readiness and selector) and where results land.
 * The attack dialog, with its two-step allocation, is built next in `attack-dialog.js` beside this
 * file; until then `dialog` is null and Fire says the system has no dialog yet.
 */

import { FormError } from "../common/fields.js";
import { registerSystem, standardReadout, standardWeaponStateKey } from "../registry.js";

/** RCS: Entering Combat and Mode Selection. */
export const READINESS = Object.freeze(["holstered", "slung", "carried", "ready"]);
export const SELECTOR = Object.freeze(["single", "burst", "auto"]);
export const WEAPON_KINDS = Object.freeze(["pistol", "rifle", "heavy"]);
export const BURST_SIZES = Object.freeze(["2", "3", "4"]);

/** Result state keys that belong to the weapon although the rules keep them on the shooter. */
const WEAPON_KEYS = new Set(["readiness", "selector"]);

/** @type {import("../registry.js").RuleSystemPlugin} */
const megatraveller = {
  id: "megatraveller",
  label: "VOLLEY.Systems.megatraveller",
  gameSystems: ["twodsix", "mgt2e", "megatraveller"],
  profile: {
    character: [{ key: "dex", kind: "int", label: "VOLLEY.MegaTraveller.Dex", min: 0, max: 30, default: 7 }],
    skill: { key: "skill", kind: "int", label: "VOLLEY.MegaTraveller.Skill", hint: "VOLLEY.MegaTraveller.SkillHint", min: -10, max: 30, default: 0 },
    stats: [
      {
        key: "kind",
        kind: "select",
        label: "VOLLEY.MegaTraveller.Kind",
        options: WEAPON_KINDS,
        optionLabel: "VOLLEY.MegaTraveller.Kinds",
        default: "rifle",
      },
      { key: "rapid", kind: "flag", label: "VOLLEY.MegaTraveller.Rapid", hint: "VOLLEY.MegaTraveller.RapidHint", default: false },
      {
        key: "burst",
        kind: "select",
        label: "VOLLEY.MegaTraveller.Burst",
        options: BURST_SIZES,
        optionLabel: "VOLLEY.MegaTraveller.BurstSizes",
        optional: true,
        default: null,
        parse: (text) => ({ value: Number(text) }),
      },
      { key: "auto", kind: "flag", label: "VOLLEY.MegaTraveller.Auto", default: false },
      { key: "auto_targets", kind: "int", label: "VOLLEY.MegaTraveller.AutoTargets", min: 0, max: 10, default: 1 },
      { key: "capacity", kind: "int", label: "VOLLEY.MegaTraveller.Capacity", min: 1, max: 10000, default: 30 },
    ],
    state: [
      { key: "loaded", kind: "int", label: "VOLLEY.MegaTraveller.Loaded", min: 0, max: 10000, default: 30 },
      {
        key: "readiness",
        kind: "select",
        label: "VOLLEY.MegaTraveller.Readiness",
        options: READINESS,
        optionLabel: "VOLLEY.MegaTraveller.Readinesses",
        default: "ready",
      },
      {
        key: "selector",
        kind: "select",
        label: "VOLLEY.MegaTraveller.Selector",
        options: SELECTOR,
        optionLabel: "VOLLEY.MegaTraveller.Selectors",
        default: "single",
      },
    ],
    check(weapon) {
      const { loaded } = weapon.state;
      const { capacity } = weapon.stats;
      if (typeof loaded === "number" && typeof capacity === "number" && loaded > capacity) {
        return [{ field: "state.loaded", problem: { key: "VOLLEY.Form.AtMost", values: { max: capacity } } }];
      }
      return [];
    },
  },
  readout: standardReadout,
  weaponStateKey: (key) => (WEAPON_KEYS.has(key) ? key : standardWeaponStateKey(key)),
  buildRequest() {
    throw new FormError("system", "VOLLEY.Form.NoDialogYet", { system: "MegaTraveller" });
  },
  previewActions: [],
  dialog: null,
};

registerSystem(megatraveller);

export default megatraveller;
