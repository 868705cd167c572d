/**
 * Fire from the weapon's own row: on each weapon row of the game system's own actor sheet that Volley's
 * adapter reads (GGA's ranged attacks, DH2e's weapon list, Twodsix's weapons), a Volley control that
 * opens the attack dialog with that weapon chosen; on a row Volley will not fire, the same control says
 * why (the refusal's reason, or the fields to fix) and opens nothing.
 *
 * Which rows and where: adapters/sheet-rows.js. The sheets are drawn by the systems as ApplicationV1
 * (GGA 0.18, DH2e 1.8.1: the `renderActorSheet` hook, with jQuery) or ApplicationV2 (Twodsix 7.5, the
 * DH2e fork for Foundry 13-14: `renderActorSheetV2`, with the HTMLElement); both hooks run on every
 * render, a V2 sheet's partial one too, so drawing is idempotent: a row that has its control keeps it.
 * Only the actor's owners see the controls, and only while the world's Volley rule system is the one
 * the adapter reads for.
 */

import { adapterForGame } from "../adapters/index.js";
import { findRows, rowControls, sheetRowsOf } from "../adapters/sheet-rows.js";
import { openAttackDialog } from "./api.js";
import { actorArsenal } from "../profile/weapons.js";
import { systemPlugin } from "../registry.js";
import { tokenOfActor } from "./controls.js";
import { actorData } from "./documents.js";
import { worldRuleSystem } from "./settings.js";
import { t } from "./words.js";
import { isHtmlElement } from "./window-dom.js";

/**
 * @typedef {import("../adapters/sheet-rows.js").RowControl} RowControl
 * @typedef {import("../adapters/sheet-rows.js").SheetRows} SheetRows
 * @typedef {import("../profile/weapons.js").ArsenalProblem} ArsenalProblem
 */

/** The class of Volley's control on a sheet row. */
const CONTROL = "volley-sheet-fire";

/** Watch every actor sheet the game system draws, V1 and V2. */
export function registerSheetControls() {
  Hooks.on("renderActorSheet", (sheet, html) => decorateSheet(sheet, html));
  Hooks.on("renderActorSheetV2", (sheet, element) => decorateSheet(sheet, element));
}

/**
 * Put Volley's control on each weapon row of one rendered sheet.
 * @param {any} sheet the sheet application (V1 or V2)
 * @param {unknown} html what the render hook passed: an HTMLElement (V2) or jQuery (V1)
 */
export function decorateSheet(sheet, html) {
  const root = isHtmlElement(html) ? html : /** @type {any} */ (html)?.[0];
  const actor = /** @type {Actor | undefined} */ (sheet?.actor ?? sheet?.document);
  if (!isHtmlElement(root) || !actor || actor.documentName !== "Actor" || !actor.isOwner) return;
  const specs = sheetRowsOf(game.system?.id);
  if (specs.length === 0) return;
  const plugin = systemPlugin(worldRuleSystem());
  const adapter = adapterForGame(/** @type {any} */ (game));
  if (!plugin || !adapter || adapter.ruleSystem !== plugin.id) return;
  const rows = findRows(/** @type {any} */ (root), specs).filter(({ row }) => isHtmlElement(row));
  if (rows.length === 0) return;
  const arsenal = actorArsenal(actorData(actor), { system: plugin.id, adapter });
  const controls = rowControls(arsenal, rows.map(({ ref }) => ref));
  for (const { row, ref, spec } of rows) {
    const control = controls.get(ref);
    if (!control || ownControl(/** @type {HTMLElement} */ (row), spec)) continue;
    const button = controlButton(control, actor, plugin);
    button.dataset.volleyRef = ref;
    place(/** @type {HTMLElement} */ (row), spec, button);
  }
}

/**
 * Whether the row already has Volley's control (a hook run again over rows the sheet kept).
 * @param {HTMLElement} row
 * @param {SheetRows} spec
 */
function ownControl(row, spec) {
  return [...row.querySelectorAll(`.${CONTROL}`)].some((button) => button.closest(spec.row) === row);
}

/**
 * @param {HTMLElement} row
 * @param {SheetRows} spec
 * @param {HTMLElement} button
 */
function place(row, spec, button) {
  if (spec.place.after) {
    const anchor = row.querySelector(spec.place.after);
    if (anchor) {
      anchor.after(button);
      return;
    }
  }
  const box = spec.place.in ? (row.querySelector(spec.place.in) ?? row) : row;
  if (spec.place.at === "start") box.prepend(button);
  else box.append(button);
}

/**
 * A refusal's or a problem's words in the reader's language.
 * @param {ArsenalProblem} problem
 */
function reasonText(problem) {
  const key = problem.key ? `VOLLEY.Adapter.${problem.key}` : "";
  if (!key || !game.i18n.has(key)) return problem.message;
  const words = t(key, problem.values ?? {});
  return problem.refused ? words : `${problem.field}: ${words}`;
}

/**
 * The control for one row.
 * @param {RowControl} control
 * @param {Actor} actor
 * @param {import("../registry.js").RuleSystemPlugin} plugin
 */
function controlButton(control, actor, plugin) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = CONTROL;
  button.innerHTML = '<i class="fa-solid fa-crosshairs" inert></i>';
  /** @type {string} */
  let label;
  if (control.kind === "fire") {
    const weapon = control.weapon;
    const readout = plugin.readout(weapon);
    const name = weapon.name || weapon.id;
    label = readout.jammed
      ? t("VOLLEY.Sheet.FireJammed", { weapon: name })
      : readout.loaded === null || readout.loaded === undefined
        ? t("VOLLEY.Sheet.Fire", { weapon: name })
        : t("VOLLEY.Sheet.FireRounds", { weapon: name, loaded: readout.loaded, capacity: readout.capacity ?? "—" });
    button.dataset.volleyWeapon = weapon.id;
    button.classList.toggle(`${CONTROL}--jammed`, Boolean(readout.jammed));
  } else {
    label =
      control.kind === "refused"
        ? t("VOLLEY.Sheet.Refused", { reason: reasonText(control.reason) })
        : t("VOLLEY.Sheet.Problem", { reason: control.reasons.map(reasonText).join("; ") });
    button.classList.add(`${CONTROL}--${control.kind}`);
    button.setAttribute("aria-disabled", "true");
  }
  button.setAttribute("aria-label", label);
  button.dataset.tooltip = label;
  button.addEventListener("click", (event) => {
    // The sheet's own handlers (a roll on the row, a drag) are not for this button.
    event.preventDefault();
    event.stopPropagation();
    if (control.kind !== "fire") {
      ui.notifications.info(label);
      return;
    }
    const token = tokenOfActor(actor);
    if (!token) {
      ui.notifications.warn(t("VOLLEY.Errors.NoTokenOnScene", { name: actor.name ?? "" }));
      return;
    }
    void openAttackDialog(token, { weapon: control.weapon.id }).catch((/** @type {unknown} */ error) => {
      ui.notifications.error(`Volley: ${error instanceof Error ? error.message : String(error)}`);
    });
  });
  return button;
}
