/**
 * Which browser talks to the bridge: the active GM with the lowest user id.
 *
 * Every client computes the same answer from the same user list, so exactly one GM connects and the
 * others stay quiet; when that GM leaves (or a GM with a lower id arrives) the election is run again on
 * the `userConnected` hook and the connection moves. Pure: the caller passes the users in.
 */

/**
 * @typedef {{id: string, active: boolean, isGM: boolean}} UserLike
 */

/**
 * @param {Iterable<UserLike>} users
 * @returns {UserLike | null} the elected GM, or null when no GM is connected
 */
export function electGm(users) {
  /** @type {UserLike | null} */
  let best = null;
  for (const user of users) {
    if (!user.active || !user.isGM) continue;
    if (best === null || user.id < best.id) best = user;
  }
  return best;
}

/**
 * @param {Iterable<UserLike>} users
 * @param {string} userId
 */
export function isElectedGm(users, userId) {
  return electGm(users)?.id === userId;
}
