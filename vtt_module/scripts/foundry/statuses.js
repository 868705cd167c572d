/**
 * The statuses Volley shows on tokens: suppressed, pinned, prone and overwatch (set by results), and
 * jammed (while one of the token's weapons is jammed).
 *
 * Some game systems rebuild `CONFIG.statusEffects` after modules have set up, dropping what a module
 * added; so the list is topped up at init, setup and ready, and a status is added on the spot rather
 * than refused if it is still missing when a result needs it. A status the world already defines
 * (core's `prone`, a system's own `suppressed`) is used as it is.
 */

/** @typedef {{id: string, name: string, img: string}} StatusDefinition */

/** @type {readonly StatusDefinition[]} */
export const VOLLEY_STATUSES = Object.freeze([
  { id: "suppressed", name: "VOLLEY.Statuses.suppressed", img: "icons/svg/downgrade.svg" },
  { id: "pinned", name: "VOLLEY.Statuses.pinned", img: "icons/svg/net.svg" },
  { id: "prone", name: "VOLLEY.Statuses.prone", img: "icons/svg/falling.svg" },
  { id: "overwatch", name: "VOLLEY.Statuses.overwatch", img: "icons/svg/eye.svg" },
  { id: "jammed", name: "VOLLEY.Statuses.jammed", img: "icons/svg/cancel.svg" },
]);

/** A status a result names that Volley has no picture for (another system's status id). */
const FALLBACK_IMG = "icons/svg/aura.svg";

/**
 * Add every Volley status the world lacks. Safe to call again and again.
 */
export function registerStatuses() {
  for (const status of VOLLEY_STATUSES) ensureStatus(status.id);
}

/**
 * Make sure `id` is a status the world knows, adding it if a game system dropped it.
 * @param {string} id
 */
export function ensureStatus(id) {
  const effects = /** @type {{id: string}[]} */ (/** @type {unknown} */ (CONFIG.statusEffects));
  if (effects.some((status) => status.id === id)) return;
  const known = VOLLEY_STATUSES.find((status) => status.id === id);
  effects.push({ ...(known ?? { id, name: `VOLLEY.Statuses.${id}`, img: FALLBACK_IMG }) });
}

/**
 * Switch a status on an actor explicitly (never a blind toggle), adding the status if it is missing.
 * @param {Actor | null | undefined} actor
 * @param {string} id
 * @param {boolean} active
 */
export async function setStatus(actor, id, active) {
  if (!actor) return;
  ensureStatus(id);
  if (Boolean(actor.statuses?.has(id)) === active) return;
  await actor.toggleStatusEffect(id, { active });
}
