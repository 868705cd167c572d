/**
 * Who else the shots can reach, from where the tokens stand on the scene: the tokens in an automatic
 * weapon's danger space (RCS: Automatic-fire, "those caught in the danger space" get clusters too), and
 * the tokens nearer the shooter in a target's line of fire (RCS: Rapid-fire, bullets after a natural 2
 * fly on at closer targets, whatever their side).
 *
 * The seed names the danger space but gives it no shape. Our reading (docs/rules/megatraveller.md,
 * "The VTT module"): a corridor along each line of fire, from the shooter to each chosen target and on
 * past it, `DANGER_SPACE.halfWidth` grid squares either side of the line, ending
 * `DANGER_SPACE.beyond` squares past the target. A token whose centre lies inside is in the danger
 * space; one inside before the target is also nearer the shooter in that line of fire. The dialog lists
 * what this finds for the player to edit: the table's word wins.
 *
 * Positions are token centres in grid squares. Pure: no Foundry globals.
 */

/**
 * The danger space's size in grid squares: how far either side of a line of fire, and how far past
 * the target it reaches. A named default; pass another to the functions below to change it.
 */
export const DANGER_SPACE = Object.freeze({ halfWidth: 1, beyond: 2 });

/**
 * @typedef {{id: string, x: number, y: number}} Spot a token's centre, in grid squares
 * @typedef {{halfWidth: number, beyond: number}} DangerSpace
 */

/**
 * Where `spot` lies relative to the line of fire from `from` to `to`: how far along it (0 at the
 * shooter, the target's distance at the target) and how far off it.
 * @param {Spot} from
 * @param {Spot} to
 * @param {Spot} spot
 * @returns {{along: number, across: number, length: number}}
 */
export function onLineOfFire(from, to, spot) {
  const dx = to.x - from.x;
  const dy = to.y - from.y;
  const length = Math.hypot(dx, dy);
  const px = spot.x - from.x;
  const py = spot.y - from.y;
  if (length === 0) return { along: Math.hypot(px, py), across: Math.hypot(px, py), length };
  return { along: (px * dx + py * dy) / length, across: Math.abs(px * dy - py * dx) / length, length };
}

/**
 * The tokens nearer the shooter in the line of fire to `target`, nearest first (the target's `closer`).
 * @param {Spot} shooter
 * @param {Spot} target
 * @param {Spot[]} others every other token on the scene (the shooter and the target are skipped)
 * @param {DangerSpace} [space]
 * @returns {string[]}
 */
export function closerTokens(shooter, target, others, space = DANGER_SPACE) {
  return others
    .filter((spot) => spot.id !== shooter.id && spot.id !== target.id)
    .map((spot) => ({ spot, where: onLineOfFire(shooter, target, spot) }))
    .filter(({ where }) => where.along > 0 && where.along < where.length && where.across <= space.halfWidth)
    .sort((a, b) => a.where.along - b.where.along)
    .map(({ spot }) => spot.id);
}

/**
 * The tokens in the danger space of automatic fire at `targets`, not counting the targets themselves,
 * in the order they are nearest a line of fire.
 * @param {Spot} shooter
 * @param {Spot[]} targets the chosen targets
 * @param {Spot[]} others every other token on the scene
 * @param {DangerSpace} [space]
 * @returns {string[]}
 */
export function inDangerSpace(shooter, targets, others, space = DANGER_SPACE) {
  const chosen = new Set(targets.map((t) => t.id));
  /** @type {{id: string, across: number}[]} */
  const found = [];
  for (const spot of others) {
    if (spot.id === shooter.id || chosen.has(spot.id)) continue;
    let best = Infinity;
    for (const target of targets) {
      const where = onLineOfFire(shooter, target, spot);
      if (where.along > 0 && where.along <= where.length + space.beyond && where.across <= space.halfWidth) best = Math.min(best, where.across);
    }
    if (best < Infinity) found.push({ id: spot.id, across: best });
  }
  return found.sort((a, b) => a.across - b.across).map((f) => f.id);
}
