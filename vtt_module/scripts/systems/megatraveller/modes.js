/**
 * The RCS fire modes as the dialog needs them: which a weapon has, the selector each needs, how many
 * targets each may take, and the DMs of the ways to fire (RCS: To-Hit, Readying a Weapon, Targetting
 * and Firing).
 *
 * The rules engine (rules/megatraveller/modes.py) is the authority and refuses anything that breaks
 * them; these numbers mirror it so the dialog can say in plain words, before asking, what an attack
 * will cost and why it cannot be made yet. Pure: no Foundry globals.
 */

/** RCS: the five ways to fire, in the order the dialog offers them. */
export const FIRE_MODES = Object.freeze(/** @type {const} */ (["single", "rapid", "burst", "auto", "controlled"]));

/** RCS: Entering Combat. How a weapon can be carried, from least to most ready. */
export const READINESS = Object.freeze(/** @type {const} */ (["holstered", "slung", "carried", "ready"]));

/** RCS: Mode Selection. Where the selector can sit. */
export const SELECTOR = Object.freeze(/** @type {const} */ (["single", "burst", "auto"]));

/** RCS: Targetting and Firing. The three ways to fire a shot. */
export const FIRING_ACTIONS = Object.freeze(/** @type {const} */ (["fire", "fast_draw", "retarget_and_fire"]));

/** The task's difficulty before the RCS shifts it (Player's Manual p.72); Close-range fire is Routine. */
export const DIFFICULTIES = Object.freeze(/** @type {const} */ (["simple", "routine", "difficult", "formidable", "impossible"]));

/** The difficulty a new target row starts with (Close-range fire). */
export const DEFAULT_DIFFICULTY = "routine";

/** RCS: a burst is always 2, 3 or 4 bullets, fixed by the weapon. */
export const BURST_SIZES = Object.freeze([2, 3, 4]);

/** RCS: Readying a Weapon. Drawing, aiming and firing in one action. */
export const FAST_DRAW_DM = -2;
/**
 * Which weapons Fast Draw may draw, as the rules engine reads it by default (docs/rules/megatraveller.md,
 * reading 10): "small", a holstered pistol; "any", any kind, holstered or already ready.
 * @type {"small" | "any"}
 */
export const FAST_DRAW_WEAPONS = "small";

/** RCS: Targetting and Firing. The bring-to-bear penalty of Retarget and Fire, by kind of weapon. */
export const BRING_TO_BEAR_DM = Object.freeze({ pistol: -1, rifle: -2, heavy: -4 });

/** RCS: rapid and burst fire, the DM for one, two or three targets designated. */
export const SPLIT_DM = Object.freeze([0, -1, -3]);

/** RCS: Automatic fire. The firer may empty the magazine when 3D+20 comes within this many rounds of it. */
export const EMPTY_MAGAZINE_WITHIN = 10;

/**
 * @typedef {(typeof FIRE_MODES)[number]} FireMode
 * @typedef {(typeof READINESS)[number]} Readiness
 * @typedef {(typeof SELECTOR)[number]} Selector
 * @typedef {(typeof FIRING_ACTIONS)[number]} FiringAction
 * @typedef {"pistol" | "rifle" | "heavy"} WeaponKind
 * @typedef {{selector: Selector, shift: number, maxTargets: number | null, clustered: boolean,
 *   strays: boolean, splitDm: boolean, pool: boolean}} ModeRule
 *   `maxTargets` null: up to the weapon's Auto Tgts; `clustered`: 1D clusters and a danger space
 *   (automatic and controlled); `strays`: a natural 2 sends the rest on down the line of fire (rapid,
 *   burst); `pool`: the bullets are rolled first, so the split can wait for the roll
 */

/**
 * RCS: To-Hit. Rapid fire adds a rung and may take three targets; a burst likewise without the rung;
 * automatic fire adds a rung and takes up to Auto Tgts targets; controlled fire is automatic fire in
 * short pulses and inherits everything else from it (the rules engine's reading 4).
 * @type {Readonly<Record<FireMode, ModeRule>>}
 */
export const MODE_RULES = Object.freeze({
  single: { selector: "single", shift: 0, maxTargets: 1, clustered: false, strays: false, splitDm: false, pool: false },
  rapid: { selector: "single", shift: 1, maxTargets: 3, clustered: false, strays: true, splitDm: true, pool: true },
  burst: { selector: "burst", shift: 0, maxTargets: 3, clustered: false, strays: true, splitDm: true, pool: false },
  auto: { selector: "auto", shift: 1, maxTargets: null, clustered: true, strays: false, splitDm: false, pool: true },
  controlled: { selector: "auto", shift: 1, maxTargets: null, clustered: true, strays: false, splitDm: false, pool: true },
});

/**
 * The weapon's burst size, or null when it has no burst setting (or a size the RCS does not know).
 * @param {Record<string, unknown>} stats
 */
export function burstSize(stats) {
  const size = Number(stats.burst);
  return stats.burst !== null && stats.burst !== undefined && BURST_SIZES.includes(size) ? size : null;
}

/**
 * The modes a weapon has: single always; rapid with "/R"; burst with a burst size; automatic and
 * controlled when it fires full-automatic (RCS: "capable of single fire only unless described").
 * @param {Record<string, unknown>} stats
 * @returns {FireMode[]}
 */
export function weaponModes(stats) {
  return FIRE_MODES.filter((mode) => {
    if (mode === "rapid") return stats.rapid === true;
    if (mode === "burst") return burstSize(stats) !== null;
    if (mode === "auto" || mode === "controlled") return stats.auto === true;
    return true;
  });
}

/**
 * The selector settings a weapon has (every weapon has single).
 * @param {Record<string, unknown>} stats
 * @returns {Selector[]}
 */
export function weaponSelectors(stats) {
  return SELECTOR.filter((setting) => (setting === "burst" ? burstSize(stats) !== null : setting === "auto" ? stats.auto === true : true));
}

/**
 * How many chosen targets a mode may take with this weapon (bystanders are never counted).
 * @param {FireMode} mode
 * @param {Record<string, unknown>} stats
 */
export function maxTargets(mode, stats) {
  const rule = MODE_RULES[mode];
  if (rule.maxTargets !== null) return rule.maxTargets;
  const rating = Number(stats.auto_targets);
  return Number.isInteger(rating) && rating >= 1 ? rating : 1;
}

/**
 * The mode a weapon's selector points at, as the dialog's first choice: single for single, the burst
 * for burst, automatic for auto; a mode the weapon lacks falls back to the first it has.
 * @param {Record<string, unknown>} stats
 * @param {unknown} selector
 * @returns {FireMode}
 */
export function modeForSelector(stats, selector) {
  const modes = weaponModes(stats);
  const wanted = selector === "burst" ? "burst" : selector === "auto" ? "auto" : "single";
  return modes.includes(wanted) ? wanted : (modes[0] ?? "single");
}

/**
 * The weapon's kind as the bring-to-bear DM reads it (rifle when unknown, the rules' default).
 * @param {unknown} kind
 * @returns {WeaponKind}
 */
export function weaponKind(kind) {
  return kind === "pistol" || kind === "heavy" ? kind : "rifle";
}

/**
 * A characteristic's DM: the characteristic divided by 5, rounded down (Dex 13 is +2).
 * @param {number} value
 */
export function characteristicDm(value) {
  return Math.floor(value / 5);
}
