/**
 * What the attack dialog's parts show of the token and its weapon (systems/common/attack-dialog.js
 * draws them): the picker's weapon labels, the weapon's rounds and jam, what the actor's data could not
 * give, the bridge's line, and the footer's buttons with why each is disabled. Built afresh for every
 * render from the token, the weapon and the bridge's state; the window's behaviour stays in the dialog.
 */

import { statusWords } from "../../bridge-status.js";
import { holdOf } from "../../books.js";
import { bridgeOnline, bridgeStatus } from "../../foundry/bridge.js";
import { CANCEL_HELD } from "../../foundry/choice.js";
import { tokenState } from "../../foundry/documents.js";
import { hasWord, t } from "../../foundry/words.js";

/**
 * @typedef {import("../../profile/types.js").VolleyWeapon} VolleyWeapon
 * @typedef {import("../../registry.js").RuleSystemPlugin} RuleSystemPlugin
 * @typedef {import("../../registry.js").WeaponReadout} WeaponReadout
 * @typedef {import("./attack-dialog.js").ActionSpec} ActionSpec
 * @typedef {import("./attack-dialog.js").TargetRef} TargetRef
 */

/**
 * What the dialog says about the actor's data: the version notice (first, alone), the fields to fix,
 * and the weapons the adapter does not offer (named in the summary, each reason in the list).
 * @param {import("../../profile/weapons.js").ArsenalProblem[]} all
 */
export function problemsView(all) {
  const notice = all.find((problem) => problem.notice);
  const refused = all.filter((problem) => problem.refused);
  return {
    versionNotice: notice ? problemText(notice) : "",
    problems: all.filter((problem) => !problem.refused && !problem.notice).slice(0, 8).map((problem) => problemText(problem)),
    refused: refused.map((problem) => problemText(problem)),
    refusedSummary: refused.length ? t("VOLLEY.Dialog.Refused", { n: refused.length, names: refused.map((problem) => problem.name ?? "").join(", ") }) : "",
  };
}

/**
 * A field the actor's data could not give (an adapter names its path): in the reader's language when
 * the module has words for it.
 * @param {import("../../profile/weapons.js").ArsenalProblem} problem
 */
function problemText(problem) {
  const key = problem.key ? `VOLLEY.Adapter.${problem.key}` : "";
  if (!key || !hasWord(key)) return problem.message;
  const words = t(key, problem.values ?? {});
  // A refused weapon or the version notice names no field to fix: the sentence says it all.
  return problem.refused || problem.notice ? words : `${problem.field}: ${words}`;
}

/**
 * The weapon as the picker lists it: its name, and its rounds or that it is jammed.
 * @param {RuleSystemPlugin} plugin
 * @param {VolleyWeapon} weapon
 */
export function weaponLabel(plugin, weapon) {
  const readout = plugin.readout(weapon);
  const name = weapon.name || t("VOLLEY.Dialog.Unnamed");
  if (readout.jammed) return `${name} — ${t("VOLLEY.Dialog.JammedShort")}`;
  if (readout.loaded === null) return name;
  return `${name} (${readout.loaded}${readout.capacity === null ? "" : `/${readout.capacity}`})`;
}

/**
 * @param {VolleyWeapon} weapon
 * @param {WeaponReadout} readout
 */
export function weaponView(weapon, readout) {
  const malfunction = typeof weapon.state.malfunction === "string" ? weapon.state.malfunction : "";
  return {
    name: weapon.name,
    jammed: readout.jammed,
    roundsText:
      readout.loaded === null
        ? ""
        : t("VOLLEY.Dialog.Rounds", { loaded: readout.loaded, capacity: readout.capacity ?? "—" }),
    jamText: malfunction ? t("VOLLEY.Dialog.JammedBecause", { why: faultName(malfunction) }) : t("VOLLEY.Dialog.Jammed"),
  };
}

/** @param {string} fault */
function faultName(fault) {
  const key = `VOLLEY.Faults.${fault}`;
  return hasWord(key) ? t(key) : fault;
}

/** The footer's line on the bridge's state. */
export function bridgeView() {
  const status = bridgeStatus();
  const words = statusWords(status, Date.now());
  return {
    text: `${t("VOLLEY.Bridge.Label")}: ${t(words.key, words.values)}`,
    online: status.state === "ready",
  };
}

/**
 * The footer's buttons: the system's (`specs`), each disabled with the reason the user reads (a held
 * weapon, no targets, the bridge away, a request out), and Cancel while a pending attack holds the weapon.
 * @param {TokenDocument} token
 * @param {VolleyWeapon} weapon
 * @param {ActionSpec[]} specs the system's buttons for the weapon (`actionsFor`)
 * @param {TargetRef[]} targets
 * @param {boolean} sending whether a request is out
 */
export function actionViews(token, weapon, specs, targets, sending) {
  const offline = !bridgeOnline();
  // A pending two-step attack holds the weapon's rounds and selector (#31): nothing else fires or
  // handles it until the attack is allocated or cancelled, and Cancel is offered here too.
  const held = holdOf(tokenState(token), weapon) ? t("VOLLEY.Dialog.Held", { weapon: weapon.name || t("VOLLEY.Dialog.Unnamed") }) : null;
  if (held) specs.push({ action: CANCEL_HELD, label: t("VOLLEY.Dialog.CancelHeld"), icon: "fa-solid fa-ban", hint: t("VOLLEY.Card.CancelHint") });
  return specs.map((spec) => {
    let reason = spec.blocked ?? null;
    if (held && spec.action !== CANCEL_HELD) reason = held;
    if (!reason && spec.needsTargets && targets.length === 0) reason = t("VOLLEY.Dialog.NoTargets");
    if (offline) reason = t("VOLLEY.Dialog.Offline");
    return {
      action: spec.action,
      label: spec.label,
      icon: spec.icon,
      primary: Boolean(spec.primary),
      disabled: Boolean(reason) || sending,
      reason: reason ?? "",
      hint: reason ? "" : (spec.hint ?? ""),
    };
  });
}
