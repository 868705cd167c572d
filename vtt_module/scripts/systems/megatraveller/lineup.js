/**
 * The tokens one MegaTraveller attack lists, as the dialog lays them out: the primary target first
 * (the one the weapon is locked on, unless the player picks another), the other chosen targets, and in
 * automatic fire the bystanders caught in the danger space; each with its difficulty, DM, where stray
 * bullets fly on (rapid and burst fire), and its share of a burst.
 *
 * RCS: a mode takes so many chosen targets (single one, rapid and burst three, automatic up to the
 * weapon's Auto Tgts); bystanders are never counted; the primary is never a bystander. Roles the
 * player has not set follow from the mode: the user's targets are chosen in order up to the limit,
 * the rest are bystanders when they stand in the danger space of automatic fire and left out
 * otherwise; untargeted tokens found in the danger space are bystanders. Whatever the player sets
 * stands, and a choice the rules would refuse is said as a problem.
 *
 * Pure: positions and names come in; no Foundry globals.
 */

import { closerTokens, DANGER_SPACE, inDangerSpace } from "./danger-space.js";
import { DEFAULT_DIFFICULTY, DIFFICULTIES, MODE_RULES, burstSize, maxTargets } from "./modes.js";
import { defaultBulletSplit } from "./split.js";

/**
 * @typedef {import("./modes.js").FireMode} FireMode
 * @typedef {import("./danger-space.js").Spot} Spot
 * @typedef {import("./danger-space.js").DangerSpace} DangerSpace
 * @typedef {"target" | "bystander" | "out"} Role
 * @typedef {{id: string, name: string}} TokenRef
 * @typedef {{role?: Role | null, difficulty?: string, dm?: string, closer?: string | null, bullets?: string | null}} RowDraft
 *   what the player set on a row (null or missing: not set, the default applies)
 * @typedef {object} LineupRow
 * @property {string} id
 * @property {string} name
 * @property {boolean} targeted   the user targets it (else it was found in, or added to, the danger space)
 * @property {boolean} primary
 * @property {Role} role
 * @property {Role[]} roles        the roles it may take in this mode
 * @property {string} difficulty
 * @property {string} dm           as typed
 * @property {string} closer       the token strays fly on to ("" nobody); rapid and burst fire only
 * @property {TokenRef[]} closerOptions  the tokens nearer the shooter, nearest first
 * @property {string | null} bullets     its share of a burst, as typed or the default split
 * @typedef {object} Lineup
 * @property {LineupRow[]} rows    primary first, then chosen targets, bystanders, and those left out
 * @property {string | null} primary
 * @property {number} chosen        chosen targets (the primary included, bystanders not)
 * @property {number} max           the mode's limit on chosen targets
 * @property {TokenRef[]} addable   other tokens the player may add to the danger space
 * @property {{key: string, values: Record<string, unknown>} | null} problem
 */

/** Not a rule, a guard: the most tokens the dialog offers as the next in a line of fire. */
const CLOSER_OPTIONS = 20;

/**
 * @param {object} input
 * @param {FireMode} input.mode
 * @param {Record<string, unknown>} input.stats      the weapon's statistics
 * @param {Spot} input.shooter
 * @param {TokenRef[]} input.targeted               the user's targets, in the order targeted
 * @param {string | null} input.primary             the primary the player picked, if any
 * @param {string | null} input.lock                the weapon's target lock
 * @param {(TokenRef & Spot)[]} input.scene          every token on the scene (the shooter is skipped)
 * @param {Map<string, RowDraft>} input.drafts       what the player set, by token id
 * @param {string[]} input.added                    tokens the player added to the danger space
 * @param {DangerSpace} [input.space]
 * @returns {Lineup}
 */
export function lineup({ mode, stats, shooter, targeted, primary, lock, scene, drafts, added, space = DANGER_SPACE }) {
  const rule = MODE_RULES[mode];
  const max = maxTargets(mode, stats);
  const others = scene.filter((spot) => spot.id !== shooter.id);
  const spotOf = new Map(others.map((spot) => [spot.id, spot]));
  const aimed = targeted.filter((t) => t.id !== shooter.id);
  const roleOf = (/** @type {string} */ id) => drafts.get(id)?.role ?? null;
  const pickable = aimed.filter((t) => roleOf(t.id) !== "out" && roleOf(t.id) !== "bystander");
  const first =
    pickable.find((t) => t.id === primary) ?? pickable.find((t) => t.id === lock) ?? pickable[0] ?? null;
  const ordered = first ? [first, ...aimed.filter((t) => t.id !== first.id)] : aimed;

  /** @type {Map<string, Role>} */
  const roles = new Map();
  let slots = max;
  for (const token of ordered) {
    const set = roleOf(token.id);
    const valid = set === "out" || set === "target" || (set === "bystander" && rule.clustered && token !== first);
    if (token === first) roles.set(token.id, "target");
    else if (valid && set) roles.set(token.id, set);
    else continue;
    if (roles.get(token.id) === "target") slots -= 1;
  }
  for (const token of ordered) {
    if (roles.has(token.id) || slots <= 0) continue;
    roles.set(token.id, "target");
    slots -= 1;
  }
  const chosenSpots = ordered.filter((t) => roles.get(t.id) === "target").flatMap((t) => spotOf.get(t.id) ?? []);
  const danger = rule.clustered ? inDangerSpace(shooter, chosenSpots, others, space) : [];
  for (const token of ordered) {
    if (!roles.has(token.id)) roles.set(token.id, rule.clustered && danger.includes(token.id) ? "bystander" : "out");
  }

  /** @type {TokenRef[]} */
  const extras = [];
  if (rule.clustered) {
    const listed = new Set(ordered.map((t) => t.id));
    for (const id of [...danger, ...added]) {
      const spot = spotOf.get(id);
      if (!spot || listed.has(id)) continue;
      listed.add(id);
      extras.push({ id, name: spot.name });
      const set = roleOf(id);
      roles.set(id, set === "out" ? "out" : "bystander");
    }
  }

  const chosen = ordered.filter((t) => roles.get(t.id) === "target");
  const split = mode === "burst" && chosen.length > 1 ? defaultBulletSplit(burstSize(stats) ?? 0, chosen.length) : null;
  const typedBullets = chosen.every((t) => typeof drafts.get(t.id)?.bullets === "string");
  const rank = (/** @type {Role} */ role) => (role === "target" ? 0 : role === "bystander" ? 1 : 2);
  const rows = [...ordered, ...extras]
    .map((token) => {
      const role = /** @type {Role} */ (roles.get(token.id));
      const draft = drafts.get(token.id) ?? {};
      const targetedToken = aimed.some((t) => t.id === token.id);
      const spot = spotOf.get(token.id);
      const closerOptions = rule.strays && role === "target" && spot ? nearer(shooter, spot, others) : [];
      const line = rule.strays && spot ? closerTokens(shooter, spot, others, space) : [];
      const chosenIndex = chosen.findIndex((t) => t.id === token.id);
      /** @type {LineupRow} */
      const row = {
        id: token.id,
        name: token.name,
        targeted: targetedToken,
        primary: token === first,
        role,
        roles: token === first ? ["target"] : rolesFor(targetedToken, rule.clustered),
        difficulty: DIFFICULTIES.includes(/** @type {any} */ (draft.difficulty)) ? String(draft.difficulty) : DEFAULT_DIFFICULTY,
        dm: typeof draft.dm === "string" ? draft.dm : "0",
        closer:
          typeof draft.closer === "string" && (draft.closer === "" || closerOptions.some((o) => o.id === draft.closer))
            ? draft.closer
            : (line.find((id) => closerOptions.some((o) => o.id === id)) ?? ""),
        closerOptions,
        bullets: split && chosenIndex >= 0 ? (typedBullets ? String(draft.bullets) : String(split[chosenIndex])) : null,
      };
      return row;
    })
    .sort((a, b) => Number(b.primary) - Number(a.primary) || rank(a.role) - rank(b.role));

  const listed = new Set(rows.map((r) => r.id));
  const addable = rule.clustered ? others.filter((spot) => !listed.has(spot.id)).map(({ id, name }) => ({ id, name })) : [];
  /** @type {Lineup["problem"]} */
  let problem = null;
  if (chosen.length > max) problem = { key: "VOLLEY.MegaTraveller.Form.TooManyTargets", values: { mode, max, chosen: chosen.length } };
  return { rows, primary: first?.id ?? null, chosen: chosen.length, max, addable, problem };
}

/**
 * The roles a row may take: a targeted token may be a target, a bystander (automatic fire) or left
 * out; a token found in the danger space is a bystander or left out.
 * @param {boolean} targeted
 * @param {boolean} clustered
 * @returns {Role[]}
 */
function rolesFor(targeted, clustered) {
  if (!targeted) return ["bystander", "out"];
  return clustered ? ["target", "bystander", "out"] : ["target", "out"];
}

/**
 * The tokens nearer the shooter than `target` (candidates for its line of fire), nearest first.
 * @param {Spot} shooter
 * @param {Spot} target
 * @param {(TokenRef & Spot)[]} others
 * @returns {TokenRef[]}
 */
function nearer(shooter, target, others) {
  const reach = Math.hypot(target.x - shooter.x, target.y - shooter.y);
  return others
    .filter((spot) => spot.id !== target.id)
    .map((spot) => ({ spot, distance: Math.hypot(spot.x - shooter.x, spot.y - shooter.y) }))
    .filter(({ distance }) => distance < reach)
    .sort((a, b) => a.distance - b.distance)
    .slice(0, CLOSER_OPTIONS)
    .map(({ spot }) => ({ id: spot.id, name: spot.name }));
}

/**
 * The tokens the attack lists, as the choice carries them: primary first, bystanders marked, the
 * left-out ones dropped; the tokens strays fly on to, named so the referee's browser can find them.
 * @param {LineupRow[]} rows
 * @param {FireMode} mode
 * @returns {{targets: Record<string, unknown>[], tokens: string[], bullets: string[] | null}}
 */
export function choiceTargets(rows, mode) {
  const rule = MODE_RULES[mode];
  const listed = rows.filter((row) => row.role !== "out");
  const targets = listed.map((row) => {
    /** @type {Record<string, unknown>} */
    const entry = { id: row.id, difficulty: row.difficulty, dm: row.dm };
    if (row.role === "bystander") entry.bystander = true;
    if (rule.strays && row.closer) entry.closer = row.closer;
    return entry;
  });
  const tokens = rule.strays ? [...new Set(listed.flatMap((row) => (row.closer ? [row.closer] : [])))] : [];
  const bullets = listed.every((row) => row.bullets !== null) && listed.length > 1 ? listed.map((row) => String(row.bullets)) : null;
  return { targets, tokens, bullets };
}
