/**
 * Sectors of fire on the map: who stands in a wedge that opens from the shooter, and where on the map a
 * scene's distances are in metres.
 *
 * Rules that fire into a sector (d100 suppressing fire and overwatch: a wedge of at most 45°) need the
 * tokens inside it; the dialog lists them for the player to edit, and the referee's browser measures the
 * distances the rules want. Everything here works on token centres in metres.
 *
 * Readings (named, so a table can see them):
 * - A token is in the sector when its **centre** is: no partial cover of a wedge by a token's footprint.
 * - Distances are straight lines between centres (Euclidean), whatever the grid's diagonal rule; a
 *   wedge is round, and bands of tens of metres do not move by a square's diagonal.
 * - Bearings follow Foundry's templates: 0° points east (right on the map), angles grow clockwise
 *   (y grows down the map), so 90° is south.
 *
 * - A facing a person gives (typed in the dialog's Facing field, or clicked on the map) is a whole
 *   degree, 0 to 359: the field and the sector it lists agree to the degree, and a click lands on the
 *   same sector as typing the number it shows.
 *
 * Pure: no Foundry globals.
 */

import { requireInt } from "./fields.js";

/** @typedef {{x: number, y: number}} Point */

/**
 * A wedge of fire: from `origin`, centred on `facing` (degrees), `arc` degrees wide in all (half on
 * each side), reaching `length` (metres; Infinity for no limit).
 * @typedef {{origin: Point, facing: number, arc: number, length: number}} Sector
 */

/**
 * @typedef {{id: string, centre: Point | null}} Placed
 * @typedef {{id: string, distance: number, bearing: number, off: number}} InSector
 *   `off`: degrees between the token and the sector's middle line
 */

/** Rounding slack, so a token exactly on an edge counts as inside. */
const EPSILON = 1e-9;

/**
 * Metres in one of a scene's distance units, or null for a unit Volley cannot turn into metres.
 * An empty or missing unit reads as metres (the d100 family measures in metres).
 * @param {unknown} units Foundry's `scene.grid.units` ("m", "ft"...)
 * @returns {number | null}
 */
export function metresPerUnit(units) {
  if (units !== undefined && units !== null && typeof units !== "string") return null;
  const unit = typeof units === "string" ? units.trim().toLowerCase().replace(/\.$/, "") : "";
  /** @type {Record<string, number>} */
  const known = {
    "": 1,
    m: 1,
    metre: 1,
    metres: 1,
    meter: 1,
    meters: 1,
    "м": 1,
    km: 1000,
    "км": 1000,
    ft: 0.3048,
    foot: 0.3048,
    feet: 0.3048,
    yd: 0.9144,
    yard: 0.9144,
    yards: 0.9144,
    mi: 1609.344,
    mile: 1609.344,
    miles: 1609.344,
  };
  return unit in known ? (known[unit] ?? null) : null;
}

/**
 * @param {Point} a
 * @param {Point} b
 */
export function distanceBetween(a, b) {
  return Math.hypot(b.x - a.x, b.y - a.y);
}

/**
 * The bearing from `from` to `to`: 0° east, clockwise, in [0, 360).
 * @param {Point} from
 * @param {Point} to
 */
export function bearing(from, to) {
  return normaliseDegrees((Math.atan2(to.y - from.y, to.x - from.x) * 180) / Math.PI);
}

/** @param {number} degrees */
export function normaliseDegrees(degrees) {
  const d = degrees % 360;
  const n = d < 0 ? d + 360 : d;
  return n >= 360 - EPSILON ? 0 : n;
}

/** The whole degrees a typed facing may take (0° east, clockwise). */
export const FACING_DEGREES = Object.freeze({ min: 0, max: 359 });

/**
 * A facing as a person typed it: a whole number of degrees from 0 to 359; anything else is refused
 * with a FormError naming `field` and the rule, and changes nothing.
 * @param {unknown} raw
 * @param {string} [field]
 * @returns {number}
 */
export function readFacing(raw, field = "facing") {
  return requireInt(raw, field, FACING_DEGREES);
}

/**
 * A facing picked on the map, to the whole degree (what the Facing field shows): 359.6° is 0°.
 * @param {number} degrees
 */
export function wholeDegrees(degrees) {
  return normaliseDegrees(Math.round(degrees));
}

/**
 * The smaller angle between two bearings, 0..180.
 * @param {number} a
 * @param {number} b
 */
export function angleBetween(a, b) {
  const d = Math.abs(normaliseDegrees(a) - normaliseDegrees(b));
  return d > 180 ? 360 - d : d;
}

/**
 * Whether a sector can be drawn: a finite origin and facing, an arc above 0 and at most 360, a length
 * above 0.
 * @param {Sector} sector
 */
export function isSector(sector) {
  return (
    Number.isFinite(sector?.origin?.x) &&
    Number.isFinite(sector?.origin?.y) &&
    Number.isFinite(sector.facing) &&
    Number.isFinite(sector.arc) &&
    sector.arc > 0 &&
    sector.arc <= 360 &&
    typeof sector.length === "number" &&
    sector.length > 0
  );
}

/**
 * The tokens whose centres lie in the sector, nearest first. A token on the origin itself (the
 * shooter) is never in its own sector; a token without a centre (off the map) is left out.
 * @param {Sector} sector
 * @param {Placed[]} tokens
 * @returns {InSector[]}
 */
export function tokensInSector(sector, tokens) {
  if (!isSector(sector)) return [];
  /** @type {InSector[]} */
  const inside = [];
  for (const token of tokens) {
    const centre = token.centre;
    if (!centre || !Number.isFinite(centre.x) || !Number.isFinite(centre.y)) continue;
    const distance = distanceBetween(sector.origin, centre);
    if (distance <= EPSILON || distance > sector.length + EPSILON) continue;
    const towards = bearing(sector.origin, centre);
    const off = angleBetween(towards, sector.facing);
    if (off > sector.arc / 2 + EPSILON) continue;
    inside.push({ id: token.id, distance, bearing: towards, off });
  }
  return inside.sort((a, b) => a.distance - b.distance || a.off - b.off || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * The sector's outline for drawing it: the origin, then points along the arc (at most every 5°), back
 * to the origin. A sector without a length limit is drawn to `reach`.
 * @param {Sector} sector
 * @param {number} [reach] how far to draw an unlimited sector
 * @returns {Point[]}
 */
export function sectorOutline(sector, reach = 1000) {
  if (!isSector(sector)) return [];
  const radius = Number.isFinite(sector.length) ? sector.length : reach;
  const steps = Math.max(2, Math.ceil(sector.arc / 5));
  const start = sector.facing - sector.arc / 2;
  /** @type {Point[]} */
  const points = [{ ...sector.origin }];
  for (let i = 0; i <= steps; i += 1) {
    const radians = ((start + (sector.arc * i) / steps) * Math.PI) / 180;
    points.push({ x: sector.origin.x + radius * Math.cos(radians), y: sector.origin.y + radius * Math.sin(radians) });
  }
  points.push({ ...sector.origin });
  return points;
}
