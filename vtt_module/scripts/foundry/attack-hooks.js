/**
 * Volley's hooks, for other modules and macros (documented in vtt_module/README.md, "Hooks"):
 *
 * - `volley.preAttack` (Hooks.call, in the browser of the user who fires, before the request leaves):
 *   a handler may change the attack's situational modifiers in `attack.choice`, or cancel it by
 *   returning `false` (`return attack.cancel("why")` says why; the user is shown that reason);
 * - `volley.attackResolved` (Hooks.callAll, in the browser that applied the result: the one holding the
 *   bridge): the request, the result, the chat message and the updates applied;
 * - `volley.undone` (Hooks.callAll, in that same browser): a card taken back, with what was restored.
 *
 * Every attack goes through `sendChoice`: the dialog's buttons and the module API alike.
 */

import { sendRelayed } from "./bridge.js";
import { t } from "./words.js";
import { newRequestId } from "../protocol.js";

export const PRE_ATTACK = /** @type {const} */ ("volley.preAttack");
export const ATTACK_RESOLVED = /** @type {const} */ ("volley.attackResolved");
export const UNDONE = /** @type {const} */ ("volley.undone");

/**
 * @typedef {import("../registry.js").Choice} Choice
 * @typedef {import("../protocol.js").BridgeMessage} BridgeMessage
 * @typedef {"dialog" | "api"} AttackSource
 */

/**
 * What `volley.preAttack` handlers get: the attack about to be sent, which they may change or cancel.
 * @typedef {object} PendingAttack
 * @property {string} id           the request id the attack will travel under
 * @property {string} system       `gurps`, `megatraveller` or `d100`
 * @property {string} action       the dialog's action (`attack`)
 * @property {Choice} choice       what the player chose, as it travels to the referee (mutable)
 * @property {TokenDocument | null} token  the shooter
 * @property {string} weapon       the weapon's id in the token's Volley profile
 * @property {AttackSource} source the dialog's Fire button, or the module API (a macro)
 * @property {string} userId       who fires
 * @property {string | null} reason why it was cancelled (set by `cancel`)
 * @property {(reason?: string) => false} cancel  say why, and return false: `return attack.cancel("...")`
 */

/**
 * Ask the referee to resolve a choice: for an attack, `volley.preAttack` first. A cancelled attack
 * never leaves this browser; it answers as a refusal does, `{type: "error", code: "cancelled"}`, with
 * the handler's reason as its message.
 * @param {"attack" | "action"} type
 * @param {Choice} choice
 * @param {{token?: TokenDocument | null, source?: AttackSource}} [about]
 * @returns {Promise<BridgeMessage>}
 */
export async function sendChoice(type, choice, about = {}) {
  const id = newRequestId();
  if (type === "attack") {
    const refusal = preAttack(id, choice, about);
    if (refusal !== null) return { type: "error", id, code: "cancelled", message: refusal };
  }
  return sendRelayed({ type, id, choice });
}

/**
 * Call `volley.preAttack`; null to go ahead, else why not (in the user's words).
 * @param {string} id
 * @param {Choice} choice
 * @param {{token?: TokenDocument | null, source?: AttackSource}} about
 * @returns {string | null}
 */
function preAttack(id, choice, about) {
  /** @type {PendingAttack} */
  const attack = {
    id,
    system: choice.system,
    action: choice.action,
    choice,
    token: about.token ?? null,
    weapon: choice.weapon,
    source: about.source ?? "dialog",
    userId: String(game.user.id),
    reason: null,
    cancel(reason) {
      attack.reason = typeof reason === "string" && reason ? reason : null;
      return false;
    },
  };
  let proceed = true;
  try {
    proceed = Hooks.call(PRE_ATTACK, attack) !== false;
  } catch (error) {
    // A handler that throws must not fire the shot it was asked about.
    console.error("volley: a volley.preAttack handler failed", error);
    return t("VOLLEY.Api.PreAttackFailed", { error: error instanceof Error ? error.message : String(error) });
  }
  if (!proceed) return attack.reason ?? t("VOLLEY.Api.Cancelled");
  return checkModifiers(choice);
}

/**
 * A handler may change the modifiers; what it leaves must still be whole numbers (the dialog's own
 * fields could hold nothing else). The referee and the bridge check the limits, as for the dialog.
 * @param {Choice} choice
 * @returns {string | null}
 */
function checkModifiers(choice) {
  /** @type {[string, unknown][]} */
  const found = [["modifier", choice.modifier]];
  if (Array.isArray(choice.targets)) {
    choice.targets.forEach((target, index) => {
      if (typeof target !== "object" || target === null) return;
      for (const key of ["modifier", "dm"]) if (key in target) found.push([`targets.${index}.${key}`, /** @type {any} */ (target)[key]]);
    });
  }
  for (const [field, value] of found) {
    if (value === undefined || value === null || value === "") continue;
    // The dialog's forms send numbers or the digits typed (the referee reads them): either is fine.
    const number = typeof value === "string" ? Number(value.trim().replace("−", "-")) : value;
    if (!Number.isInteger(number)) return t("VOLLEY.Api.BadModifier", { field, value: String(value) });
  }
  return null;
}

/**
 * Tell listeners that a result was applied (in the browser holding the bridge).
 * @param {Record<string, unknown>} resolved
 */
export function announceResolved(resolved) {
  callAllSafely(ATTACK_RESOLVED, resolved);
}

/**
 * Tell listeners that a card was undone (in the browser holding the bridge).
 * @param {Record<string, unknown>} undone
 */
export function announceUndone(undone) {
  callAllSafely(UNDONE, undone);
}

/**
 * A listener's failure is logged, never the table's problem: the result is applied and journalled.
 * @param {typeof ATTACK_RESOLVED | typeof UNDONE} name
 * @param {Record<string, unknown>} data
 */
function callAllSafely(name, data) {
  try {
    Hooks.callAll(name, /** @type {any} */ (data));
  } catch (error) {
    console.error(`volley: a ${name} listener failed`, error);
  }
}
