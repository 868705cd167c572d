/**
 * What every system's profile says about a weapon's magazine: rounds loaded (`state.loaded`) out of
 * what it holds (`stats.capacity`: GURPS Shots, the RCS's magazine, seed 004's clip). No book lets a
 * weapon hold more rounds than its magazine takes, so the profile editor refuses it, beside the
 * rounds field, in each system alike.
 *
 * Pure: no Foundry globals.
 */

/**
 * The profile's check across fields: rounds loaded no more than the capacity (either one missing or
 * not yet a number is its own field's problem, not this one's).
 * @param {import("../../profile/types.js").VolleyWeapon} weapon
 * @returns {{field: string, problem: import("../../i18n/format.js").Message}[]}
 */
export function loadedWithinCapacity(weapon) {
  const { loaded } = weapon.state;
  const { capacity } = weapon.stats;
  if (typeof loaded === "number" && typeof capacity === "number" && loaded > capacity) {
    return [{ field: "state.loaded", problem: { key: "VOLLEY.Form.AtMost", values: { max: capacity } } }];
  }
  return [];
}
