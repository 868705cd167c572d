/**
 * The referee's browser turns a d100 choice into a rules request (rules/d100/requests.py).
 *
 * From the documents, never from the player's browser: the shooter's BS, Tech-Use, Trade (Weaponsmith)
 * and Strength bonus; the weapon's class, RoF, clip, reliability, range and its state (rounds, jam,
 * spoiled rounds, brace); whether the shooter is suppressed or prone and its standing overwatch order;
 * each target's WP, its suppressed and prone statuses, and every distance, measured on the map between
 * token centres (to the shooter for the range band, to the primary for a burst's extra hits).
 *
 * The player's: the mode (and suppressing fire's rate and sector width), the targets and how a burst's
 * extra hits are shared, whether each target is in cover or can reach it, a range band where the map
 * cannot tell, whether the shooter moved or is in melee, the situational modifier, the overwatch order
 * (mode, trigger, facing, sector), which skill clears a jam, and the morale tests' modifiers.
 *
 * Readings (named defaults, docs/rules/d100.md "In the VTT"):
 * - modifiers a player types are capped at ±60, the family's cap on the sum of modifiers
 *   (`MODIFIER_LIMIT`);
 * - a jam is cleared with the better of Tech-Use and Trade (Weaponsmith) unless the player picks one;
 * - morale actions (suppression test, recovery, entering melee) act on the token itself; only a game
 *   master may call them on the listed targets (a player cannot make other tokens test).
 *
 * Pure: refusals are FormErrors naming the choice's field.
 */

import { FormError, readChoice, readFlag, readInt, readText, requireInt } from "../../fields.js";
import { distanceBetween } from "../../sector.js";
import { ATTACK_MODES, BANDS, OVERWATCH_MODES, RATES, SECTOR_MAX_DEGREES } from "./modes.js";

/** The biggest modifier a person may type (the family caps the sum of modifiers at ±60). */
export const MODIFIER_LIMIT = 60;
/** Characteristics and skills beyond this are typing slips (rules/d100/plan.py CHARACTERISTIC_MAX). */
const CHARACTERISTIC_MAX = 200;
/** At most this many targets in one request (a sector of a crowded map). */
export const MAX_TARGETS = 32;
/** An overwatch trigger is a short sentence. */
export const TRIGGER_MAX = 120;

export const ACTIONS = Object.freeze(
  /** @type {const} */ ([
    "attack",
    "overwatch",
    "overwatch_fire",
    "reload",
    "unjam",
    "recover_ammo",
    "brace",
    "suppression_test",
    "recover",
    "enter_melee",
    "lift_overwatch",
    "release_brace",
  ]),
);

/**
 * @typedef {import("../../registry.js").Choice} Choice
 * @typedef {import("../../registry.js").RequestContext} RequestContext
 * @typedef {import("../../registry.js").TargetContext} TargetContext
 * @typedef {import("../../registry.js").BuiltRequest} BuiltRequest
 * @typedef {import("../../sector.js").Point} Point
 */

/** @param {unknown} value */
const isRecord = (value) => typeof value === "object" && value !== null && !Array.isArray(value);

/** Metres to the centimetre: enough for a band, and tidy in the journal. @param {number} metres */
const metres = (metres) => Math.round(metres * 100) / 100;

/**
 * @param {string[] | undefined} statuses
 * @param {string} id
 */
const has = (statuses, id) => Array.isArray(statuses) && statuses.includes(id);

/**
 * A characteristic or skill from the character's numbers; FormError when the profile lacks it.
 * @param {Record<string, unknown>} character
 * @param {string} key
 */
function characteristic(character, key) {
  const value = character[key];
  if (typeof value !== "number") throw new FormError(`character.${key}`, "VOLLEY.Form.NotSet");
  return requireInt(value, `character.${key}`, { min: 0, max: CHARACTERISTIC_MAX });
}

/**
 * The shooter as the rules want it: BS and state from the documents, movement and melee from the choice.
 * @param {Choice} choice
 * @param {RequestContext} context
 * @param {{overwatch?: boolean}} [needs]
 */
function attacker(choice, context, { overwatch = false } = {}) {
  const { shooter, character } = context;
  /** @type {Record<string, unknown>} */
  const out = {
    id: shooter.id,
    name: shooter.name,
    bs: characteristic(character, "bs"),
    moved: readFlag(choice.moved),
    in_melee: readFlag(choice.in_melee),
    suppressed: has(shooter.statuses, "suppressed"),
    prone: has(shooter.statuses, "prone"),
  };
  if (typeof character.sb === "number") out.sb = requireInt(character.sb, "character.sb", { min: 0, max: 20 });
  if (overwatch) out.overwatch = standingOrder(context);
  return out;
}

/**
 * The token's standing overwatch order, as an earlier result stored it.
 * @param {RequestContext} context
 */
export function standingOrder(context) {
  const order = context.shooter.state?.overwatch;
  if (!isRecord(order)) throw new FormError("mode", "VOLLEY.D100.Form.NoOrder");
  const o = /** @type {Record<string, unknown>} */ (order);
  return {
    mode: readChoice(o.mode, "overwatch.mode", OVERWATCH_MODES, "single"),
    trigger: readText(o.trigger, "overwatch.trigger", { max: TRIGGER_MAX }),
    facing: typeof o.facing === "number" && Number.isFinite(o.facing) ? o.facing : 0,
    arc: typeof o.arc === "number" && o.arc > 0 && o.arc <= SECTOR_MAX_DEGREES ? o.arc : SECTOR_MAX_DEGREES,
  };
}

/**
 * The weapon as the rules want it: its book stats and its state now, from the actor.
 * @param {RequestContext} context
 */
function weaponFor(context) {
  const { stats = {}, state = {}, name } = context.weapon;
  /** @type {Record<string, unknown>} */
  const weapon = {
    name: name.slice(0, 80),
    class: typeof stats.class === "string" ? stats.class : "rifle",
    rof: typeof stats.rof === "string" ? stats.rof : "S/-/-",
    loaded: typeof state.loaded === "number" ? state.loaded : 0,
    jammed: state.jammed === true,
    spoiled: typeof state.spoiled === "number" ? state.spoiled : 0,
    braced: state.braced === true,
  };
  if (typeof stats.capacity === "number") weapon.capacity = stats.capacity;
  if (typeof stats.reliability === "number" || typeof stats.reliability === "string") weapon.reliability = stats.reliability;
  if (typeof stats.range === "number") weapon.range = stats.range;
  if (typeof state.reserve === "number") weapon.reserve = state.reserve;
  for (const key of ["damage", "damage_type"]) if (typeof stats[key] === "string") weapon[key] = stats[key];
  for (const key of ["pen", "blast", "concussive"]) if (typeof stats[key] === "number") weapon[key] = stats[key];
  return weapon;
}

/**
 * @param {Point | null | undefined} a
 * @param {Point | null | undefined} b
 * @returns {number | null}
 */
function measured(a, b) {
  return a && b ? metres(distanceBetween(a, b)) : null;
}

/**
 * The targets a choice names, in its order, as known to the referee's browser.
 * @param {Choice} choice
 * @param {RequestContext} context
 * @returns {{entry: Record<string, unknown>, known: TargetContext, field: string}[]}
 */
function pickedTargets(choice, context) {
  const picked = Array.isArray(choice.targets) ? choice.targets : [];
  if (picked.length > MAX_TARGETS) throw new FormError("targets", "VOLLEY.Form.AtMost", { max: MAX_TARGETS });
  const seen = new Set();
  return picked.map((raw, index) => {
    const entry = isRecord(raw) ? /** @type {Record<string, unknown>} */ (raw) : {};
    const field = `targets.${index}`;
    const known = context.targets.get(String(entry.id ?? ""));
    if (!known) throw new FormError(`${field}.id`, "VOLLEY.Form.UnknownTarget");
    if (known.id === context.shooter.id) throw new FormError(`${field}.id`, "VOLLEY.D100.Form.NotSelf");
    if (seen.has(known.id)) throw new FormError(`${field}.id`, "VOLLEY.D100.Form.Twice", { name: known.name });
    seen.add(known.id);
    return { entry, known, field };
  });
}

/**
 * Where a token stands as the suppression rules read it (seed 004: cover, and whether it can reach
 * some, decide what failing the test costs): cover from the player's choice (reaching cover unless
 * the player says it cannot), suppressed and prone from the token's statuses.
 * @param {Record<string, unknown>} choice the target's entry in the choice, or the choice for the shooter
 * @param {string[] | undefined} statuses the token's status ids
 */
function standing(choice, statuses) {
  return {
    in_cover: readFlag(choice.cover),
    can_reach_cover: choice.reach_cover === undefined ? true : readFlag(choice.reach_cover),
    suppressed: has(statuses, "suppressed"),
    prone: has(statuses, "prone"),
  };
}

/**
 * One target as the rules want it: WP and statuses from its documents, cover from the choice, the range
 * from the map (or the band the player named).
 * @param {{entry: Record<string, unknown>, known: TargetContext, field: string}} picked
 * @param {RequestContext} context
 * @param {{needsWp: boolean}} use a target that will test suppression needs WP
 */
function targetFor({ entry, known, field }, context, { needsWp }) {
  /** @type {Record<string, unknown>} */
  const target = { id: known.id, name: known.name, ...standing(entry, known.statuses) };
  const wp = known.character?.wp;
  if (typeof wp === "number") target.wp = requireInt(wp, `${field}.wp`, { min: 0, max: CHARACTERISTIC_MAX });
  else if (needsWp) throw new FormError(`${field}.wp`, "VOLLEY.D100.Form.NoWp", { name: known.name });
  const band = readChoice(entry.band ?? "", `${field}.band`, [...BANDS, "auto"], "auto");
  if (band !== "auto") target.band = band;
  else {
    const distance = measured(context.shooter.centre, known.centre);
    if (distance !== null) target.distance = distance;
  }
  return target;
}

/**
 * Attack targets: the first is the primary; for a burst each other target is a secondary with the share
 * of extra hits the player wants for it and its distance to the primary on the map. Single shots (an
 * overwatch order's, one shot per token) and suppressing fire have no secondaries: no share and no
 * distance to a primary is sent for them (the rules refuse a field that nothing would read).
 * @param {Choice} choice
 * @param {RequestContext} context
 * @param {{burst: boolean, tests: boolean}} how `burst`: a burst's extra hits go to secondaries;
 *   `tests`: every target tests suppression
 */
function attackTargets(choice, context, { burst, tests }) {
  const picked = pickedTargets(choice, context);
  if (picked.length === 0) throw new FormError("targets", "VOLLEY.D100.Form.NoTargets");
  const primary = picked[0]?.known;
  return picked.map((one, index) => {
    const target = targetFor(one, context, { needsWp: tests });
    if (burst && index > 0) {
      target.share = requireInt(one.entry.share ?? 0, `${one.field}.share`, { min: 0, max: 100 });
      const reach = measured(primary?.centre, one.known.centre);
      if (reach !== null) target.to_primary = reach;
    }
    return target;
  });
}

/**
 * @param {Choice} choice
 * @param {string} [field]
 */
function modifierOf(choice, field = "modifier") {
  return requireInt(choice[field] ?? 0, field, { min: -MODIFIER_LIMIT, max: MODIFIER_LIMIT });
}

/**
 * An attack in one of the rules' modes: single shot, short, long or wide burst, suppressing fire.
 * @param {Choice} choice
 * @param {RequestContext} context
 * @returns {BuiltRequest}
 */
function attack(choice, context) {
  const mode = readChoice(choice.mode, "mode", ATTACK_MODES, "single");
  const suppressing = mode === "suppressing";
  const targets = attackTargets(choice, context, { burst: !suppressing && mode !== "single", tests: suppressing });
  if (mode === "single" && targets.length > 1) throw new FormError("targets", "VOLLEY.D100.Form.SingleOneTarget");
  /** @type {Record<string, unknown>} */
  const request = {
    system: "d100",
    action: "attack",
    mode,
    attacker: attacker(choice, context),
    weapon: weaponFor(context),
    modifier: modifierOf(choice),
    targets,
  };
  if (suppressing) {
    // No rate: the rules take the long-burst RoF when the weapon has one, else the short-burst RoF.
    const rate = readChoice(choice.rate ?? "", "rate", [...RATES, "auto"], "auto");
    if (rate !== "auto") request.rate = rate;
    const arc = readInt(choice.arc, "arc", { min: 1, max: SECTOR_MAX_DEGREES, optional: true });
    if (arc !== null) request.arc = arc;
  } else if (readFlag(choice.gm_allows_wider)) {
    request.gm_allows_wider = true;
  }
  return { type: "attack", request };
}

/**
 * Set a standing overwatch order (a full action), or lift it.
 * @param {Choice} choice
 * @param {RequestContext} context
 * @returns {BuiltRequest}
 */
function overwatch(choice, context) {
  const base = { system: "d100", action: "overwatch", attacker: attacker(choice, context), weapon: weaponFor(context) };
  if (readFlag(choice.clear)) return { type: "action", request: { ...base, clear: true } };
  const raw = isRecord(choice.order) ? /** @type {Record<string, unknown>} */ (choice.order) : {};
  // Where the order watches is the player's to say: an empty facing is refused, never taken for 0° (#31).
  if (raw.facing === undefined || raw.facing === null || (typeof raw.facing === "string" && !raw.facing.trim())) {
    throw new FormError("order.facing", "VOLLEY.Form.Required");
  }
  const facing = Number(raw.facing);
  if (!Number.isFinite(facing)) throw new FormError("order.facing", "VOLLEY.Form.WholeNumber", { value: String(raw.facing).slice(0, 20) });
  const order = {
    mode: readChoice(raw.mode, "order.mode", OVERWATCH_MODES, "single"),
    trigger: readText(raw.trigger, "order.trigger", { max: TRIGGER_MAX }),
    facing: Math.round((((facing % 360) + 360) % 360) * 10) / 10,
    arc: requireInt(raw.arc ?? SECTOR_MAX_DEGREES, "order.arc", { min: 1, max: SECTOR_MAX_DEGREES }),
  };
  return { type: "action", request: { ...base, order } };
}

/**
 * The standing order fires at the tokens that met its trigger: its own mode, or the one the shooter
 * picks now (seed: single shot, short or long burst). Every target shot at tests suppression at +20.
 * @param {Choice} choice
 * @param {RequestContext} context
 * @returns {BuiltRequest}
 */
function overwatchFire(choice, context) {
  const shooter = attacker(choice, context, { overwatch: true });
  const mode = readChoice(choice.fire_mode ?? "", "fire_mode", [...OVERWATCH_MODES, "order"], "order");
  // The order's own mode, unless the shooter picks another now: a single shot fires one shot per token.
  const fires = mode === "order" ? /** @type {{mode: string}} */ (shooter.overwatch).mode : mode;
  const request = {
    system: "d100",
    action: "overwatch_fire",
    attacker: shooter,
    weapon: weaponFor(context),
    modifier: modifierOf(choice),
    targets: attackTargets(choice, context, { burst: fires !== "single", tests: true }),
  };
  return { type: "attack", request: mode === "order" ? request : { ...request, mode } };
}

/**
 * Tech-Use or Trade (Weaponsmith) against a jam: the one the player picks, else the better one.
 * @param {Choice} choice
 * @param {RequestContext} context
 */
function unjamSkill(choice, context) {
  const { character } = context;
  const tech = typeof character.tech_use === "number" ? characteristic(character, "tech_use") : null;
  const smith = typeof character.weaponsmith === "number" ? characteristic(character, "weaponsmith") : null;
  const using = readChoice(choice.using ?? "", "using", /** @type {const} */ (["tech_use", "weaponsmith", "best"]), "best");
  if (using === "tech_use") return tech ?? characteristic(character, "tech_use");
  if (using === "weaponsmith") return smith ?? characteristic(character, "weaponsmith");
  if (tech === null && smith === null) throw new FormError("character.tech_use", "VOLLEY.Form.NotSet");
  return Math.max(tech ?? 0, smith ?? 0);
}

/**
 * Who a morale action is for: the token itself, or (a game master's call) the listed targets.
 * @param {Choice} choice
 * @param {RequestContext} context
 * @param {{needsWp: boolean}} use
 */
function moraleTargets(choice, context, { needsWp }) {
  const who = readChoice(choice.who ?? "", "who", /** @type {const} */ (["self", "targets"]), "self");
  if (who === "targets") {
    if (context.requester?.isGM !== true) throw new FormError("who", "VOLLEY.D100.Form.GmOnly");
    const picked = pickedTargets(choice, context);
    if (picked.length === 0) throw new FormError("targets", "VOLLEY.D100.Form.NoTargets");
    return picked.map((one) => targetFor(one, context, { needsWp }));
  }
  const { shooter, character } = context;
  /** @type {Record<string, unknown>} */
  const self = { id: shooter.id, name: shooter.name, ...standing(choice, shooter.statuses) };
  if (typeof character.wp === "number") self.wp = characteristic(character, "wp");
  else if (needsWp) throw new FormError("character.wp", "VOLLEY.Form.NotSet");
  return [self];
}

/**
 * @param {Choice} choice
 * @param {RequestContext} context
 * @returns {BuiltRequest}
 */
export function buildD100Request(choice, context) {
  const action = readChoice(choice.action, "action", ACTIONS, "attack");
  const shooterOnly = () => ({ system: "d100", action, attacker: attacker(choice, context), weapon: weaponFor(context) });
  switch (action) {
    case "attack":
      return attack(choice, context);
    case "overwatch":
      return overwatch(choice, context);
    case "lift_overwatch":
      return { type: "action", request: { ...shooterOnly(), action: "overwatch", clear: true } };
    case "overwatch_fire":
      return overwatchFire(choice, context);
    case "reload":
      return { type: "action", request: shooterOnly() };
    case "unjam":
      return { type: "action", request: { ...shooterOnly(), skill: unjamSkill(choice, context), modifier: modifierOf(choice, "tech_modifier") } };
    case "recover_ammo":
      return {
        type: "action",
        request: { ...shooterOnly(), skill: characteristic(context.character, "weaponsmith"), modifier: modifierOf(choice, "tech_modifier") },
      };
    case "brace":
      return { type: "action", request: shooterOnly() };
    case "release_brace":
      return { type: "action", request: { ...shooterOnly(), action: "brace", release: true } };
    case "suppression_test":
      return {
        type: "action",
        request: { system: "d100", action, modifier: modifierOf(choice, "morale_modifier"), targets: moraleTargets(choice, context, { needsWp: true }) },
      };
    case "recover":
      return {
        type: "action",
        request: {
          system: "d100",
          action,
          quiet: readFlag(choice.quiet),
          modifier: modifierOf(choice, "morale_modifier"),
          targets: moraleTargets(choice, context, { needsWp: true }),
        },
      };
    case "enter_melee":
      return { type: "action", request: { system: "d100", action, targets: moraleTargets(choice, context, { needsWp: false }) } };
    default:
      throw new FormError("action", "VOLLEY.Form.OneOf", { options: ACTIONS.join(", "), value: String(action) });
  }
}
