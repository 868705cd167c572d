/**
 * The module API, `game.modules.get("volley").api` (documented in vtt_module/README.md, "The module
 * API"; its types in scripts/api.d.ts). For macros and other modules:
 *
 * - `fire(token, options)`: resolves an attack exactly as the dialog's Fire does. The choice is the
 *   system's choice model (systems/<id>/choice.js, the one the dialog edits), filled in by `options`
 *   without any dialog, so it starts from what the dialog would show and passes its checks
 *   (foundry/choice.js); it then goes through the same door as the Fire button (`sendChoice`:
 *   `volley.preAttack`, the relay to the referee's browser, the bridge, the card). No dialog is drawn;
 * - `odds(token, options)`: the same preview the dialog charts;
 * - `openAttackDialog(token, options)`: the dialog itself, pre-filled;
 * - `undo(messageId)`: a game master takes a card back, as its Undo button does.
 *
 * A refusal rejects with a `VolleyApiError` whose message is the form's or the bridge's refusal in the
 * user's language.
 */

import { findWeapon } from "../adapters/identity.js";
import { ATTACK_RESOLVED, PRE_ATTACK, sendChoice, UNDONE } from "./attack-hooks.js";
import { bridgeConnection, bridgeOnline, sendRelayed } from "./bridge.js";
import { cardFor, chatMessage } from "./chat.js";
import { arsenalOf, findTokenDocument } from "./documents.js";
import { openAttackDialog as openDialogWindow, openProfileEditor } from "./open.js";
import { requestUndo } from "./referee.js";
import { MODULE_ID, userMessageMode, worldRuleSystem } from "./settings.js";
import { problemText, t } from "./words.js";
import { assignWeaponMacro, weaponDrop } from "./hotbar.js";
import { newRequestId } from "../protocol.js";
import { requestKey } from "../relay.js";
import { systemPlugin } from "../registry.js";
import { messageMode } from "../chat-card/roll-mode.js";
import { isInput, isSelect, isTextArea } from "./window-dom.js";
import { actionProblem, choiceFacts, choiceTargets, refusalOf } from "./choice.js";

/**
 * The API's own version (semver): minor for additions, major for anything a macro would notice.
 * Separate from the module's version, which follows the bridge.
 */
export const API_VERSION = "1.0.0";

/** How long `fire` waits for the card to reach this browser after the referee answered (ms). */
const CARD_WAIT_MS = 10_000;

/**
 * @typedef {import("../registry.js").AttackDialogView} AttackDialog
 * @typedef {import("../registry.js").TargetRef} TargetRef
 * @typedef {import("../registry.js").Choice} Choice
 * @typedef {import("../protocol.js").BridgeMessage} BridgeMessage
 * @typedef {TokenDocument | {document: TokenDocument} | string | {tokenId?: string | null, actorId?: string | null} | null | undefined} TokenRef
 * @typedef {TokenRef | {token: TokenRef, shots?: number, modifier?: number, dodges?: boolean}} TargetOption
 * @typedef {object} AttackOptions
 * @property {string} [weapon]    the weapon's id or name in the token's Volley profile (default: its current weapon)
 * @property {string} [action]    the dialog's action (default: its Fire; `reload`, `unjam`... for the others)
 * @property {TargetOption[]} [targets]  default: the user's targeted tokens
 * @property {string} [mode]      the dialog's Mode (d100, MegaTraveller)
 * @property {number | number[]} [shots]  shots at each target, in order (a number: at the first)
 * @property {number} [modifier]  the situational modifier (the dialog's Modifier field)
 * @property {Record<string, string | number | boolean>} [fields]  any named field of the system's dialog
 * @property {string} [rollMode]  who may read the card: v14's `public`, `gm`, `blind`, `self`, `ic` or v13's
 *   `publicroll`, `gmroll`, `blindroll`, `selfroll`; `roll` or absent: the user's own mode
 * @property {string} [messageMode]  the same as `rollMode` (v14's name for it); `rollMode` wins if both are given
 */

/** A refusal: the form's, the bridge's, or a `volley.preAttack` handler's, in the user's language. */
export class VolleyApiError extends Error {
  /**
   * @param {string} message
   * @param {{code?: string, reply?: unknown}} [detail]
   */
  constructor(message, { code = "refused", reply = null } = {}) {
    super(message);
    this.name = "VolleyApiError";
    this.code = code;
    this.reply = reply;
  }
}

/**
 * The token a reference names: a TokenDocument, a Token on the canvas, a token id, `{tokenId, actorId}`
 * (a hotbar macro's: the token, else a token of that actor on the scene being viewed), or nothing (the
 * user's one controlled token).
 * @param {TokenRef} ref
 * @returns {TokenDocument}
 */
export function tokenOf(ref) {
  /** @type {any} */
  const r = ref;
  if (r && typeof r === "object" && r.documentName === "Token") return r;
  if (r && typeof r === "object" && r.document?.documentName === "Token") return r.document;
  if (typeof r === "string" && r) {
    const doc = findTokenDocument(r);
    if (doc) return doc;
    throw new VolleyApiError(t("VOLLEY.Api.NoToken", { token: r }), { code: "no_token" });
  }
  if (r && typeof r === "object" && ("tokenId" in r || "actorId" in r)) {
    const doc = (r.tokenId ? findTokenDocument(String(r.tokenId)) : null) ?? sceneTokenOfActor(r.actorId);
    if (doc) return doc;
    throw new VolleyApiError(t("VOLLEY.Api.NoToken", { token: String(r.tokenId ?? r.actorId ?? "") }), { code: "no_token" });
  }
  if (r === null || r === undefined) {
    const controlled = /** @type {any} */ (canvas)?.tokens?.controlled ?? [];
    if (controlled.length === 1) return controlled[0].document;
    throw new VolleyApiError(t("VOLLEY.Api.ControlOne"), { code: "no_token" });
  }
  throw new VolleyApiError(t("VOLLEY.Api.NoToken", { token: String(r) }), { code: "no_token" });
}

/** @param {unknown} actorId */
function sceneTokenOfActor(actorId) {
  if (typeof actorId !== "string" || !actorId) return null;
  const tokens = /** @type {any} */ (canvas)?.scene?.tokens?.contents ?? [];
  return tokens.find((/** @type {any} */ doc) => doc.actorId === actorId || doc.actor?.id === actorId) ?? null;
}

/**
 * @param {TargetOption[]} targets
 * @returns {{refs: TargetRef[], rows: {shots?: number, modifier?: number, dodges?: boolean}[]}}
 */
function targetsOf(targets) {
  if (!Array.isArray(targets)) throw new VolleyApiError(t("VOLLEY.Api.BadOption", { option: "targets" }), { code: "bad_option" });
  const refs = [];
  const rows = [];
  for (const entry of targets) {
    /** @type {any} */
    const e = entry;
    const withFields = e && typeof e === "object" && "token" in e && !("documentName" in e);
    const doc = tokenOf(withFields ? e.token : e);
    refs.push({ id: String(doc.id), name: doc.name ?? String(doc.id) });
    rows.push(withFields ? { shots: e.shots, modifier: e.modifier, dodges: e.dodges } : {});
  }
  return { refs, rows };
}

/**
 * The weapon's id from its id or name (names without regard to case), or null for the current one.
 * @param {TokenDocument} token
 * @param {string} pluginId
 * @param {unknown} wanted
 */
function weaponIdOf(token, pluginId, wanted) {
  if (wanted === undefined || wanted === null || wanted === "") return null;
  const weapons = arsenalOf(token, pluginId).weapons;
  const text = String(wanted);
  const found = findWeapon(weapons, text) ?? weapons.find((w) => (w.name ?? "").toLocaleLowerCase() === text.toLocaleLowerCase());
  if (!found) {
    const names = weapons.map((w) => w.name || w.id).join(", ") || "—";
    throw new VolleyApiError(t("VOLLEY.Api.NoWeapon", { weapon: text, name: token.name ?? "", weapons: names }), { code: "no_weapon" });
  }
  return found.id;
}

/**
 * Set one of the dialog's fields as a user would, and wait for any re-render it causes.
 * @param {AttackDialog} dialog
 * @param {string} name
 * @param {unknown} value
 */
async function setField(dialog, name, value) {
  const root = /** @type {HTMLElement} */ (dialog.element);
  const field = root.querySelector(`[name="${CSS.escape(name)}"]`);
  if (!(isInput(field) || isSelect(field) || isTextArea(field))) {
    const names = [...new Set([...root.querySelectorAll("[name]")].map((el) => el.getAttribute("name")))].filter((n) => n && n !== "weapon");
    throw new VolleyApiError(t("VOLLEY.Api.NoField", { field: name, fields: names.join(", ") || "—" }), { code: "bad_option" });
  }
  if (isSelect(field)) {
    const options = [...field.options].map((option) => option.value);
    if (!options.includes(String(value))) {
      throw new VolleyApiError(t("VOLLEY.Api.NoChoice", { field: name, value: String(value), choices: options.join(", ") }), { code: "bad_option" });
    }
    field.value = String(value);
  } else if (isInput(field) && field.type === "checkbox") {
    field.checked = value === true || value === "on" || value === "true";
  } else {
    field.value = String(value);
    // A number field takes only a number: the browser empties it for anything else ("abc"), and an
    // empty field would read as its default. Refused here, naming the field, before anything is sent.
    if (isInput(field) && field.type === "number" && field.value !== String(value).trim()) {
      const label = dialog.controlLabel(name) ?? name;
      throw new VolleyApiError(`${label}: ${t("VOLLEY.Form.WholeNumber", { value: String(value).slice(0, 20) })}`, { code: "bad_option" });
    }
  }
  field.dispatchEvent(new Event("input", { bubbles: true }));
  field.dispatchEvent(new Event("change", { bubbles: true }));
  await dialog.whenSettled();
}

/**
 * Fill a rendered dialog from the options: the mode first (it reshapes the form), then each target's
 * numbers, the modifier and any named fields.
 * @param {AttackDialog} dialog
 * @param {AttackOptions} options
 * @param {{shots?: number, modifier?: number, dodges?: boolean}[]} rows
 */
async function fill(dialog, options, rows) {
  if (options.mode !== undefined) await setField(dialog, "mode", options.mode);
  const shots = options.shots;
  if (typeof shots === "number") await setField(dialog, "targets.0.shots", shots);
  else if (Array.isArray(shots)) for (const [index, n] of shots.entries()) await setField(dialog, `targets.${index}.shots`, n);
  for (const [index, row] of rows.entries()) {
    if (row.shots !== undefined) await setField(dialog, `targets.${index}.shots`, row.shots);
    if (row.modifier !== undefined) await setField(dialog, `targets.${index}.modifier`, row.modifier);
    if (row.dodges !== undefined) await setField(dialog, `targets.${index}.dodges`, row.dodges);
  }
  if (options.modifier !== undefined) await setField(dialog, "modifier", options.modifier);
  for (const [name, value] of Object.entries(options.fields ?? {})) await setField(dialog, name, value);
}

/**
 * Fill a choice model from the options, in the dialog's order: the mode first (it reshapes the form),
 * then each target's numbers, the modifier and any named fields.
 * @param {import("../registry.js").ChoiceModelView} model
 * @param {AttackOptions} options
 * @param {{shots?: number, modifier?: number, dodges?: boolean}[]} rows
 */
function fillModel(model, options, rows) {
  /** @type {[string, unknown][]} */
  const edits = [];
  if (options.mode !== undefined) edits.push(["mode", options.mode]);
  const shots = options.shots;
  if (typeof shots === "number") edits.push(["targets.0.shots", shots]);
  else if (Array.isArray(shots)) for (const [index, n] of shots.entries()) edits.push([`targets.${index}.shots`, n]);
  for (const [index, row] of rows.entries()) {
    if (row.shots !== undefined) edits.push([`targets.${index}.shots`, row.shots]);
    if (row.modifier !== undefined) edits.push([`targets.${index}.modifier`, row.modifier]);
    if (row.dodges !== undefined) edits.push([`targets.${index}.dodges`, row.dodges]);
  }
  if (options.modifier !== undefined) edits.push(["modifier", options.modifier]);
  for (const [name, value] of Object.entries(options.fields ?? {})) edits.push([name, value]);
  for (const [name, value] of edits) {
    try {
      model.set(name, value);
    } catch (error) {
      throw new VolleyApiError(refusalOf(model, error, problemText), { code: "bad_option" });
    }
  }
}

/**
 * The token's choice as its system's model, filled from the options.
 * @param {TokenRef} tokenRef
 * @param {AttackOptions} options
 */
async function modelChoice(tokenRef, options) {
  if (options !== undefined && (typeof options !== "object" || options === null)) {
    throw new VolleyApiError(t("VOLLEY.Api.BadOption", { option: "options" }), { code: "bad_option" });
  }
  const token = tokenOf(tokenRef);
  const plugin = pluginFor(token);
  if (!plugin.choice) throw new VolleyApiError(t("VOLLEY.Errors.NoDialogYet", { system: t(plugin.label) }), { code: "no_dialog" });
  const weaponId = weaponIdOf(token, plugin.id, options.weapon);
  const targets = options.targets === undefined ? null : targetsOf(options.targets);
  const model = plugin.choice(choiceFacts(token, plugin, weaponId, choiceTargets(token, targets?.refs ?? null)));
  fillModel(model, options, targets?.rows ?? []);
  return { token, plugin, model };
}

/**
 * The choice a model gives for `action`, as the dialog's button would send it.
 * @param {{token: TokenDocument, plugin: import("../registry.js").RuleSystemPlugin, model: import("../registry.js").ChoiceModelView}} filled
 * @param {string} action
 * @param {AttackOptions} options
 * @param {{checkButton: boolean}} how
 * @returns {Choice}
 */
function modelChoiceOf({ token, plugin, model }, action, options, { checkButton }) {
  const blocked = checkButton ? actionProblem(model, token, plugin, action) : null;
  if (blocked) throw new VolleyApiError(blocked, { code: "blocked" });
  /** @type {Choice} */
  let choice;
  try {
    choice = /** @type {Choice} */ (/** @type {unknown} */ ({ ...model.toRequest(action), rollMode: userMessageMode() }));
  } catch (error) {
    throw new VolleyApiError(refusalOf(model, error, problemText), { code: "form", reply: error });
  }
  return withRollMode(choice, options);
}

/**
 * The choice with who may read the card as the options ask.
 * @param {Choice} choice
 * @param {AttackOptions} options
 */
function withRollMode(choice, options) {
  const asked = options.rollMode ?? options.messageMode;
  // "roll" is core's "the user's current mode": read it here, in the user's own client.
  if (asked !== undefined && asked !== null && asked !== "") choice.rollMode = asked === "roll" ? userMessageMode() : messageMode(asked);
  return choice;
}

/**
 * The world's rule system, for a token the user owns, when it has a choice model.
 * @param {TokenDocument} token
 */
function pluginFor(token) {
  if (!token.isOwner) throw new VolleyApiError(t("VOLLEY.Errors.NotOwner"), { code: "not_owner" });
  const plugin = systemPlugin(worldRuleSystem());
  if (!plugin) throw new VolleyApiError(t("VOLLEY.Errors.NoRuleSystem"), { code: "no_system" });
  if (!plugin.choice) throw new VolleyApiError(t("VOLLEY.Errors.NoDialogYet", { system: t(plugin.label) }), { code: "no_dialog" });
  return plugin;
}

/**
 * The card of a request, once it reaches this browser (the referee's browser posts it).
 * @param {string} requestId
 * @returns {Promise<ChatMessage | null>}
 */
function cardOf(requestId) {
  const found = cardFor(requestId);
  if (found) return Promise.resolve(/** @type {any} */ (found));
  return new Promise((resolve) => {
    /** @type {number} */
    let hook = 0;
    const timer = setTimeout(() => {
      Hooks.off("createChatMessage", hook);
      resolve(/** @type {any} */ (cardFor(requestId)));
    }, CARD_WAIT_MS);
    hook = Hooks.on("createChatMessage", (/** @type {any} */ message) => {
      if (message?.flags?.[MODULE_ID]?.requestId !== requestId) return;
      clearTimeout(timer);
      Hooks.off("createChatMessage", hook);
      resolve(message);
    });
  });
}

/**
 * Resolve an attack (or another of the dialog's actions) from the token's Volley profile.
 * @param {TokenRef} token
 * @param {AttackOptions} [options]
 * @returns {Promise<import("../volley-api").VolleyFireResult>}
 */
export async function fire(token, options = {}) {
  const action = options.action ?? "attack";
  const filled = await modelChoice(token, options);
  const choice = modelChoiceOf(filled, action, options, { checkButton: true });
  const { token: doc, plugin } = filled;
  const type = plugin.previewActions.includes(action) ? "attack" : "action";
  const reply = await sendChoice(type, choice, { token: doc, source: "api" });
  if (reply.type === "error") {
    const text = problemText(reply);
    // A cancelled shot is the user's news too: the dialog says it in its footer, a macro here.
    if (reply.code === "cancelled") ui.notifications.warn(`Volley: ${text}`);
    throw new VolleyApiError(text, { code: String(reply.code ?? "refused"), reply });
  }
  // The card is kept under the bridge's key of this user's request (relay.js requestKey, #17).
  const message = await cardOf(requestKey(String(game.user.id), String(reply.id)));
  /** @param {unknown} value */
  const record = (value) => (typeof value === "object" && value !== null ? /** @type {Record<string, unknown>} */ (value) : null);
  return {
    id: String(reply.id),
    type: reply.type,
    result: record(reply.result),
    pending: record(reply.pending),
    card: record(reply.card),
    updates: Array.isArray(reply.updates) ? reply.updates : [],
    message,
    choice,
  };
}

/**
 * The exact odds of the attack the options describe: what the dialog's preview charts.
 * @param {TokenRef} token
 * @param {AttackOptions} [options]
 * @returns {Promise<import("../volley-api").VolleyOdds>}
 */
export async function odds(token, options = {}) {
  const filled = await modelChoice(token, options);
  const action = options.action ?? filled.model.previewAction();
  if (!action) throw new VolleyApiError(t("VOLLEY.Form.NoOdds"), { code: "no_odds" });
  const choice = modelChoiceOf(filled, action, options, { checkButton: false });
  if (!bridgeOnline()) throw new VolleyApiError(t("VOLLEY.Dialog.Offline"), { code: "offline" });
  const reply = await sendRelayed({ type: "odds", id: newRequestId(), choice });
  if (reply.type !== "odds") throw new VolleyApiError(problemText(reply), { code: String(reply.code ?? "refused"), reply });
  return /** @type {import("../volley-api").VolleyOdds} */ (reply.odds);
}

/**
 * Open the token's attack dialog, pre-filled (the weapon, the targets, the mode, fields).
 * @param {TokenRef} token
 * @param {AttackOptions} [options]
 */
export async function openAttackDialog(token, options = {}) {
  const doc = tokenOf(token);
  const plugin = systemPlugin(worldRuleSystem());
  const weaponId = plugin ? weaponIdOf(doc, plugin.id, options.weapon) : null;
  const dialog = /** @type {AttackDialog | null} */ (/** @type {unknown} */ (await openDialogWindow(doc)));
  if (!dialog) return null;
  const targets = options.targets === undefined ? null : targetsOf(options.targets);
  if (targets) dialog.fixedTargets = targets.refs;
  if (weaponId && weaponId !== dialog.weaponId) await setField(dialog, "weapon", weaponId);
  else if (targets) await dialog.targetsChanged();
  await fill(dialog, options, targets?.rows ?? []);
  dialog.refreshPreview();
  return dialog;
}

/**
 * Take a card back (a game master only), as its Undo button does.
 * @param {string} messageId the chat message of the card
 */
export async function undo(messageId) {
  if (!game.user.isGM) throw new VolleyApiError(t("VOLLEY.Api.GmOnly"), { code: "not_gm" });
  const message = chatMessage(String(messageId));
  if (!message) throw new VolleyApiError(t("VOLLEY.Form.NothingToUndo"), { code: "no_message" });
  const reply = await requestUndo(message, sendRelayed);
  if (reply.type === "error") throw new VolleyApiError(problemText(reply), { code: String(reply.code ?? "refused"), reply });
  return reply;
}

/**
 * Put a weapon's macro on the hotbar from a script (the first free slot unless `slot` is given).
 * @param {TokenRef} token
 * @param {string} weapon its id or name
 * @param {number} [slot]
 */
export async function weaponMacro(token, weapon, slot) {
  const doc = tokenOf(token);
  const plugin = systemPlugin(worldRuleSystem());
  if (!plugin) throw new VolleyApiError(t("VOLLEY.Errors.NoRuleSystem"), { code: "no_system" });
  const weaponId = weaponIdOf(doc, plugin.id, weapon) ?? "";
  const found = findWeapon(arsenalOf(doc, plugin.id).weapons, weaponId);
  if (!found) throw new VolleyApiError(t("VOLLEY.Api.NoWeapon", { weapon: String(weapon), name: doc.name ?? "", weapons: "—" }), { code: "no_weapon" });
  const drop = weaponDrop({ tokenId: String(doc.id), actorId: doc.actor?.id ?? null, weaponId, tokenName: doc.name ?? "", weaponName: found.name });
  return assignWeaponMacro(drop, slot);
}

/** The object published as `game.modules.get("volley").api`. */
export function moduleApi() {
  return Object.freeze({
    version: API_VERSION,
    fire,
    odds,
    openAttackDialog,
    undo,
    weaponMacro,
    openProfileEditor,
    connection: bridgeConnection,
    hooks: Object.freeze({ preAttack: PRE_ATTACK, attackResolved: ATTACK_RESOLVED, undone: UNDONE }),
    VolleyApiError,
  });
}
