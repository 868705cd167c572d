/**
 * What a d100 weapon can do in the dialog (seed 004, "Shooting"), and the numbers the rules fix for it:
 * which modes its RoF allows, how far a sector of fire reaches, the range band of a distance, how many
 * single shots an overwatch may fire.
 *
 * The rules engine (rules/d100/) decides every attack; these mirror the few of its numbers the dialog
 * needs before asking it (which modes to offer, who stands in a sector, what band a token is in), each
 * named after its twin in rules/d100/tables.py. Pure.
 */

import { parseD100Rof } from "./notation.js";

/** tables.SECTOR_MAX_DEGREES: suppressing fire and overwatch cover at most 45° (less by choice). */
export const SECTOR_MAX_DEGREES = 45;
/** tables.RANGE_BANDS' outer edge: nothing is shot at beyond extreme range, 3 × Rng. */
export const SECTOR_REACH_IN_RNG = 3;
/** tables.SECONDARY_REACH_METRES: extra hits of a burst reach targets this close to the primary. */
export const SECONDARY_REACH_METRES = 2;
/** tables.POINT_BLANK_METRES. */
export const POINT_BLANK_METRES = 2;
/** tables.RANGE_BANDS: each band's outer edge in multiples of Rng, nearest first. */
export const RANGE_BANDS = Object.freeze(/** @type {const} */ ([
  ["short", 0.5],
  ["combat", 1],
  ["long", 2],
  ["extreme", 3],
]));
/** Every band a player may name outright. */
export const BANDS = Object.freeze(/** @type {const} */ (["point_blank", "short", "combat", "long", "extreme"]));
/** tables.SUPPRESSION_TEST_BANDS: who suppressing fire makes test. */
export const SUPPRESSION_TEST_BANDS = Object.freeze(["point_blank", "short", "combat"]);
/** tables.THROWN_RANGE_PER_SB: thrown weapons and grenades reach SB × 3 m. */
export const THROWN_RANGE_PER_SB = 3;
/** tables.WIDE_BURST_MIN_ROF. */
export const WIDE_BURST_MIN_ROF = 3;
/** overwatch.MIN_SINGLE_SHOTS. */
export const MIN_OVERWATCH_SHOTS = 1;

/** The attack modes of the rules' `mode` field. */
export const ATTACK_MODES = Object.freeze(
  /** @type {const} */ (["single", "short_burst", "long_burst", "wide_short_burst", "wide_long_burst", "suppressing"]),
);
/** The modes a standing overwatch order may answer with. */
export const OVERWATCH_MODES = Object.freeze(/** @type {const} */ (["single", "short_burst", "long_burst"]));
/** Suppressing fire's two rates: semi-automatic (the short-burst RoF), fully automatic (the long-burst RoF). */
export const RATES = Object.freeze(/** @type {const} */ (["semi", "full"]));

/**
 * The entries of the dialog's Mode select, each the rules action it sends and, for an attack, the mode
 * (and suppressing fire's rate). `overwatch` sets a standing order; `overwatch_fire` fires one.
 * @typedef {"single" | "short_burst" | "long_burst" | "wide_short_burst" | "wide_long_burst" |
 *   "suppressing_semi" | "suppressing_full" | "overwatch" | "overwatch_fire"} DialogMode
 * @type {Readonly<Record<DialogMode, {action: string, mode?: string, rate?: "semi" | "full", sector: boolean}>>}
 */
export const DIALOG_MODES = Object.freeze({
  overwatch_fire: { action: "overwatch_fire", sector: true },
  single: { action: "attack", mode: "single", sector: false },
  short_burst: { action: "attack", mode: "short_burst", sector: false },
  long_burst: { action: "attack", mode: "long_burst", sector: false },
  wide_short_burst: { action: "attack", mode: "wide_short_burst", sector: true },
  wide_long_burst: { action: "attack", mode: "wide_long_burst", sector: true },
  suppressing_semi: { action: "attack", mode: "suppressing", rate: "semi", sector: true },
  suppressing_full: { action: "attack", mode: "suppressing", rate: "full", sector: true },
  overwatch: { action: "overwatch", sector: true },
});

/**
 * @param {unknown} value
 * @returns {value is DialogMode}
 */
export function isDialogMode(value) {
  return typeof value === "string" && Object.hasOwn(DIALOG_MODES, value);
}

/**
 * The weapon's RoF as three positions, or null when the notation is wrong.
 * @param {unknown} rof e.g. "S/3/10"
 * @returns {{single: boolean, short: number | null, long: number | null, highest: number} | null}
 */
export function rofPositions(rof) {
  if (typeof rof !== "string") return null;
  const read = parseD100Rof(rof);
  if (!("value" in read)) return null;
  const [first, short, long] = read.value.split("/");
  const number = (/** @type {string | undefined} */ part) => (part && part !== "-" ? Number(part) : null);
  const positions = { single: first === "S", short: number(short), long: number(long) };
  const highest = Math.max(positions.single ? 1 : 0, positions.short ?? 0, positions.long ?? 0);
  return { ...positions, highest };
}

/** @param {Record<string, unknown>} stats */
function isThrown(stats) {
  return stats.class === "thrown" || stats.class === "grenade";
}

/**
 * The Mode select's entries for a weapon: only what its RoF allows (seed 004: a mode needs its RoF
 * position; a wide burst needs that position at 3 or more), thrown weapons and grenades one at a time,
 * and overwatch fire while an order stands.
 * @param {{stats: Record<string, unknown>}} weapon
 * @param {{order?: boolean}} [token] `order`: the token has a standing overwatch order
 * @returns {DialogMode[]}
 */
export function dialogModes(weapon, { order = false } = {}) {
  /** @type {DialogMode[]} */
  const modes = [];
  if (order) modes.push("overwatch_fire");
  if (isThrown(weapon.stats)) return [...modes, "single"];
  const rof = rofPositions(weapon.stats.rof);
  if (!rof) return modes;
  if (rof.single) modes.push("single");
  if (rof.short !== null) modes.push("short_burst");
  if (rof.long !== null) modes.push("long_burst");
  if ((rof.short ?? 0) >= WIDE_BURST_MIN_ROF) modes.push("wide_short_burst");
  if ((rof.long ?? 0) >= WIDE_BURST_MIN_ROF) modes.push("wide_long_burst");
  if (rof.short !== null) modes.push("suppressing_semi");
  if (rof.long !== null) modes.push("suppressing_full");
  if (rof.single || rof.short !== null || rof.long !== null) modes.push("overwatch");
  return modes;
}

/**
 * The overwatch order's modes this weapon can fire.
 * @param {{stats: Record<string, unknown>}} weapon
 * @returns {("single" | "short_burst" | "long_burst")[]}
 */
export function overwatchModes(weapon) {
  const rof = rofPositions(weapon.stats.rof);
  if (!rof || isThrown(weapon.stats)) return [];
  return OVERWATCH_MODES.filter((mode) => (mode === "single" ? rof.single : mode === "short_burst" ? rof.short !== null : rof.long !== null));
}

/**
 * The weapon's Rng in metres: its range, or Strength bonus × 3 for thrown weapons and grenades
 * (rules: `ranges.weapon_range`); null when unknown.
 * @param {{stats: Record<string, unknown>}} weapon
 * @param {Record<string, unknown>} [character]
 */
export function weaponRange(weapon, character = {}) {
  if (isThrown(weapon.stats) && typeof character.sb === "number") return character.sb * THROWN_RANGE_PER_SB;
  const range = weapon.stats.range;
  return typeof range === "number" && range > 0 ? range : null;
}

/**
 * How far a sector of fire reaches: extreme range (3 × Rng), beyond which the rules refuse a target;
 * no limit when the weapon's Rng is unknown.
 * @param {{stats: Record<string, unknown>}} weapon
 * @param {Record<string, unknown>} [character]
 */
export function sectorLength(weapon, character = {}) {
  const rng = weaponRange(weapon, character);
  return rng === null ? Infinity : rng * SECTOR_REACH_IN_RNG;
}

/**
 * The range band of a distance (rules: `ranges.band_of`): point blank within 2 m, then by multiples of
 * Rng; "beyond" past extreme range; null when it cannot be told (no Rng).
 * @param {number} metres
 * @param {number | null} rng
 * @returns {typeof BANDS[number] | "beyond" | null}
 */
export function bandOf(metres, rng) {
  if (!(metres >= 0)) return null;
  if (metres <= POINT_BLANK_METRES) return "point_blank";
  if (rng === null || !(rng > 0)) return null;
  for (const [band, multiple] of RANGE_BANDS) if (metres <= rng * multiple) return band;
  return "beyond";
}

/**
 * How many targets single-shot overwatch may fire at (rules: `overwatch.max_single_shots`): half the
 * BS bonus, rounded down, no more than the weapon's highest RoF, never fewer than one.
 * @param {number} bs
 * @param {number} highestRof
 */
export function maxOverwatchShots(bs, highestRof) {
  return Math.max(MIN_OVERWATCH_SHOTS, Math.min(Math.floor(Math.floor(bs / 10) / 2), highestRof));
}
