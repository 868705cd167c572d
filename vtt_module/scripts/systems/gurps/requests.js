/**
 * The referee's browser turns a GURPS choice into a rules request (rules/gurps/requests.py).
 *
 * What comes from the actor (never from the player's browser): the weapon's RoF, Rcl, Malf, rounds
 * loaded, capacity and jam; the weapon skill; Armoury and the IQ-based offset for clearing a jam; each
 * target's Dodge. What the player chooses: the shots at each target, a modifier per target (range,
 * size, cover...), a situational modifier to their own skill (Aim, shock...), whether a target gets
 * to dodge, and for a jam which skill to roll and its modifier.
 *
 * Pure: refusals are FormErrors naming the choice's field.
 */

import { FormError, readChoice, readFlag, readInt, requireInt } from "../../fields.js";
import { rofShots } from "./notation.js";

/** Skill used to clear a jam when the profile has no Armoury (the referee is told it is a default). */
export const DEFAULT_ARMOURY = 10;

/** The biggest modifier a person may type; anything bigger is a typing slip. */
const MODIFIER_LIMIT = 30;

/**
 * @typedef {import("../../registry.js").Choice} Choice
 * @typedef {import("../../registry.js").RequestContext} RequestContext
 * @typedef {import("../../registry.js").BuiltRequest} BuiltRequest
 */

/**
 * The weapon as the rules want it: its book stats and its state now.
 * @param {RequestContext} context
 * @param {{firing: boolean}} use a firing weapon needs RoF and Rcl; reload and unjam do not
 */
function weaponFor(context, { firing }) {
  const { stats = {}, state = {}, name } = context.weapon;
  /** @type {Record<string, unknown>} */
  const weapon = {
    name: name.slice(0, 80),
    loaded: typeof state.loaded === "number" ? state.loaded : 0,
    malf: typeof stats.malf === "number" ? stats.malf : 17,
    jammed: state.jammed === true,
  };
  if (typeof stats.capacity === "number") weapon.capacity = stats.capacity;
  if (typeof state.malfunction === "string" && state.malfunction) weapon.malfunction = state.malfunction;
  if (firing) {
    weapon.rof = stats.rof ?? 1;
    weapon.rcl = typeof stats.rcl === "number" ? stats.rcl : 1;
  }
  return weapon;
}

/**
 * @param {RequestContext} context
 */
function shooter(context) {
  return { id: context.shooter.id, name: context.shooter.name };
}

/**
 * A rapid-fire attack: the player's split of shots over the targets they picked.
 * @param {Choice} choice
 * @param {RequestContext} context
 * @returns {BuiltRequest}
 */
function attack(choice, context) {
  const skill = context.weapon.skill;
  if (typeof skill !== "number") throw new FormError("weapon.skill", "VOLLEY.Form.NotSet");
  const modifier = requireInt(choice.modifier ?? 0, "modifier", { min: -MODIFIER_LIMIT, max: MODIFIER_LIMIT });
  const picked = Array.isArray(choice.targets) ? choice.targets : [];
  const targets = [];
  let shots = 0;
  for (const [index, raw] of picked.entries()) {
    const entry = typeof raw === "object" && raw !== null ? /** @type {Record<string, unknown>} */ (raw) : {};
    const field = `targets.${index}`;
    const known = context.targets.get(String(entry.id ?? ""));
    if (!known) throw new FormError(`${field}.id`, "VOLLEY.Form.UnknownTarget");
    const n = requireInt(entry.shots ?? 0, `${field}.shots`, { min: 0, max: 999 });
    if (n === 0) continue;
    shots += n;
    /** @type {Record<string, unknown>} */
    const target = {
      id: known.id,
      name: known.name,
      modifier: requireInt(entry.modifier ?? 0, `${field}.modifier`, { min: -MODIFIER_LIMIT, max: MODIFIER_LIMIT }),
      shots: n,
    };
    const dodge = known.character?.dodge;
    if (typeof dodge === "number" && entry.dodges !== false && readFlag(entry.dodges ?? true)) target.dodge = dodge;
    targets.push(target);
  }
  if (targets.length === 0) throw new FormError("targets", "VOLLEY.Form.NoShots");
  // The rules refuse these too (B373: 1..RoF shots, no more than are loaded); said here first, in the
  // player's language, naming the shots they typed.
  const rof = rofShots(context.weapon.stats.rof);
  if (shots > rof) throw new FormError("targets", "VOLLEY.Gurps.Form.OverRof", { shots, rof });
  const loaded = typeof context.weapon.state.loaded === "number" ? context.weapon.state.loaded : 0;
  if (shots > loaded) throw new FormError("targets", "VOLLEY.Gurps.Form.OverLoaded", { shots, loaded });
  return {
    type: "attack",
    request: {
      system: "gurps",
      action: "attack",
      attacker: { ...shooter(context), skill: skill + modifier },
      weapon: weaponFor(context, { firing: true }),
      shots,
      targets,
    },
  };
}

/**
 * Fill the weapon to its capacity (no dice); a jam stays as it is.
 * @param {RequestContext} context
 * @returns {BuiltRequest}
 */
function reload(context) {
  if (typeof context.weapon.stats?.capacity !== "number") throw new FormError("weapon.capacity", "VOLLEY.Form.NotSet");
  return {
    type: "action",
    request: { system: "gurps", action: "reload", attacker: shooter(context), weapon: weaponFor(context, { firing: false }) },
  };
}

/**
 * One attempt to clear the jam (B407): Armoury, or the IQ-based weapon skill for a misfire or stoppage.
 * @param {Choice} choice
 * @param {RequestContext} context
 * @returns {BuiltRequest}
 */
function unjam(choice, context) {
  const using = readChoice(choice.using, "using", /** @type {const} */ (["armoury", "weapon"]), "armoury");
  const modifier = requireInt(choice.modifier ?? 0, "modifier", { min: -MODIFIER_LIMIT, max: MODIFIER_LIMIT });
  let skill;
  if (using === "armoury") {
    skill = readInt(context.character.armoury, "character.armoury", { optional: true }) ?? DEFAULT_ARMOURY;
  } else {
    const weaponSkill = context.weapon.skill;
    if (typeof weaponSkill !== "number") throw new FormError("weapon.skill", "VOLLEY.Form.NotSet");
    const offset = typeof context.character.iq_minus_dx === "number" ? context.character.iq_minus_dx : 0;
    skill = weaponSkill + offset;
  }
  return {
    type: "action",
    request: {
      system: "gurps",
      action: "unjam",
      attacker: shooter(context),
      weapon: weaponFor(context, { firing: false }),
      skill,
      using,
      modifier,
    },
  };
}

/**
 * @param {Choice} choice
 * @param {RequestContext} context
 * @returns {BuiltRequest}
 */
export function buildGurpsRequest(choice, context) {
  const action = readChoice(choice.action, "action", /** @type {const} */ (["attack", "reload", "unjam"]), "attack");
  if (action === "reload") return reload(context);
  if (action === "unjam") return unjam(choice, context);
  return attack(choice, context);
}
