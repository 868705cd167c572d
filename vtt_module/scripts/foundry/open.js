/**
 * Opening Volley's windows: the attack dialog of the world's rule system for a token, and the profile
 * editor for an actor. One window per token or actor: opening it again brings it to the front.
 */

import { ProfileEditor } from "../profile/editor-dialog.js";
import { systemPlugin } from "../registry.js";
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
  // The system's own dialog class: its open windows are the common dialog's (a static set every system's
  // dialog inherits), so this layer needs no import of any system's code.
  const { default: Dialog } = await plugin.dialog();
  const open = [...(/** @type {any} */ (Dialog).openDialogs ?? [])].find((dialog) => dialog.token === token);
  if (open) {
    open.bringToFront();
    open.focusIn();
    return open;
  }
  const dialog = new Dialog({ token, plugin });
  await dialog.render({ force: true });
  return dialog;
}

/**
 * Load the world's attack dialog before anyone asks for it (in `ready`): its code and its templates,
 * so the first Fire of the session opens it as fast as the next (the first dialog fetched and compiled
 * its body template and imported its system's dialog code, ~0.3 to 1 s on a busy machine).
 */
export async function warmAttackDialog() {
  const plugin = systemPlugin(worldRuleSystem());
  if (!plugin?.dialog) return;
  try {
    const { default: Dialog } = await plugin.dialog();
    const parts = /** @type {Record<string, {template: string}>} */ (/** @type {any} */ (Dialog).PARTS ?? {});
    const paths = Object.values(parts).map((part) => part.template);
    await foundry.applications.handlebars.loadTemplates(paths);
    // Handlebars compiles a template when it is first used, not when it is loaded: used once here with
    // nothing, each is parsed now rather than on the first Fire (most of the first dialog's time).
    for (const path of paths) {
      const template = await foundry.applications.handlebars.getTemplate(path);
      try {
        template({});
      } catch {
        // Compiled all the same: an empty context may stop a helper, which is no matter here.
      }
    }
  } catch (error) {
    // Only a head start: the first Fire loads whatever is missing, and says what failed.
    console.warn("volley: the attack dialog could not be loaded ahead", error);
  }
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
  const id = ProfileEditor.idFor(actor);
  const open = [...ProfileEditor.openEditors].find((editor) => editor.id === id);
  if (open) {
    open.bringToFront();
    open.focusIn();
    return open;
  }
  const editable = game.user.isGM || (actor.isOwner && game.settings.get(MODULE_ID, "playersEditProfiles") === true);
  const editor = new ProfileEditor({ actor, plugin, editable });
  await editor.render({ force: true });
  return editor;
}
