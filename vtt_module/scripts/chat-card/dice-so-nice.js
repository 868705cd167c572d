/**
 * The bridge's own dice, in Dice So Nice's terms: the faces the rules rolled, shown in 3D in the order
 * they were rolled, before the card appears.
 *
 * Dice So Nice (read from its source: `module/Dice3D.js` `show`, `module/DiceNotation.js`, and its API
 * documentation `docs/src/content/docs/api/roll.md`) animates given results with
 * `game.dice3d.show(data, user, synchronize, whisper, blind)`, where `data` is
 * `{throws: [{dice: [{result, resultLabel, type, vectors, options}]}]}`. Each throw lands before the next
 * one starts, so one throw per step of the rules keeps their order: consecutive dice rolled for the same
 * purpose (the three dice of a 3d6 to-hit roll) fall together, the next purpose (the dodge) falls after.
 * A d100 is two dice, as Dice So Nice rolls it itself: a tens die (`d100`, result 0-9, "00" for 100) and a
 * units die (`d10`, result 0-9), both carrying `d100Result`.
 *
 * Dice So Nice has models for d2, d3, d4, d5, d6, d7, d8, d10, d12, d14, d16, d20, d24, d30 and d100. A
 * die of another size (the d-n the d100 rules roll to pick among n targets of suppressing fire) is not
 * shown; the card still lists it. A long volley is capped (`maxDice`, `maxDicePerThrow`), so a hundred
 * hit-location dice do not hold the table up; the first dice rolled are the ones shown.
 *
 * Pure: the result's `rolls` in, plain data out; no Foundry globals.
 */

/** Die sizes Dice So Nice has a model for (its DiceNotation's list). */
export const DICE_SO_NICE_FACES = Object.freeze([2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16, 20, 24, 30, 100]);

/** How much of a volley is animated; named so a table can change it. */
export const DICE_SO_NICE_DEFAULTS = Object.freeze({
  /** Dice animated in all (a d100 counts once); the rest are only on the card. */
  maxDice: 60,
  /** Dice in one throw; more dice for the same purpose fall in several throws, in order. */
  maxDicePerThrow: 20,
});

/**
 * @typedef {{die: number, face: number, for?: unknown}} BridgeRoll
 * @typedef {{type: string, result: number, resultLabel: string, vectors: never[], options: Record<string, unknown>, d100Result?: number}} DiceSoNiceDie
 * @typedef {{dice: DiceSoNiceDie[]}} DiceSoNiceThrow
 * @typedef {{throws: DiceSoNiceThrow[]}} DiceSoNiceData
 */

/**
 * The `data` argument of `game.dice3d.show` for a bridge result's `rolls`.
 * Entries that are not a die Volley could have rolled (wrong sizes, faces out of range) are skipped.
 * @param {unknown} rolls the result's `rolls`: `[{die, face, for}]`, in the order the rules rolled them
 * @param {{owner?: string} & Partial<typeof DICE_SO_NICE_DEFAULTS>} [options]
 *   `owner`: the user id whose dice appearance to use (the requester)
 * @returns {DiceSoNiceData}
 */
export function diceSoNiceData(rolls, options = {}) {
  const { owner, maxDice, maxDicePerThrow } = { ...DICE_SO_NICE_DEFAULTS, ...options };
  /** @type {DiceSoNiceThrow[]} */
  const throws = [];
  if (!Array.isArray(rolls)) return { throws };
  let shown = 0;
  let lastPurpose = null;
  let inThrow = 0;
  for (const roll of rolls) {
    if (shown >= maxDice) break;
    if (!isDie(roll) || !DICE_SO_NICE_FACES.includes(roll.die)) continue;
    const purpose = purposeKey(roll.for);
    if (throws.length === 0 || purpose !== lastPurpose || inThrow >= maxDicePerThrow) {
      throws.push({ dice: [] });
      lastPurpose = purpose;
      inThrow = 0;
    }
    throws[throws.length - 1].dice.push(...diceFor(roll, owner));
    inThrow += 1;
    shown += 1;
  }
  return { throws };
}

/**
 * @param {unknown} roll
 * @returns {roll is BridgeRoll}
 */
function isDie(roll) {
  if (typeof roll !== "object" || roll === null) return false;
  const { die, face } = /** @type {Record<string, unknown>} */ (roll);
  return Number.isSafeInteger(die) && Number.isSafeInteger(face) && /** @type {number} */ (face) >= 1 && /** @type {number} */ (face) <= /** @type {number} */ (die);
}

/**
 * Dice So Nice's dice for one of the bridge's dice: one die, or the tens and units dice of a d100.
 * @param {BridgeRoll} roll
 * @param {string | undefined} owner
 * @returns {DiceSoNiceDie[]}
 */
function diceFor(roll, owner) {
  const options = () => (owner === undefined ? {} : { owner });
  if (roll.die !== 100) {
    return [{ type: `d${roll.die}`, result: roll.face, resultLabel: String(roll.face), vectors: [], options: options() }];
  }
  const tens = Math.trunc(roll.face / 10);
  const units = roll.face % 10;
  return [
    { type: "d100", result: tens === 10 ? 0 : tens, resultLabel: String(tens * 10), d100Result: roll.face, vectors: [], options: options() },
    { type: "d10", result: units, resultLabel: String(units), d100Result: roll.face, vectors: [], options: options() },
  ];
}

/**
 * A comparable form of a roll's purpose: a plain string (older results) or a message `{key, values}`.
 * @param {unknown} purpose
 * @returns {string}
 */
function purposeKey(purpose) {
  try {
    return JSON.stringify(purpose ?? null, (_key, value) =>
      value !== null && typeof value === "object" && !Array.isArray(value)
        ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
        : value,
    );
  } catch {
    return String(purpose); // not JSON (a cycle): compare by its text
  }
}
