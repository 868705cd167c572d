/**
 * The Foundry side of the choice models (issue #37; the models are systems/<id>/choice.js, pure): the
 * facts a model is built from, gathered from a token, its weapon and its targets; the model's messages
 * in the user's language; and whether a button's action can be sent now, as the dialog's button says
 * it. The attack dialog and the module API (foundry/api.js) both use these, so a macro's shot passes
 * the same checks as Fire without any dialog being rendered.
 */

import { findWeapon } from "../adapters/identity.js";
import { holdOf } from "../books.js";
import { arsenalOf, findTokenDocument, placedTokens, tokenCentre, tokenCentrePixels, tokenCentreSquares, tokenState } from "./documents.js";
import { bridgeOnline } from "./bridge.js";
import { tableRules } from "./table-rules.js";
import { t } from "./words.js";

/**
 * @typedef {import("../registry.js").RuleSystemPlugin} RuleSystemPlugin
 * @typedef {import("../registry.js").ChoiceFacts} ChoiceFacts
 * @typedef {import("../registry.js").ChoiceMessage} ChoiceMessage
 * @typedef {import("../registry.js").ChoiceModelView} ChoiceModelView
 * @typedef {import("../registry.js").TargetRef} TargetRef
 */

/** The button that cancels the pending attack holding the weapon (#31). */
export const CANCEL_HELD = "cancel_pending";

/**
 * The tokens a choice is aimed at: the ones named (the module API's), else the user's targets; never the
 * shooter.
 * @param {TokenDocument} token
 * @param {TargetRef[] | null} fixed
 * @returns {TargetRef[]}
 */
export function choiceTargets(token, fixed) {
  if (fixed) return fixed.filter((target) => target.id !== token.id);
  return [...game.user.targets]
    .map((target) => target.document)
    .filter((doc) => doc?.id && doc.id !== token.id)
    .map((doc) => ({ id: String(doc.id), name: doc.name ?? String(doc.id) }));
}

/**
 * The facts a system's choice model takes: the weapon chosen (by id; else the actor's current one,
 * else its first), the shooter's character numbers, each target's.
 * @param {TokenDocument} token
 * @param {RuleSystemPlugin} plugin
 * @param {string | null} weaponId
 * @param {TargetRef[]} targets
 * @returns {ChoiceFacts}
 */
export function choiceFacts(token, plugin, weaponId, targets) {
  const arsenal = arsenalOf(token, plugin.id);
  const weapon = findWeapon(arsenal.weapons, weaponId) ?? arsenal.weapons.find((w) => w.id === arsenal.current) ?? arsenal.weapons[0] ?? null;
  return {
    system: plugin.id,
    token: { id: String(token.id), name: token.name ?? String(token.id) },
    weapon,
    character: arsenal.character,
    targets: targets.map((target) => {
      const doc = findTokenDocument(target.id);
      return { ...target, character: doc ? arsenalOf(doc, plugin.id).character : {} };
    }),
    previewActions: plugin.previewActions,
    scene: placedTokens(token, tokenCentreSquares).flatMap(({ id, name, centre }) => (centre ? [{ id, name, x: centre.x, y: centre.y }] : [])),
    state: tokenState(token),
    lockName: lockName(tokenState(token).target),
    tableRules: tableRules(),
    plane: planeOf(token),
    gm: Boolean(game.user?.isGM),
  };
}

/**
 * The shooter's centre and the scene's tokens with theirs: in metres when the scene's units allow,
 * else in pixels (d100's sectors).
 * @param {TokenDocument} token
 */
function planeOf(token) {
  const metres = tokenCentre(token);
  const inMetres = metres !== null;
  const tokens = placedTokens(token, inMetres ? tokenCentre : tokenCentrePixels).flatMap(({ id, name, centre }) => (centre ? [{ id, name, x: centre.x, y: centre.y }] : []));
  return { inMetres, origin: metres ?? tokenCentrePixels(token), tokens };
}

/**
 * The name of the token a weapon is locked on (its id when no scene has it).
 * @param {unknown} lock
 */
function lockName(lock) {
  if (typeof lock !== "string" || !lock) return null;
  return findTokenDocument(lock)?.name ?? lock;
}

/**
 * A model's message in the user's language (a value that is a message itself is said first).
 * @param {ChoiceMessage | string | null | undefined} message
 * @returns {string}
 */
export function say(message) {
  if (message === null || message === undefined) return "";
  if (typeof message === "string") return message;
  if (!message.values) return t(message.key);
  /** @type {Record<string, unknown>} */
  const values = {};
  for (const [name, value] of Object.entries(message.values)) {
    const nested = typeof value === "object" && value !== null && typeof (/** @type {any} */ (value).key) === "string";
    values[name] = nested ? say(/** @type {ChoiceMessage} */ (value)) : value;
  }
  return t(message.key, values);
}

/**
 * A refusal of the model (`set`, `toRequest`) in the user's words, naming the field by its label ("Shots
 * at Raider: must be at most 999"); a refusal naming no field of the model as the rule alone.
 * @param {ChoiceModelView} model
 * @param {unknown} error
 * @param {(error: unknown) => string} otherwise the words for a refusal that is not the model's
 */
export function refusalOf(model, error, otherwise) {
  const e = /** @type {{field?: unknown, key?: unknown, values?: unknown, label?: unknown, words?: unknown}} */ (typeof error === "object" && error !== null ? error : {});
  // A reason the model words itself (the weapon not ready, targets the mode cannot take): as it is.
  if (typeof e.words === "object" && e.words !== null) return say(/** @type {ChoiceMessage} */ (e.words));
  if (typeof e.key !== "string") return otherwise(error);
  const values = typeof e.values === "object" && e.values !== null ? /** @type {Record<string, unknown>} */ (e.values) : {};
  const label = "label" in e ? /** @type {ChoiceMessage | null} */ (e.label) : typeof e.field === "string" ? model.labelOf(e.field) : null;
  if (label) return `${say(label)}: ${t(e.key, values)}`;
  if ("label" in e) return t(e.key, values);
  return otherwise(error);
}

/**
 * Why `action` cannot be sent now, as the dialog's button would say it (no weapon, a jam, a held weapon,
 * no targets, the bridge offline, the system's running check for Fire, an action the weapon has not),
 * or null when it can.
 * @param {ChoiceModelView} model
 * @param {TokenDocument} token
 * @param {RuleSystemPlugin} plugin
 * @param {string} action
 * @returns {string | null}
 */
export function actionProblem(model, token, plugin, action) {
  const weapon = model.facts.weapon;
  if (!weapon) return t("VOLLEY.Dialog.NoWeapons", { name: token.name ?? "" });
  const specs = model.actions(plugin.readout(weapon));
  // The buttons of the system's own body (d100's morale section) go unless the bridge is away.
  const body = model.bodyActions?.() ?? [];
  const held = holdOf(tokenState(token), weapon) ? t("VOLLEY.Dialog.Held", { weapon: weapon.name || t("VOLLEY.Dialog.Unnamed") }) : null;
  const inBody = body.find((s) => s.action === action);
  if (inBody) return bridgeOnline() ? (inBody.blocked ? say(inBody.blocked) : null) : t("VOLLEY.Dialog.Offline");
  const spec = specs.find((s) => s.action === action) ?? (held && action === CANCEL_HELD ? { action, blocked: null, needsTargets: false, primary: false } : null);
  if (!spec) return t("VOLLEY.Api.NoSuchAction", { action, actions: [...specs, ...body].map((s) => s.action).join(", ") });
  let reason = spec.blocked ? say(spec.blocked) : null;
  if (held && spec.action !== CANCEL_HELD) reason = held;
  const targets = model.chosenTargets?.() ?? model.facts.targets;
  if (!reason && spec.needsTargets && targets.length === 0) reason = t("VOLLEY.Dialog.NoTargets");
  if (!bridgeOnline()) reason = t("VOLLEY.Dialog.Offline");
  if (reason) return reason;
  // Fire waits on the system's running check of the form too (GURPS: shots against RoF).
  const check = spec.primary ? model.liveCheck() : null;
  return check?.blocked ? `${say(check.tally)}: ${say(check.blocked)}` : null;
}
