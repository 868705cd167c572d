/**
 * GURPS weapon notation as the Basic Set's weapon tables print it, for the profile editor.
 *
 * - RoF: a number of shots per turn ("13"), or shots × projectiles for a shotgun ("3x9"; "3×9" as
 *   printed is accepted and stored as "3x9").
 * - Rcl: recoil, 1 or more. Malf: the malfunction number, 17 for most guns ("ver." in the book), 19 or
 *   more meaning it never malfunctions (B407).
 * - Shots: rounds loaded now, and the capacity of a full magazine or belt.
 *
 * Pure.
 */

/** The malfunctions of B407 a weapon can be left with, and "destroyed" after a botched repair. */
export const GURPS_FAULTS = Object.freeze(["misfire", "stoppage", "mechanical", "destroyed"]);

/** Malf. when the book prints "ver." (and what a fresh profile starts with). */
export const DEFAULT_MALF = 17;

/**
 * @param {string} text the RoF as typed
 * @returns {{value: number | string} | {problem: import("../../i18n/format.js").Message}}
 */
export function parseRof(text) {
  const t = text.trim().replace(/[×X]/g, "x");
  const single = /^(\d{1,3})$/.exec(t);
  if (single) {
    const shots = Number(single[1]);
    return shots >= 1 ? { value: shots } : { problem: { key: "VOLLEY.Gurps.Notation.RofAtLeastOne" } };
  }
  const shotgun = /^(\d{1,3})x(\d{1,3})$/.exec(t);
  if (shotgun && Number(shotgun[1]) >= 1 && Number(shotgun[2]) >= 1) return { value: `${Number(shotgun[1])}x${Number(shotgun[2])}` };
  return { problem: { key: "VOLLEY.Gurps.Notation.Rof", values: { text: t.slice(0, 12) } } };
}

/**
 * Shots per turn a RoF allows (the first number of "3x9").
 * @param {unknown} rof
 */
export function rofShots(rof) {
  if (typeof rof === "number") return rof;
  const n = parseInt(String(rof ?? ""), 10);
  return Number.isFinite(n) && n > 0 ? n : 1;
}
