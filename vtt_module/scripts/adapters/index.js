/**
 * Game-system adapters: read an actor's weapons and skills from the installed game system, and say how
 * rounds spent are written back to that system's own fields. Pure modules, no Foundry globals: each takes
 * the plain data of a document (`actor.toObject()`) and returns plain data (see ../profile/types.js).
 *
 * Stub until the adapters land (issue 11): no game system is recognised, so the Volley profile is used.
 */

/**
 * The adapter for a game system id (`game.system.id`), or null when Volley has none for it.
 * @param {string} _gameSystemId
 * @returns {import("../profile/types.js").GameSystemAdapter | null}
 */
export function adapterFor(_gameSystemId) {
  return null;
}
