/**
 * Weapons on the hotbar, as Foundry systems put items there: a weapon dragged from the Fire dialog's
 * weapon picker or from the profile editor onto a hotbar slot becomes a script macro that opens the
 * attack dialog for that token with that weapon chosen (`api.openAttackDialog`). The drag carries
 * `{type: "VolleyWeapon", ...}` as JSON text, which Foundry's hotbar hands to the `hotbarDrop` hook;
 * Volley makes the macro there and returns false, so Foundry makes nothing else. The same button,
 * clicked (or pressed by keyboard), puts the macro in the first free slot.
 */

import { t } from "./words.js";

export const DRAG_TYPE = "VolleyWeapon";
const MACRO_ICON = "icons/svg/target.svg";

/**
 * What a dragged weapon carries: enough to find the token again (its id, else a token of the actor on
 * the scene being viewed) and the weapon by its id in the Volley profile.
 * @typedef {{type: "VolleyWeapon", tokenId: string | null, actorId: string | null, weaponId: string,
 *   name: string, img?: string}} WeaponDrop
 */

/**
 * @param {{tokenId: string | null, actorId: string | null, weaponId: string, tokenName: string, weaponName: string, img?: string | null}} what
 * @returns {WeaponDrop}
 */
export function weaponDrop({ tokenId, actorId, weaponId, tokenName, weaponName, img }) {
  /** @type {WeaponDrop} */
  const drop = { type: DRAG_TYPE, tokenId, actorId, weaponId, name: `${tokenName}: ${weaponName || weaponId}` };
  if (img) drop.img = img;
  return drop;
}

/**
 * @param {unknown} data
 * @returns {data is WeaponDrop}
 */
export function isWeaponDrop(data) {
  const d = /** @type {Record<string, unknown>} */ (data);
  return typeof data === "object" && data !== null && d.type === DRAG_TYPE && typeof d.weaponId === "string" && d.weaponId !== "";
}

/**
 * The macro's script: one call of the module API, so it keeps working across module upgrades.
 * @param {WeaponDrop} drop
 */
export function macroCommand(drop) {
  const who = JSON.stringify({ tokenId: drop.tokenId, actorId: drop.actorId });
  return `// Volley: open the attack dialog with this weapon chosen.\nawait game.modules.get("volley")?.api?.openAttackDialog(${who}, { weapon: ${JSON.stringify(drop.weaponId)} });`;
}

/**
 * Make (or find) the weapon's macro and put it in `slot` (the first free slot when none is given).
 * @param {WeaponDrop} drop
 * @param {number} [slot]
 * @returns {Promise<Macro | null>}
 */
export async function assignWeaponMacro(drop, slot) {
  const command = macroCommand(drop);
  const macros = /** @type {{find(fn: (macro: Macro) => boolean): Macro | undefined} | undefined} */ (/** @type {unknown} */ (game.macros));
  let macro = macros?.find((m) => m.name === drop.name && m.command === command && m.isOwner) ?? null;
  if (!macro) {
    const created = await Macro.create({
      name: drop.name,
      type: "script",
      img: drop.img || MACRO_ICON,
      command,
      flags: { volley: { weapon: { tokenId: drop.tokenId, actorId: drop.actorId, weaponId: drop.weaponId } } },
    });
    macro = created ?? null;
  }
  if (!macro) return null;
  await game.user.assignHotbarMacro(macro, slot);
  ui.notifications.info(t("VOLLEY.Hotbar.Added", { name: drop.name }));
  return macro;
}

/**
 * The `hotbarDrop` hook: a Volley weapon becomes its macro (and Foundry makes nothing else of it).
 * @param {unknown} _hotbar
 * @param {unknown} data
 * @param {number} slot
 * @returns {false | void}
 */
export function onHotbarDrop(_hotbar, data, slot) {
  if (!isWeaponDrop(data)) return;
  void assignWeaponMacro(data, slot).catch((error) => {
    console.error("volley: could not make the weapon's macro", error);
    ui.notifications.error(`Volley: ${error instanceof Error ? error.message : String(error)}`);
  });
  return false;
}

/**
 * Let `button` be dragged onto the hotbar (and clicked, for the first free slot) as `drop()` says.
 * @param {HTMLElement} button
 * @param {() => WeaponDrop | null} drop
 */
export function makeWeaponDraggable(button, drop) {
  button.draggable = true;
  button.addEventListener("dragstart", (event) => {
    const data = drop();
    if (!data || !event.dataTransfer) return;
    event.dataTransfer.setData("text/plain", JSON.stringify(data));
    event.dataTransfer.effectAllowed = "copy";
  });
}
