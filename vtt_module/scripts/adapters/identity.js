/**
 * A weapon's identity (issue #31): the id the dialog, the hotbar and the cards name it by, and the key
 * its magazine is kept under in `flags.volley.adapterState`.
 *
 * Both are safe ids: letters, digits, `_` and `-`, at most 40 characters, never a raw name. Foundry's
 * update expands a key with a "." into nested objects (`expandObject`), so a key built from "Walther
 * PPK, .32 ACP" was written as `{"gurps:Walther PPK, ": {"32 ACP": {...}}}` and the rounds and the jam
 * read back as never counted; a "#" or ":" is no better in an element id or a profile's `current`.
 *
 * One magazine per physical weapon, whatever its modes: GURPS lists a weapon once per fire mode or
 * ammunition row (a phaser's Stun and Kill, a shotgun's buckshot and slug), each row a weapon the dialog
 * offers (their RoF and Rcl differ), all of them feeding from the one magazine (`weapon.magazine`).
 * Two rows with the same name and the same mode are two weapons (a character with two identical
 * pistols); the n-th row of a name and mode belongs to the n-th weapon of that name.
 *
 * Migration: ids before #31 were `gurps:<name> (<mode>)`, `twodsix:<item id>` and
 * `dark-heresy-2nd:<item id>` (a repeat with `#2`...). Each weapon lists those it went by (`legacyIds`);
 * its saved state is read from the first of them found when its own key has none (a dotted one is
 * followed down the objects Foundry made of it), and the next write puts it under the new key. The old
 * entries stay where they are and are never read again once the new key holds the weapon's state.
 * Cards, hotbar macros and undo records that name an old id find the weapon through `findWeapon`.
 *
 * Pure: no Foundry globals.
 */

/** What a safe id looks like (the profile's own weapon ids have the same shape). */
export const SAFE_ID = /^[A-Za-z0-9_-]{1,40}$/;

/** @param {unknown} value */
export function isSafeId(value) {
  return typeof value === "string" && SAFE_ID.test(value);
}

/**
 * A short, stable digest of a text (53-bit, base 36, 11 characters): the same name gives the same id
 * in every browser and every session.
 * @param {string} text
 */
export function digest(text) {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  const value = 4294967296 * (2097151 & h2) + (h1 >>> 0);
  return value.toString(36).padStart(11, "0");
}

/**
 * Make `id` unique among `taken` by appending -2, -3... (and remember it).
 * @param {Set<string>} taken
 * @param {string} id
 */
export function uniqueSafeId(taken, id) {
  let candidate = id;
  for (let n = 2; taken.has(candidate); n += 1) candidate = `${id}-${n}`;
  taken.add(candidate);
  return candidate;
}

/**
 * The ids of the GURPS weapons of one actor, row by row: `next(name, mode)` for each ranged attack in
 * the order GGA lists them. `name` is the weapon's imported name (it survives a rename of the attack).
 */
export class GurpsIdentities {
  /** How many rows of each name and mode were seen. @type {Map<string, number>} */
  #rows = new Map();
  /** Ids handed out. @type {Set<string>} */
  #taken = new Set();
  /** Legacy ids handed out (the old `uniqueId`'s "#2" numbering). @type {Set<string>} */
  #legacy = new Set();

  /**
   * @param {string} name the weapon's imported name
   * @param {string} mode the row's mode ("" for none)
   * @returns {{id: string, magazine: string, legacyIds: string[]}}
   */
  next(name, mode) {
    const rowKey = JSON.stringify([name, mode]);
    const nth = (this.#rows.get(rowKey) ?? 0) + 1;
    this.#rows.set(rowKey, nth);
    const base = `gurps-${digest(name)}`;
    const magazine = nth === 1 ? base : `${base}-${nth}`;
    const id = uniqueSafeId(this.#taken, mode === "" ? magazine : `${magazine}-m${digest(mode).slice(0, 6)}`);
    const legacyName = mode === "" ? name : `${name} (${mode})`;
    const legacyIds = [legacyUnique(this.#legacy, `gurps:${legacyName}`)];
    return { id, magazine, legacyIds };
  }
}

/**
 * The id of a weapon that is one item of the game system (Twodsix, DH2e): the system's short name and
 * the item's id, which Foundry makes of 16 letters and digits.
 * @param {Set<string>} taken ids handed out for this actor
 * @param {string} prefix `twodsix`, `dh2e`
 * @param {string} itemId
 * @param {string} legacyPrefix the pre-#31 prefix (`twodsix`, `dark-heresy-2nd`)
 * @param {Set<string>} legacyTaken legacy ids handed out for this actor
 * @returns {{id: string, legacyIds: string[]}}
 */
export function itemWeaponId(taken, prefix, itemId, legacyPrefix, legacyTaken) {
  const safe = String(itemId).replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 32) || `x${digest(String(itemId))}`;
  const id = uniqueSafeId(taken, `${prefix}-${safe}`);
  return { id, legacyIds: [legacyUnique(legacyTaken, `${legacyPrefix}:${itemId}`)] };
}

/**
 * The pre-#31 `uniqueId`: `id`, or `id#2`, `id#3`... when taken.
 * @param {Set<string>} taken
 * @param {string} id
 */
function legacyUnique(taken, id) {
  let candidate = id;
  for (let n = 2; taken.has(candidate); n += 1) candidate = `${id}#${n}`;
  taken.add(candidate);
  return candidate;
}

/**
 * The key a weapon's magazine and the state Volley keeps for it live under.
 * @param {{id: string, magazine?: string}} weapon
 */
export function magazineOf(weapon) {
  return typeof weapon.magazine === "string" && weapon.magazine ? weapon.magazine : weapon.id;
}

/**
 * @param {unknown} value
 * @returns {value is Record<string, any>}
 */
function isRecord(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The state saved for a weapon in `flags.volley.adapterState`: under its magazine's key, else under
 * the first id it went by before (a dotted one as Foundry expanded it), else nothing.
 * @param {unknown} overlay the actor's `flags.volley.adapterState`
 * @param {{id: string, magazine?: string, legacyIds?: string[]}} weapon
 * @returns {unknown}
 */
export function savedState(overlay, weapon) {
  if (!isRecord(overlay)) return undefined;
  const key = magazineOf(weapon);
  if (Object.hasOwn(overlay, key)) return overlay[key];
  for (const legacy of weapon.legacyIds ?? []) {
    const found = legacyEntry(overlay, legacy);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Fields a weapon's saved state may hold: a legacy path that ends on one of these went too deep. */
const STATE_FIELDS = new Set(["loaded", "jammed", "malfunction", "spoiled", "braced", "reserve", "readiness", "selector"]);

/**
 * An entry under an old id: the key itself, or the path Foundry's `expandObject` made of its dots.
 * @param {Record<string, any>} overlay
 * @param {string} id
 */
function legacyEntry(overlay, id) {
  if (Object.hasOwn(overlay, id)) return overlay[id];
  if (!id.includes(".")) return undefined;
  /** @type {any} */
  let node = overlay;
  for (const part of id.split(".")) {
    if (!isRecord(node) || !Object.hasOwn(node, part)) return undefined;
    node = node[part];
  }
  return isRecord(node) && Object.keys(node).some((key) => STATE_FIELDS.has(key)) ? node : undefined;
}

/**
 * A weapon by its id, or by an id it went by before (a card, a hotbar macro or an undo record written
 * before #31).
 * @template {{id: string, legacyIds?: string[]}} W
 * @param {W[]} weapons
 * @param {unknown} id
 * @returns {W | undefined}
 */
export function findWeapon(weapons, id) {
  if (typeof id !== "string" || !id) return undefined;
  return weapons.find((w) => w.id === id) ?? weapons.find((w) => (w.legacyIds ?? []).includes(id));
}
