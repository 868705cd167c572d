/**
 * The referee's browser turns a MegaTraveller choice into a rules request (rules/megatraveller/
 * requests.py), and the second step of a two-step attack into an `allocate`.
 *
 * From the documents, never from the player's browser: the skill level with the weapon, Dexterity, the
 * weapon's kind, /R, burst size, automatic fire and Auto Tgts, its rounds and magazine, its readiness
 * and selector, and the token's target lock. The player chooses: how to fire (fire, fast draw,
 * retarget and fire), the mode, the targets in order (the primary first), each target's difficulty and
 * DM, who is a bystander in the danger space, where stray bullets fly on (the line of fire), the split
 * (the default, an explicit one, or "after the roll"), whether to empty the magazine, and for the
 * handling actions the target to lock and the selector setting.
 *
 * Refusals are FormErrors naming the choice's field, said in the player's language; the rules engine
 * checks everything again. Pure: no Foundry globals.
 */

import { FormError, readChoice, readFlag, readInt, readText, requireInt } from "../../fields.js";
import { DIFFICULTIES, FIRE_MODES, FIRING_ACTIONS, MODE_RULES, READINESS, SELECTOR, burstSize, weaponModes } from "./modes.js";
import { checkBulletSplit, checkClusterSplit } from "./split.js";

/**
 * @typedef {import("../../registry.js").Choice} Choice
 * @typedef {import("../../registry.js").RequestContext} RequestContext
 * @typedef {import("../../registry.js").BuiltRequest} BuiltRequest
 * @typedef {import("./modes.js").FireMode} FireMode
 */

/** What a MegaTraveller choice may ask for: a shot, or one of the RCS's weapon-handling actions. */
export const CHOICE_ACTIONS = Object.freeze(/** @type {const} */ (["attack", "draw", "unsling", "ready", "select_mode", "retarget", "reload"]));

/** The biggest DM a person may type for one target (the rules engine's own limit). */
export const DM_LIMIT = 50;

/** Not a rule, a guard: the most tokens one attack may list (the rules engine's MAX_TOKENS). */
export const MAX_TOKENS = 24;

/** The longest request id the bridge accepts. */
const MAX_ID = 128;

/**
 * The shooter as the rules want it: skill, Dex, and the state the token holds.
 * @param {RequestContext} context
 */
function attacker(context) {
  const skill = readInt(context.weapon.skill, "weapon.skill", { min: -10, max: 30, optional: true });
  if (skill === null) throw new FormError("weapon.skill", "VOLLEY.Form.NotSet");
  const dex = readInt(context.character.dex, "character.dex", { min: 0, max: 30, optional: true });
  if (dex === null) throw new FormError("character.dex", "VOLLEY.Form.NotSet");
  const state = context.weapon.state ?? {};
  const lock = context.shooter.state?.target;
  /** @type {Record<string, unknown>} */
  const shooter = {
    id: context.shooter.id,
    name: context.shooter.name,
    skill,
    dex,
    readiness: readChoice(state.readiness ?? "", "weapon.readiness", READINESS, "ready"),
    selector: readChoice(state.selector ?? "", "weapon.selector", SELECTOR, "single"),
  };
  // No lock recorded: left out, and a plain fire takes the primary as the lock (reading 9).
  if (typeof lock === "string" && lock) {
    shooter.target = lock;
    // Its name, so the log and a refusal say whom it is locked on (the id is for the state).
    const name = context.targets.get(lock)?.name ?? context.shooter.lockName;
    if (name) shooter.target_name = name;
  }
  return shooter;
}

/**
 * The weapon's statistics and magazine as the rules want them.
 * @param {RequestContext} context
 */
function weapon(context) {
  const { stats = {}, state = {}, name } = context.weapon;
  /** @type {Record<string, unknown>} */
  const out = {
    name: String(name ?? "").slice(0, 80),
    kind: readChoice(stats.kind ?? "", "weapon.kind", /** @type {const} */ (["pistol", "rifle", "heavy"]), "rifle"),
    rapid: stats.rapid === true,
    burst: burstSize(stats),
    auto: stats.auto === true,
    auto_targets: readInt(stats.auto_targets, "weapon.auto_targets", { min: 0, max: 100, optional: true }) ?? 1,
    loaded: readInt(state.loaded, "weapon.loaded", { min: 0, optional: true }) ?? 0,
  };
  const capacity = readInt(stats.capacity, "weapon.capacity", { min: 1, optional: true });
  if (capacity !== null) out.capacity = capacity;
  return out;
}

/**
 * The choice's token entries, checked: each a token of the scene, none twice.
 * @param {Choice} choice
 * @param {RequestContext} context
 */
function pickedTargets(choice, context) {
  const picked = Array.isArray(choice.targets) ? choice.targets : [];
  if (picked.length > MAX_TOKENS) throw new FormError("targets", "VOLLEY.MegaTraveller.Form.TooManyTokens", { max: MAX_TOKENS });
  const seen = new Set();
  return picked.map((raw, index) => {
    const entry = typeof raw === "object" && raw !== null ? /** @type {Record<string, unknown>} */ (raw) : {};
    const known = context.targets.get(String(entry.id ?? ""));
    if (!known) throw new FormError(`targets.${index}.id`, "VOLLEY.Form.UnknownTarget");
    if (seen.has(known.id)) throw new FormError(`targets.${index}.id`, "VOLLEY.MegaTraveller.Form.Twice", { name: known.name });
    seen.add(known.id);
    return { entry, known, field: `targets.${index}` };
  });
}

/**
 * The pool a two-step attack rolled, as the allocation step sends it back for the odds of its split.
 * @param {unknown} raw
 * @param {FireMode} mode
 * @returns {Record<string, unknown> | null}
 */
function readPool(raw, mode) {
  if (raw === undefined || raw === null) return null;
  const pool = typeof raw === "object" && !Array.isArray(raw) ? /** @type {Record<string, unknown>} */ (raw) : {};
  if (!MODE_RULES[mode].clustered) return { bullets: requireInt(pool.bullets, "pool.bullets", { min: 1, max: 100 }) };
  const clusters = Array.isArray(pool.clusters) ? pool.clusters : [];
  if (clusters.length > 60) throw new FormError("pool.clusters", "VOLLEY.Form.AtMost", { max: 60 });
  return {
    rounds: requireInt(pool.rounds, "pool.rounds", { min: 0, max: 10000 }),
    lost: requireInt(pool.lost, "pool.lost", { min: 0, max: 10000 }),
    clusters: clusters.map((size, k) => requireInt(size, `pool.clusters.${k}`, { min: 1, max: 6 })),
  };
}

/**
 * A split as the player gave it: bullets per target, or cluster indices per target (automatic fire);
 * checked against the pool when the choice carries it.
 * @param {unknown} raw
 * @param {FireMode} mode
 * @param {number} targets how many tokens the attack lists
 * @param {Record<string, unknown> | null} pool
 * @returns {number[] | number[][]}
 */
export function readSplit(raw, mode, targets, pool) {
  if (!Array.isArray(raw)) throw new FormError("allocation", "VOLLEY.MegaTraveller.Form.SplitShape");
  if (raw.length !== targets) throw new FormError("allocation", "VOLLEY.MegaTraveller.Form.SplitLength", { given: raw.length, targets });
  if (MODE_RULES[mode].clustered) {
    const split = raw.map((indices, t) => {
      if (!Array.isArray(indices) || indices.length > 60) throw new FormError(`allocation.${t}`, "VOLLEY.MegaTraveller.Form.SplitShape");
      return indices.map((index) => requireInt(index, `allocation.${t}`, { min: 0, max: 59 }));
    });
    if (pool && Array.isArray(pool.clusters)) checkClusterSplit(split, /** @type {number[]} */ (pool.clusters));
    return split;
  }
  const split = raw.map((n, t) => requireInt(n, `allocation.${t}`, { min: 0, max: 100 }));
  if (pool && typeof pool.bullets === "number") checkBulletSplit(split, pool.bullets);
  return split;
}

/**
 * A shot: fire, fast draw, or retarget and fire, in one of the weapon's modes.
 * @param {Choice} choice
 * @param {RequestContext} context
 * @returns {BuiltRequest}
 */
function fire(choice, context) {
  const how = readChoice(choice.how, "how", FIRING_ACTIONS, "fire");
  const mode = readChoice(choice.mode, "mode", FIRE_MODES, "single");
  const rule = MODE_RULES[mode];
  const gun = weapon(context);
  if (!weaponModes(context.weapon.stats ?? {}).includes(mode)) {
    throw new FormError("mode", "VOLLEY.MegaTraveller.Form.NoMode", { weapon: gun.name, mode });
  }
  const picked = pickedTargets(choice, context);
  if (picked.length === 0) throw new FormError("targets", "VOLLEY.MegaTraveller.Form.NoTargets");
  const targets = picked.map(({ entry, known, field }, index) => {
    /** @type {Record<string, unknown>} */
    const target = {
      id: known.id,
      name: known.name,
      difficulty: readChoice(entry.difficulty, `${field}.difficulty`, DIFFICULTIES, "routine"),
      dm: requireInt(entry.dm ?? 0, `${field}.dm`, { min: -DM_LIMIT, max: DM_LIMIT }),
    };
    if (readFlag(entry.bystander)) {
      if (!rule.clustered) throw new FormError(`${field}.bystander`, "VOLLEY.MegaTraveller.Form.NoDangerSpace", { mode });
      if (index === 0) throw new FormError(`${field}.bystander`, "VOLLEY.MegaTraveller.Form.PrimaryBystander");
      target.bystander = true;
    }
    const closer = typeof entry.closer === "string" ? entry.closer : "";
    if (closer && rule.strays) {
      const next = context.targets.get(closer);
      if (!next || next.id === known.id) throw new FormError(`${field}.closer`, "VOLLEY.Form.UnknownTarget");
      target.closer = [next.id];
    }
    return target;
  });
  const chosen = targets.filter((t) => !t.bystander).length;
  const limit = rule.maxTargets ?? (typeof gun.auto_targets === "number" && gun.auto_targets >= 1 ? gun.auto_targets : 1);
  if (chosen > limit) throw new FormError("targets", "VOLLEY.MegaTraveller.Form.TooManyTargets", { mode, max: limit, chosen });
  /** @type {Record<string, unknown>} */
  const request = { system: "megatraveller", action: how, mode, attacker: attacker(context), weapon: gun, targets };
  const pool = readPool(choice.pool, mode);
  const allocation = choice.allocation ?? "default";
  if (allocation === "defer") {
    if (!rule.pool) throw new FormError("allocation", "VOLLEY.MegaTraveller.Form.NothingToRoll", { mode });
    request.allocation = "defer";
  } else if (allocation !== "default") {
    if (rule.clustered && !pool) throw new FormError("pool", "VOLLEY.MegaTraveller.Form.SplitNeedsPool");
    request.allocation = readSplit(allocation, mode, targets.length, pool ?? (mode === "burst" ? { bullets: gun.burst } : null));
  }
  if (pool) request.pool = pool;
  if (mode === "auto" && readFlag(choice.empty_magazine)) request.empty_magazine = true;
  return { type: "attack", request };
}

/**
 * The token the handling action locks on (draw, ready, retarget): the choice's first target.
 * @param {Choice} choice
 * @param {RequestContext} context
 */
function lockTarget(choice, context) {
  const first = pickedTargets(choice, context)[0];
  return first ? first.known : null;
}

/**
 * RCS weapon handling: no dice; the shooter's readiness, selector, lock or rounds change.
 * @param {string} action
 * @param {Choice} choice
 * @param {RequestContext} context
 * @returns {BuiltRequest}
 */
function handle(action, choice, context) {
  const gun = weapon(context);
  /** @type {Record<string, unknown>} */
  const request = { system: "megatraveller", action, attacker: attacker(context), weapon: gun };
  if (action === "draw" || action === "ready") {
    const target = lockTarget(choice, context);
    if (target) {
      request.target = target.id;
      request.target_name = target.name;
    }
    if (choice.selector) request.selector = readChoice(choice.selector, "selector", SELECTOR);
  } else if (action === "select_mode") {
    request.selector = readChoice(choice.selector, "selector", SELECTOR);
  } else if (action === "retarget") {
    const target = lockTarget(choice, context);
    if (!target) throw new FormError("targets", "VOLLEY.MegaTraveller.Form.RetargetWhom");
    request.target = target.id;
    request.target_name = target.name;
  } else if (action === "reload" && !("capacity" in gun)) {
    throw new FormError("weapon.capacity", "VOLLEY.Form.NotSet");
  }
  return { type: "action", request };
}

/**
 * @param {Choice} choice
 * @param {RequestContext} context
 * @returns {BuiltRequest}
 */
export function buildMegaTravellerRequest(choice, context) {
  const action = readChoice(choice.action, "action", CHOICE_ACTIONS, "attack");
  return action === "attack" ? fire(choice, context) : handle(action, choice, context);
}

/**
 * The second step of a two-step attack: which pending attack, and the player's split of its pool.
 * The split's shape follows the mode of the attack it settles (clusters for automatic fire).
 * @param {Choice} choice the first step's choice, with `pending_id`, `allocation` (and the `pool` shown)
 * @param {RequestContext} _context
 * @returns {{pending_id: string, allocation: number[] | number[][]}}
 */
export function buildMegaTravellerAllocation(choice, _context) {
  const pendingId = readText(choice.pending_id, "pending_id", { max: MAX_ID, optional: false });
  const mode = readChoice(choice.mode, "mode", FIRE_MODES, "single");
  if (!MODE_RULES[mode].pool) throw new FormError("mode", "VOLLEY.MegaTraveller.Form.NothingToRoll", { mode });
  const targets = Array.isArray(choice.targets) ? choice.targets.length : 0;
  const allocation = readSplit(choice.allocation, mode, targets, readPool(choice.pool, mode));
  return { pending_id: pendingId, allocation };
}
