/**
 * The statuses Volley shows on tokens: suppressed, pinned, prone and overwatch (set by results), and
 * jammed (while one of the token's weapons is jammed).
 *
 * Some game systems rebuild `CONFIG.statusEffects` after modules have set up, dropping what a module
 * added, or replace it with an object of their own; so the list is topped up at init, setup and ready,
 * in whatever shape it has (`statusList`), and a status is added on the spot rather than refused if it
 * is still missing when a result needs it. A status the world already defines (core's `prone`, a
 * system's own `suppressed`) is used as it is.
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
 * Add every Volley status the world lacks. Safe to call again and again; never throws (a world whose
 * statuses cannot be added to is reported once, and results then skip the status, as `setStatus` says).
 */
export function registerStatuses() {
  for (const status of VOLLEY_STATUSES) {
    try {
      ensureStatus(status.id);
    } catch (error) {
      // A status list that throws when read (a system's own proxy): Volley starts without its statuses.
      if (!reported) console.warn("volley: could not add Volley's statuses to CONFIG.statusEffects", error);
      reported = true;
    }
  }
}

/**
 * The world's status list as Volley reads and extends it, whatever shape `CONFIG.statusEffects` has:
 * - Foundry v13: an array of `{id, name, img}` (push to it);
 * - Foundry v14: an object keyed by id ("changed from `StatusEffectConfig[]` to `{[id]: StatusEffectConfig}`
 *   with backwards compatibility", foundryvtt/foundryvtt#13122). Core keeps it as a Proxy around an
 *   array whose keys are the ids (foundry-vtt-types#3686), so `Array.isArray` is true for it: the
 *   generation (`game.release.generation`) tells the two apart, and v14 gets keyed access only;
 * - a plain object a game system put in its place (Twodsix 7.x with "reduce status icons":
 *   `Object.fromEntries(...)`; pf2e): keyed.
 * Anything else (a system set it to null) holds no statuses and takes none.
 * @returns {{find(id: string): {id: string} | null, add(status: StatusDefinition): boolean}}
 */
function statusList() {
  const effects = /** @type {unknown} */ (CONFIG.statusEffects);
  const keyed = !Array.isArray(effects) || Number(game.release?.generation ?? 13) >= 14;
  const table = typeof effects === "object" && effects !== null ? /** @type {Record<string, unknown>} */ (effects) : null;
  return {
    find(id) {
      if (!table) return null;
      const direct = keyed ? table[id] : undefined;
      if (isStatus(direct, id)) return direct;
      return /** @type {{id: string} | undefined} */ (Object.values(table).find((status) => isStatus(status, id))) ?? null;
    },
    add(status) {
      if (!table) return false;
      if (keyed) table[status.id] = { ...status };
      else /** @type {unknown[]} */ (/** @type {unknown} */ (table)).push({ ...status });
      return true;
    },
  };
}

/**
 * @param {unknown} value
 * @param {string} id
 * @returns {value is {id: string}}
 */
function isStatus(value, id) {
  return typeof value === "object" && value !== null && /** @type {{id?: unknown}} */ (value).id === id;
}

/** Whether the world's lack of a status list has been reported (once a session). */
let reported = false;

/**
 * Make sure `id` is a status the world knows, adding it if a game system dropped it. False when the
 * world has no status list Volley can add to (reported once).
 * @param {string} id
 */
export function ensureStatus(id) {
  const list = statusList();
  if (list.find(id)) return true;
  const known = VOLLEY_STATUSES.find((status) => status.id === id);
  if (list.add({ ...(known ?? { id, name: `VOLLEY.Statuses.${id}`, img: FALLBACK_IMG }) })) return true;
  if (!reported) {
    reported = true;
    console.warn(`volley: CONFIG.statusEffects (${typeof CONFIG.statusEffects}) takes no statuses; Volley's statuses are not shown`);
  }
  return false;
}

/**
 * Switch a status on an actor explicitly (never a blind toggle), adding the status if it is missing.
 * @param {Actor | null | undefined} actor
 * @param {string} id
 * @param {boolean} active
 */
export async function setStatus(actor, id, active) {
  if (!actor) return;
  if (!ensureStatus(id)) return;
  if (Boolean(actor.statuses?.has(id)) === active) return;
  await actor.toggleStatusEffect(id, { active });
}
