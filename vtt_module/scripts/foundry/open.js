/**
 * Opening Volley's windows: the attack dialog of the world's rule system for a token, and the profile
 * editor for an actor. One window per token or actor: opening it again brings it to the front.
 */

import { ProfileEditor } from "../profile/editor.js";
import { systemPlugin } from "../systems/index.js";
import { MODULE_ID, worldRuleSystem } from "./settings.js";
import { t } from "./words.js";

/**
 * The attack dialog for a token the user owns, at the user's targets.
 * @param {TokenDocument} token
 */
export async function openAttackDialog(token) {
  if (!token.isOwner) {
    ui.notifications.warn(t("VOLLEY.Errors.NotOwner"));
    return null;
  }
  const plugin = systemPlugin(worldRuleSystem());
  if (!plugin) {
    ui.notifications.warn(t("VOLLEY.Errors.NoRuleSystem"));
    return null;
  }
  if (!plugin.dialog) {
    ui.notifications.warn(t("VOLLEY.Errors.NoDialogYet", { system: t(plugin.label) }));
    return null;
  }
  const { AttackDialog } = await import("../systems/common/attack-dialog.js");
  const open = [...AttackDialog.openDialogs].find((dialog) => dialog.token === token);
  if (open) {
    open.bringToFront();
    open.focusIn();
    return open;
  }
  const { default: Dialog } = await plugin.dialog();
  const dialog = new Dialog({ token, plugin });
  await dialog.render({ force: true });
  return dialog;
}

/**
 * The profile editor for an actor (its token's synthetic actor for an unlinked token).
 * @param {Actor} actor
 */
export async function openProfileEditor(actor) {
  const plugin = systemPlugin(worldRuleSystem());
  if (!plugin) {
    ui.notifications.warn(t("VOLLEY.Errors.NoRuleSystem"));
    return null;
  }
  const editable = game.user.isGM || (actor.isOwner && game.settings.get(MODULE_ID, "playersEditProfiles") === true);
  const editor = new ProfileEditor({ actor, plugin, editable });
  await editor.render({ force: true });
  return editor;
}
