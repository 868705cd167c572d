/**
 * Volley's Foundry glue: hooks, settings, the bridge election and the relay wiring. Nothing here
 * knows a rule system; each lives in scripts/systems/<id>/ (registered in systems/index.js).
 *
 * - `init`: settings; Volley's statuses; the templates.
 * - `setup`, `ready`: the statuses again (a game system may have rebuilt CONFIG.statusEffects).
 * - `ready`: the relay and the bridge election; the connection when this browser holds the bridge.
 * - Combat turns: a standing order that ends at its holder's next turn (d100 overwatch) is lifted by
 *   the browser holding the bridge (foundry/standing-orders.js).
 * - Token HUD and actor sheet header: Fire and Volley weapons; each weapon row of the game system's own
 *   sheet: fire that weapon, or why Volley does not (foundry/sheet-controls.js). Chat: cards drawn in
 *   each reader's language, with Undo for game masters. Players list: the bridge's state.
 * - The module API (`game.modules.get("volley").api`, foundry/api.js), published at the end of `ready`, then
 *   `volley.ready` is called with it; the hooks other modules listen to are in foundry/attack-hooks.js.
 * - Hotbar: a Volley weapon dropped on it becomes a macro that opens the dialog (foundry/hotbar.js).
 * - Settings page: the bridge's and the module's versions side by side (versions.js).
 */

import "./systems/index.js";
import { moduleApi } from "./foundry/api.js";
import { onHotbarDrop } from "./foundry/hotbar.js";
import { showVersions } from "./versions.js";
import { AttackDialog } from "./systems/common/attack-dialog.js";
import { bridgeConnection, isHolder, onBridgeStatus, publishTokenFlag, sendRelayed, startBridge, syncConnection, userConnection } from "./foundry/bridge.js";
import { cardFlags, cardRecord, loadCardTemplate, rememberRevealed } from "./foundry/chat.js";
import { decorateChatMessage, focusWhenUndone, noteCreatedCard, retryReveals } from "./foundry/chat-render.js";
import { prepareAnnouncers } from "./foundry/live-regions.js";
import { addHudControls, addSheetButtons, addSheetControls, addStatusLine, announceBridge, refreshFireControls, refreshStatusLines } from "./foundry/controls.js";
import { findTokenDocument } from "./foundry/documents.js";
import { activeControl } from "./foundry/focus.js";
import { openAttackDialog, openProfileEditor, warmAttackDialog } from "./foundry/open.js";
import { decorateBooksNotice, watchBooks } from "./foundry/keeper.js";
import { referee, requestCancel, requestUndo } from "./foundry/referee.js";
import { migrateBridgeAddress, MODULE_ID, registerSettings } from "./foundry/settings.js";
import { registerSheetControls } from "./foundry/sheet-controls.js";
import { decorateNotice, onCombatTurnChange } from "./foundry/standing-orders.js";
import { registerStatuses } from "./foundry/statuses.js";
import { migrateOldSettings, registerTableRules, TABLE_RULES_TEMPLATE } from "./foundry/table-rules.js";
import { problemText, t } from "./foundry/words.js";
import { systemPlugin } from "./systems/index.js";
import { newRequestId } from "./protocol.js";

const TEMPLATES = [
  "modules/volley/templates/chat-card.hbs",
  "modules/volley/templates/attack/shooter.hbs",
  "modules/volley/templates/attack/preview.hbs",
  "modules/volley/templates/attack/footer.hbs",
  "modules/volley/templates/profile/editor.hbs",
  TABLE_RULES_TEMPLATE,
];

/** @type {import("./foundry/controls.js").Openers} */
const openers = { openAttack: openAttackDialog, openProfile: openProfileEditor };

let isReady = false;

Hooks.once("init", () => {
  registerSettings({
    onConnectionChange: () => {
      if (!isReady) return;
      void publishTokenFlag().then(() => syncConnection(true));
    },
    onRuleSystemChange: () => {
      for (const dialog of AttackDialog.openDialogs) void dialog.close();
      refreshFireControls();
      if (isReady) void warmAttackDialog();
    },
  });
  // A table rule changed: open dialogs ask for their odds again (and the MegaTraveller danger space).
  registerTableRules({ onChange: () => tokenChanged(() => true) });
  game.settings.register(MODULE_ID, "playersEditProfiles", {
    name: "VOLLEY.Settings.PlayersEdit.Name",
    hint: "VOLLEY.Settings.PlayersEdit.Hint",
    scope: "world",
    config: true,
    type: Boolean,
    default: false,
  });
  registerStatuses();
  void foundry.applications.handlebars.loadTemplates(TEMPLATES);
  // The chat log is drawn before `ready`: the card template starts loading now, and a card drawn
  // before it arrives waits for it (foundry/chat.js).
  void loadCardTemplate();
});

Hooks.once("setup", registerStatuses);

Hooks.once("ready", async () => {
  // Each step on its own: one that fails (a game system's odd status list, a setting another module
  // broke) is reported, and the others still run, so Volley always starts.
  await startUpStep("statuses", () => registerStatuses());
  await startUpStep("bridge address", () => migrateBridgeAddress());
  // Before the bridge: the browser that takes it must already hold its copies of Volley's flags (#31).
  await startUpStep("books", () => watchBooks());
  await startUpStep("bridge", () => startBridge(referee, ownsToken, maySeeToken));
  await startUpStep("settings", () => migrateOldSettings(game.settings.get(MODULE_ID, "overwatchEndsOnTurn")));
  isReady = true;
  await startUpStep("announcers", () => prepareAnnouncers());
  void warmAttackDialog();
  await startUpStep("status line", () => {
    onBridgeStatus((status) => {
      refreshFireControls();
      refreshStatusLines();
      announceBridge();
      if (status.state === "ready") retryReveals();
    });
  });
  await startUpStep("api", () => {
    const module = game.modules.get(MODULE_ID);
    if (!module) return;
    const api = moduleApi();
    module.api = api;
    Hooks.callAll("volley.ready", api);
  });
});

/**
 * Run one start-up step; a failure is logged and said once, and start-up goes on.
 * @param {string} step what the step does, for the report
 * @param {() => unknown} run
 */
async function startUpStep(step, run) {
  try {
    await run();
  } catch (error) {
    console.error(`volley: start-up step "${step}" failed`, error);
    ui.notifications?.error(t("VOLLEY.Errors.StartUpStep", { step, reason: error instanceof Error ? error.message : String(error) }));
  }
}

Hooks.on("hotbarDrop", (bar, data, slot) => onHotbarDrop(bar, data, slot));
Hooks.on("renderSettingsConfig", (_app, html) => {
  const welcome = isHolder() ? bridgeConnection()?.welcome : undefined;
  showVersions(html, {
    moduleVersion: String(game.modules.get(MODULE_ID)?.version ?? "?"),
    bridgeVersion: typeof welcome?.server_version === "string" ? welcome.server_version : null,
    t,
  });
});

Hooks.on("userConnected", (user, connected) => userConnection(String(user.id), Boolean(connected)));
Hooks.on("updateUser", (_user, changes) => {
  if (/** @type {any} */ (changes)?.flags?.[MODULE_ID] !== undefined || "role" in /** @type {object} */ (changes ?? {})) syncConnection();
});
Hooks.on("renderTokenHUD", (hud, html) => addHudControls(hud, html, openers));
Hooks.on("getHeaderControlsActorSheetV2", (sheet, controls) => addSheetControls(sheet, /** @type {unknown} */ (controls), openers));
Hooks.on("getActorSheetHeaderButtons", (sheet, buttons) => addSheetButtons(sheet, /** @type {unknown} */ (buttons), openers));
registerSheetControls();
Hooks.on("renderPlayers", (app, html) => addStatusLine(app, html));
Hooks.on("createChatMessage", (message) => noteCreatedCard(message));
Hooks.on("renderChatMessageHTML", (message, html) => {
  decorateChatMessage(message, html, undoFromCard, allocateFromCard, revealFromHolder, cancelFromCard);
  decorateNotice(message, html);
  decorateBooksNotice(message, html);
});
Hooks.on("combatTurnChange", (combat, prior, current) => void onCombatTurnChange(combat, prior, current));
Hooks.on("updateActor", (actor) => tokenChanged((dialog) => dialog.token.actor === actor));
Hooks.on("updateToken", (token) => tokenChanged((dialog) => dialog.token === token));
Hooks.on("targetToken", (user) => {
  if (user !== game.user) return;
  for (const dialog of AttackDialog.openDialogs) void dialog.targetsChanged();
});

/**
 * Rounds or a jam changed: the HUD and any dialog of that token follow.
 * @param {(dialog: AttackDialog) => boolean} matches
 */
function tokenChanged(matches) {
  refreshFireControls();
  for (const dialog of AttackDialog.openDialogs) if (matches(dialog)) void dialog.tokenChanged();
}

/** @param {string} userId @param {string} tokenId */
function ownsToken(userId, tokenId) {
  const user = game.users.get(userId);
  const doc = findTokenDocument(tokenId);
  return Boolean(user && doc && doc.testUserPermission(user, "OWNER"));
}

/**
 * Whether a user may name a token beside a shooter (relay.js): a GM any; a player one on the shooter's
 * scene that the GM has not hidden, as the player's own canvas shows it (foundry/documents.js
 * `placedTokens` leaves hidden tokens out for players too). A token that no longer exists is left to
 * the request builder, which skips it.
 * @param {string} userId
 * @param {string} shooterId
 * @param {string} tokenId
 */
function maySeeToken(userId, shooterId, tokenId) {
  if (game.users.get(userId)?.isGM) return true;
  const doc = findTokenDocument(tokenId);
  if (!doc) return true;
  const shooter = findTokenDocument(shooterId);
  return Boolean(shooter && doc.parent === shooter.parent && !doc.hidden);
}

/**
 * A game master clicked Undo on a card.
 * @param {import("./foundry/chat.js").CardMessage} message
 * @param {HTMLButtonElement} button
 */
async function undoFromCard(message, button) {
  button.disabled = true;
  if (message.id) focusWhenUndone(message.id);
  const reply = await requestUndo(message, sendRelayed);
  if (reply.type === "error") {
    button.disabled = false;
    if (!activeControl()) button.focus();
    ui.notifications.error(`Volley: ${problemText(reply)}`);
  }
}

/**
 * Ask the browser holding the bridge for a private card's secret part (relay.js `reveal`): it answers
 * this user alone, and only if they may read the card.
 * @param {import("./foundry/chat.js").CardMessage} message
 * @returns {Promise<Record<string, unknown> | null>}
 */
async function revealFromHolder(message) {
  const reply = await sendRelayed({ type: "reveal", id: newRequestId(), message: String(message.id) });
  const secret = /** @type {any} */ (reply).secret;
  return reply.type === "revealed" && secret && typeof secret === "object" ? secret : null;
}

/**
 * The player who fired (or a GM) clicked Cancel on a pending attack's card (#31): the attack is
 * cancelled through the holder, spending nothing, and its weapon is free again.
 * @param {import("./foundry/chat.js").CardMessage} message
 * @param {HTMLButtonElement} button
 */
async function cancelFromCard(message, button) {
  let flags = cardRecord(message);
  if (!flags && cardFlags(message)) {
    // A private card this browser cannot lift: the browser holding the bridge lifts it for its reader.
    const secret = await revealFromHolder(message);
    if (secret) rememberRevealed(message, secret);
    flags = cardRecord(message);
  }
  if (!flags || !flags.weapon) return;
  button.disabled = true;
  const reply = await requestCancel({ token: flags.token, weapon: flags.weapon, pending: flags.requestId }, sendRelayed);
  if (reply.type === "error") {
    button.disabled = false;
    ui.notifications.error(`Volley: ${problemText(reply)}`);
  }
}

/**
 * The player who fired (or a GM) clicked Allocate on a pending attack's card: open its system's
 * allocation step.
 * @param {import("./foundry/chat.js").CardMessage} message
 * @param {HTMLButtonElement} _button
 */
async function allocateFromCard(message, _button) {
  let flags = cardRecord(message);
  if (!flags && cardFlags(message)) {
    // A private card this browser cannot lift: the browser holding the bridge lifts it for its reader.
    const secret = await revealFromHolder(message);
    if (secret) rememberRevealed(message, secret);
    flags = cardRecord(message);
  }
  const plugin = flags ? systemPlugin(flags.system) : null;
  if (!flags || !plugin?.allocationDialog) {
    ui.notifications.warn(t("VOLLEY.Errors.NoAllocationStep"));
    return;
  }
  const { default: Step } = await plugin.allocationDialog();
  await Step.open({
    pendingId: flags.requestId,
    token: flags.token,
    weapon: flags.weapon,
    pool: flags.pending,
    result: flags.result,
    choice: /** @type {import("./registry.js").Choice} */ (flags.choice),
    messageId: message.id,
  });
}
