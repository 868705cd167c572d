/**
 * Standing orders that end when their holder's next turn begins, decided from a Combat's turn change.
 *
 * d100's overwatch (seed 004, "Караул") lets the shooter fire when the trigger is met at any moment
 * before the start of their next turn; so the order ends by itself when the turn order comes back to
 * them, not only when it is fired or lifted by hand. A rule system names such orders in its plug-in
 * (`standingOrders`: the token state key and the chat notice); this module decides, for one turn
 * change, which token's orders end. The glue (foundry/standing-orders.js) writes the answer.
 *
 * Volley's readings (docs/rules/d100.md, "Overwatch (Караул)"):
 * - a turn *begins* only when the turn order moves forward (a later turn, or a new round); a referee
 *   stepping back to correct a mistake starts no one's turn, so nothing ends then;
 * - a turn begins once: stepping back past a combatant and forward onto them again, in a round the
 *   combat has already reached, does not begin their turn a second time (the combat remembers whose
 *   turns have begun in its furthest round: `TurnsBegun`);
 * - the same combatant staying current in the same round (Foundry re-indexes the turn when initiative is
 *   rolled again) is not a new turn either;
 * - the start of combat is the start of every combatant's first turn: an order set before the fight
 *   ends when its holder first acts in it;
 * - outside combat there are no turns, so nothing ends: the referee lifts the order by hand.
 *
 * Exactly one browser writes (the one holding the bridge, which writes every other result), so the
 * order is lifted and announced once. Pure: no Foundry globals.
 */

/**
 * Foundry's `Combat.HistoryData`: where the turn order stands.
 * @typedef {{round: number | null, turn: number | null, tokenId: string | null, combatantId: string | null}} TurnState
 */

/**
 * Whose turns have begun in the furthest round a Combat has reached (kept in the Combat's flags). Every
 * turn of an earlier round has begun already.
 * @typedef {{round: number, combatants: string[]}} TurnsBegun
 */

/**
 * One kind of standing order a rule system ends at its holder's next turn.
 * @typedef {{state: string, notice: string}} StandingOrder
 *   `state`: the token's Volley state key that holds it (d100: `overwatch`); `notice`: the i18n key of
 *   the chat line saying it ended (filled with the token's `name`)
 */

/**
 * @param {unknown} value
 * @returns {number} the number, or -1 for "not started" (null, missing, not a number)
 */
function position(value) {
  return typeof value === "number" && Number.isFinite(value) ? value : -1;
}

/**
 * The token whose turn begins with this change, or null when none does.
 * @param {Partial<TurnState> | null | undefined} prior the turn state before the change
 * @param {Partial<TurnState> | null | undefined} current the turn state after it
 * @param {unknown} [begun] the Combat's `TurnsBegun` before the change (null: none recorded)
 * @returns {string | null}
 */
export function turnBeginsFor(prior, current, begun = null) {
  const tokenId = current?.tokenId;
  if (typeof tokenId !== "string" || !tokenId) return null;
  const round = position(current?.round);
  const turn = position(current?.turn);
  const priorRound = position(prior?.round);
  const priorTurn = position(prior?.turn);
  if (round < 1 || turn < 0) return null;
  if (round === priorRound && prior?.combatantId && prior.combatantId === current?.combatantId) return null;
  const forward = round > priorRound || (round === priorRound && turn > priorTurn);
  if (!forward) return null;
  return hasBegun(turnsBegun(begun), round, current?.combatantId) ? null : tokenId;
}

/**
 * Whether a combatant's turn in a round has begun already, by the Combat's record: every turn of a
 * round before the furthest one has, and in the furthest round those it lists.
 * @param {TurnsBegun | null} record
 * @param {number} round
 * @param {unknown} combatant
 */
function hasBegun(record, round, combatant) {
  if (!record) return false;
  return round < record.round || (round === record.round && record.combatants.includes(String(combatant)));
}

/** The most combatants a record keeps (a flag anyone could have edited stays small). */
const MAX_COMBATANTS = 500;

/**
 * A Combat's turns-begun record read defensively (anyone allowed to could have edited the flags).
 * @param {unknown} value
 * @returns {TurnsBegun | null}
 */
export function turnsBegun(value) {
  if (typeof value !== "object" || value === null) return null;
  const { round, combatants } = /** @type {{round?: unknown, combatants?: unknown}} */ (value);
  if (typeof round !== "number" || !Number.isInteger(round) || round < 1 || !Array.isArray(combatants)) return null;
  return { round, combatants: combatants.filter((id) => typeof id === "string").slice(0, MAX_COMBATANTS) };
}

/**
 * The record after a turn change: the current combatant's turn has begun (when the change reaches the
 * furthest round or a new one). Null when nothing changes, so the caller writes nothing. A combat
 * stepped back to round 0 and begun again remembers its first round (a new encounter is a new Combat,
 * with no record).
 * @param {unknown} begun the Combat's record before the change
 * @param {Partial<TurnState> | null | undefined} current the turn state after it
 * @returns {TurnsBegun | null}
 */
export function recordTurn(begun, current) {
  const round = position(current?.round);
  const combatant = current?.combatantId;
  const record = turnsBegun(begun);
  if (round < 1 || position(current?.turn) < 0 || typeof combatant !== "string" || !combatant) return null;
  if (hasBegun(record, round, combatant)) return null;
  if (!record || round > record.round) return { round, combatants: [combatant] };
  return { round, combatants: [...record.combatants, combatant].slice(-MAX_COMBATANTS) };
}

/**
 * Whether a state value is a standing order: what ends at the holder's turn, and what the token's
 * derived status shows (`updates.js`, `derivedStatuses`).
 * @param {unknown} value
 */
export function isStanding(value) {
  return value !== null && value !== undefined && value !== false;
}

/**
 * The orders that end with this turn change, and whose they are.
 * @param {object} change
 * @param {Partial<TurnState> | null | undefined} change.prior
 * @param {Partial<TurnState> | null | undefined} change.current
 * @param {unknown} [change.begun] the Combat's `TurnsBegun` before the change
 * @param {boolean} change.writer this browser writes the table's updates (it holds the bridge)
 * @param {boolean} change.enabled the world lets orders end at their holder's turn (the setting)
 * @param {readonly StandingOrder[]} change.orders what the world's rule system ends so
 * @param {(tokenId: string) => Record<string, unknown> | null} change.stateOf a token's Volley state, or
 *   null when the token is not in the world
 * @returns {{token: string, orders: StandingOrder[]} | null}
 */
export function ordersEnding({ prior, current, begun = null, writer, enabled, orders, stateOf }) {
  if (!writer || !enabled || orders.length === 0) return null;
  const token = turnBeginsFor(prior, current, begun);
  if (token === null) return null;
  const state = stateOf(token);
  if (!state) return null;
  const ending = orders.filter((order) => isStanding(state[order.state]));
  return ending.length > 0 ? { token, orders: ending } : null;
}
