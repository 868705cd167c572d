/**
 * The d100 weapon notation (seed 004, "Shooting" and "Jams and reliability"), for the profile editor.
 *
 * - RoF: three positions, single/short burst/long burst: "S/3/10", "S/2/-", "-/-/6". A dash means the
 *   weapon cannot fire that way. The rules refuse more than 100 in one burst (rules/d100/rof.py).
 * - Reliability: a number (-2..+2) or the property's name (Very Unreliable, Unreliable, Reliable,
 *   Very Reliable); several sources add up in the rules, the profile keeps one.
 *
 * Pure.
 */

const DASHES = new Set(["-", "\u2013", "\u2014", "\u2212"]);

/** The most a burst position may say (rules/d100/rof.py: MAX_ROF). */
export const MAX_ROF = 100;

/** The reliability properties the rules know, lower-case (rules/d100/tables.py). */
export const RELIABILITY_WORDS = Object.freeze(["very unreliable", "unreliable", "reliable", "very reliable"]);

/**
 * @param {string} text
 * @returns {{value: string} | {problem: import("../../i18n/format.js").Message}}
 */
export function parseD100Rof(text) {
  const parts = text.split("/").map((part) => part.trim());
  const problem = { problem: { key: "VOLLEY.D100.Notation.Rof", values: { text: text.trim().slice(0, 16) } } };
  if (parts.length !== 3) return problem;
  const [first, ...bursts] = parts;
  if (!(first?.toUpperCase() === "S" || DASHES.has(first ?? ""))) return problem;
  for (const part of bursts) {
    if (DASHES.has(part)) continue;
    if (!/^\d{1,3}$/.test(part) || Number(part) < 1 || Number(part) > MAX_ROF) return problem;
  }
  const normal = [first?.toUpperCase() === "S" ? "S" : "-", ...bursts.map((part) => (DASHES.has(part) ? "-" : String(Number(part))))];
  return { value: normal.join("/") };
}

/**
 * @param {string} text
 * @returns {{value: number | string} | {problem: import("../../i18n/format.js").Message}}
 */
export function parseReliability(text) {
  const t = text.trim().replace("\u2212", "-");
  if (/^[+-]?\d{1,2}$/.test(t)) {
    const n = Number(t);
    if (n >= -2 && n <= 2) return { value: n };
  }
  const word = t.replace(/[_-]/g, " ").replace(/\s+/g, " ").toLowerCase();
  const found = RELIABILITY_WORDS.find((known) => known === word);
  if (found) return { value: found.replace(/\b\w/g, (ch) => ch.toUpperCase()) };
  return { problem: { key: "VOLLEY.D100.Notation.Reliability", values: { text: t.slice(0, 20) } } };
}
