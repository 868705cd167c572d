/**
 * The d100 system of seed 004 (the Dark Heresy family) as a Volley rule system plug-in.
 *
 * The profile: Ballistic Skill, Willpower, the skills that clear a jam (Tech-Use, Trade (Weaponsmith))
 * and the Strength bonus thrown weapons need; per weapon its class, RoF "S/3/10", clip, reliability and
 * range, and its state (rounds loaded, jam, spoiled rounds, bracing, spare rounds). The dialog
 * (`attack-dialog.js`): single shot, short, long and wide bursts, suppressing fire, overwatch as a
 * standing order and its fire, with the sector picked on the map; reload, unjam, recover ammunition,
 * brace; suppression tests, recovery, entering melee. Requests: `requests.js`; what the odds add:
 * `odds.js`; the card's lines: `card.js`.
 */

import { loadedWithinCapacity } from "../common/magazine.js";
import { registerSystem, standardReadout, standardWeaponStateKey } from "../../registry.js";
import { d100CardExtras, d100CardHits, d100CardRows } from "./card.js";
import { parseD100Rof, parseReliability } from "./notation.js";
import { buildD100Request } from "./requests.js";
import { d100Choice } from "./choice.js";

/** rules/d100/requests.py: WeaponClass. */
export const WEAPON_CLASSES = Object.freeze(["pistol", "rifle", "long_rifle", "heavy", "thrown", "grenade"]);

/** @type {import("../../registry.js").RuleSystemPlugin} */
const d100 = {
  id: "d100",
  label: "VOLLEY.Systems.d100",
  gameSystems: ["dark-heresy-2nd", "dark-heresy-2e", "dark-heresy", "wh40k-rpg", "rogue-trader", "deathwatch", "only-war"],
  profile: {
    character: [
      { key: "bs", kind: "int", label: "VOLLEY.D100.BS", min: 1, max: 100, default: 35 },
      { key: "wp", kind: "int", label: "VOLLEY.D100.WP", min: 1, max: 100, default: 30 },
      { key: "tech_use", kind: "int", label: "VOLLEY.D100.TechUse", hint: "VOLLEY.D100.TechUseHint", min: 0, max: 150, optional: true, default: null },
      { key: "weaponsmith", kind: "int", label: "VOLLEY.D100.Weaponsmith", hint: "VOLLEY.D100.WeaponsmithHint", min: 0, max: 150, optional: true, default: null },
      { key: "sb", kind: "int", label: "VOLLEY.D100.SB", hint: "VOLLEY.D100.SBHint", min: 0, max: 20, optional: true, default: null },
    ],
    skill: null,
    stats: [
      {
        key: "class",
        kind: "select",
        label: "VOLLEY.D100.Class",
        options: WEAPON_CLASSES,
        optionLabel: "VOLLEY.D100.Classes",
        default: "rifle",
      },
      { key: "rof", kind: "text", label: "VOLLEY.D100.RoF", hint: "VOLLEY.D100.RoFHint", default: "S/-/-", parse: parseD100Rof },
      { key: "capacity", kind: "int", label: "VOLLEY.D100.Clip", min: 1, max: 10000, default: 30 },
      {
        key: "reliability",
        kind: "text",
        label: "VOLLEY.D100.Reliability",
        hint: "VOLLEY.D100.ReliabilityHint",
        optional: true,
        default: null,
        parse: parseReliability,
      },
      { key: "range", kind: "int", label: "VOLLEY.D100.Range", hint: "VOLLEY.D100.RangeHint", min: 1, max: 10000, optional: true, default: null },
    ],
    state: [
      { key: "loaded", kind: "int", label: "VOLLEY.D100.Loaded", min: 0, max: 10000, default: 30 },
      { key: "jammed", kind: "flag", label: "VOLLEY.D100.Jammed", default: false },
      { key: "spoiled", kind: "int", label: "VOLLEY.D100.Spoiled", min: 0, max: 10000, default: 0 },
      { key: "braced", kind: "flag", label: "VOLLEY.D100.Braced", default: false },
      { key: "reserve", kind: "int", label: "VOLLEY.D100.Reserve", hint: "VOLLEY.D100.ReserveHint", min: 0, max: 100000, optional: true, default: null },
    ],
    check: loadedWithinCapacity,
  },
  readout: standardReadout,
  weaponStateKey: standardWeaponStateKey,
  buildRequest: buildD100Request,
  // An attack and overwatch fire are previewed (the dialog picks by its mode); both go as `attack`.
  previewActions: ["attack", "overwatch_fire"],
  choice: d100Choice,
  dialog: () => import("./attack-dialog.js"),
  cardExtras: d100CardExtras,
  cardRows: d100CardRows,
  cardHits: d100CardHits,
  // Overwatch lasts until the start of the shooter's next turn (seed 004, "Караул").
  standingOrders: [{ state: "overwatch", notice: "VOLLEY.D100.OverwatchEnds" }],
};

registerSystem(d100);

export default d100;
