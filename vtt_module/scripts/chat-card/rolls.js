/**
 * The bridge's dice as Foundry `Roll`s, so a card is a roll message as core knows one.
 *
 * A chat message that holds rolls is what core's roll-mode rules are written for (v13 client
 * `ChatMessage#visible`: a whispered roll message is listed for everyone; `#isContentVisible`: its
 * content only for the whisper list, and for its author unless it is blind; a hidden roll is drawn as
 * "<author> rolled privately" with "???"), and what Dice So Nice animates, in each reader's own browser
 * with that reader's settings, when the message is created. The poster never waits for an animation.
 *
 * The rolls are plain data in `Roll#toJSON`'s shape (`{class, formula, terms, total, evaluated}`, each
 * die a `Die` term's JSON with its `results`): `ChatMessage.create({rolls})` stores each as JSON
 * (`BaseChatMessage` schema: `rolls` is an array of JSON fields) and every client rebuilds it with
 * `Roll.fromData`, so no Roll is evaluated here and no die is rolled twice. One roll per run of dice
 * rolled for one purpose with one size, in the order the rules rolled them (Dice So Nice throws a
 * message's rolls in order); capped like the animation (chat-card/dice-so-nice.js `maxDice`).
 *
 * Pure: the result's `rolls` in, plain data out.
 */

import { DICE_SO_NICE_DEFAULTS } from "./dice-so-nice.js";

/**
 * @typedef {{class: "Die", options: Record<string, unknown>, evaluated: true, number: number, faces: number,
 *   modifiers: string[], results: {result: number, active: true}[]}} DieData
 * @typedef {{class: "Roll", options: Record<string, unknown>, dice: never[], formula: string,
 *   terms: DieData[], total: number, evaluated: true}} RollData
 */

/**
 * @param {unknown} rolls the result's `rolls`: `[{die, face, for}]`
 * @param {{maxDice?: number}} [options]
 * @returns {RollData[]}
 */
export function rollsData(rolls, { maxDice = DICE_SO_NICE_DEFAULTS.maxDice } = {}) {
  /** @type {RollData[]} */
  const out = [];
  if (!Array.isArray(rolls)) return out;
  let shown = 0;
  let last = "";
  for (const roll of rolls) {
    if (shown >= maxDice) break;
    if (typeof roll !== "object" || roll === null) continue;
    const { die, face } = /** @type {Record<string, unknown>} */ (roll);
    if (!Number.isSafeInteger(die) || !Number.isSafeInteger(face)) continue;
    const faces = /** @type {number} */ (die);
    const result = /** @type {number} */ (face);
    if (faces < 2 || faces > 1000 || result < 1 || result > faces) continue;
    const group = `${faces}|${purposeKey(/** @type {any} */ (roll).for)}`;
    const current = out[out.length - 1];
    if (!current || group !== last) {
      out.push({
        class: "Roll",
        options: {},
        dice: [],
        formula: "",
        terms: [{ class: "Die", options: {}, evaluated: true, number: 0, faces, modifiers: [], results: [] }],
        total: 0,
        evaluated: true,
      });
      last = group;
    }
    const roll0 = out[out.length - 1];
    const term = roll0.terms[0];
    term.results.push({ result, active: true });
    term.number += 1;
    roll0.total += result;
    roll0.formula = `${term.number}d${faces}`;
    shown += 1;
  }
  return out;
}

/** @param {unknown} purpose */
function purposeKey(purpose) {
  try {
    return JSON.stringify(purpose ?? null);
  } catch {
    return String(purpose);
  }
}
