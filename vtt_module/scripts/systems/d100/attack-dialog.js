/**
 * The d100 attack dialog (seed 004, "Shooting"): the weapon's modes (single shot, short, long and wide
 * bursts, suppressing fire semi- or fully automatic, overwatch), the targets with their cover, range and
 * a burst's extra hits, the sector of fire picked on the map, overwatch as a standing order and its
 * fire, the weapon's upkeep (reload, unjam, recover ammunition, brace) and the morale tests.
 *
 * Where the targets come from:
 * - single shots and bursts: the user's targets (Foundry: T over a token);
 * - wide bursts and suppressing fire: the tokens inside the sector the user aimed (clicked on the map,
 *   or typed in degrees in its Facing field, by keyboard alone; arc and reach from the rules), or the
 *   user's targets until a sector is aimed;
 * - overwatch fire: the tokens inside the standing order's sector now;
 * every list is editable: untick a row to leave it out, add any token of the scene.
 *
 * BS, WP, skills, the weapon's numbers and every distance are the actor's and the map's, read again by
 * the referee's browser (requests.js); the dialog only shows them.
 *
 * The choice itself is the d100 choice model (./choice.js, #37): the mode, the sector and its list, the
 * rows left out, the primary, the buttons and the request each sends are its; the dialog draws from it
 * and writes each edit into it, with the same form names. The module API fills the same model without
 * this window.
 *
 * What the body shows (the stats line, the sector, the order, the rows, the upkeep) is built in
 * ./attack-views.js; this file is the window: its context, the edits written into the model, the
 * sector picked on the map, the body's buttons.
 */

import { isShowing } from "../../foundry/app-state.js";
import { AttackDialog, ChoiceAttackDialog } from "../common/attack-dialog.js";
import { formValues } from "../common/attack-form.js";
import { wholeDegrees } from "../../sector.js";
import { arsenalOf, findTokenDocument, metresPerPixel, tokenCentre, tokenCentrePixels } from "../../foundry/documents.js";
import { choiceFacts } from "../../foundry/choice.js";
import { canPickOnCanvas, pickDirection } from "../../foundry/sector-picker.js";
import { bridgeOnline } from "../../foundry/bridge.js";
import { formatPercent } from "../../odds-preview.js";
import { decimalSeparator, problemText, t } from "../../foundry/words.js";
import { DIALOG_MODES, dialogModes, rofPositions, SECTOR_MAX_DEGREES, sectorLength } from "./modes.js";
import { d100OddsLines } from "./odds.js";
import { MODIFIER_LIMIT } from "./requests.js";
import { isDetails, isInput, isSelect } from "../../foundry/window-dom.js";
import { d100Choice, MORALE_ACTIONS } from "./choice.js";
import { firingView, orderView, rowsHint, rowView, sectorView, settingView, statsLine, upkeepView } from "./attack-views.js";

/**
 * @typedef {import("../../profile/types.js").VolleyWeapon} VolleyWeapon
 * @typedef {import("../../profile/weapons.js").Arsenal} Arsenal
 * @typedef {import("../common/attack-dialog.js").TargetRef} TargetRef
 * @typedef {import("../common/attack-dialog.js").ActionSpec} ActionSpec
 * @typedef {import("./modes.js").DialogMode} DialogMode
 * @typedef {import("../../sector.js").Point} Point
 * @typedef {{facing: number, arc: number}} PickedSector
 */

export default class D100AttackDialog extends ChoiceAttackDialog {
  static PARTS = AttackDialog.partsWith("modules/volley/templates/systems/d100/attack-body.hbs");

  static DEFAULT_OPTIONS = {
    ...AttackDialog.DEFAULT_OPTIONS,
    classes: [...AttackDialog.DEFAULT_OPTIONS.classes, "volley-d100-dialog"],
    position: { ...AttackDialog.DEFAULT_OPTIONS.position, width: 610 },
    actions: {
      ...AttackDialog.DEFAULT_OPTIONS.actions,
      d100PickSector: D100AttackDialog.#onPickSector,
      d100AddTarget: D100AttackDialog.#onAddTarget,
      d100Rescan: D100AttackDialog.#onRescan,
    },
  };

  /** The choice the player sets (./choice.js): the dialog draws it and writes each edit into it. */
  #model = d100Choice({ system: "d100", token: { id: "", name: "" }, weapon: null, character: {}, targets: [], previewActions: [] });
  /** Whether the morale section is open (kept across re-renders). */
  moraleOpen = false;
  /** The standing order as last seen (JSON), to notice one set, fired or lifted. @type {string | null | undefined} */
  #orderSeen = undefined;

  /** The model on the token, its weapon, the user's targets and the scene as they are now. */
  choice() {
    this.#model.facts = choiceFacts(this.token, this.plugin, this.weaponId, this.userTargets());
    return this.#model;
  }

  /** @returns {{weapon: VolleyWeapon | null, arsenal: Arsenal}} */
  #current() {
    const arsenal = arsenalOf(this.token, this.plugin.id);
    const weapon = arsenal.weapons.find((w) => w.id === this.weaponId) ?? arsenal.weapons.find((w) => w.id === arsenal.current) ?? arsenal.weapons[0] ?? null;
    return { weapon, arsenal };
  }

  /** The order stands and its trigger has not been declared met: nothing to fire, nobody listed. */
  #waiting() {
    return this.choice().waiting();
  }

  /** The token's standing overwatch order, or null. */
  #order() {
    return this.choice().order();
  }

  /**
   * The mode in force: the user's, while the weapon allows it; else overwatch fire when an order stands,
   * else the weapon's first.
   */
  currentMode() {
    return this.choice().currentMode();
  }

  // --- targets ------------------------------------------------------------------------------------

  /** The shooter's centre and the map's scale: metres when the scene's units allow, else pixels. */
  #geometry() {
    const metres = tokenCentre(this.token);
    if (metres) return { origin: metres, inMetres: true, scale: metresPerPixel(this.token.parent) };
    return { origin: tokenCentrePixels(this.token), inMetres: false, scale: null };
  }

  /** The user's own targets (Foundry: T over a token). @returns {TargetRef[]} */
  userTargets() {
    return super.targets();
  }

  /** Every row the dialog shows, ticked or not, primary first. @returns {TargetRef[]} */
  #rows() {
    return this.choice().rows();
  }

  /** @param {TargetRef[]} rows */
  #primaryOf(rows) {
    return this.#model.primaryOf(rows);
  }

  /**
   * The targets fired at: the ticked rows, primary first; for a single shot, the primary alone.
   * @returns {TargetRef[]}
   */
  targets() {
    return this.choice().chosenTargets();
  }

  // --- the body -------------------------------------------------------------------------------------

  /**
   * @param {VolleyWeapon} weapon
   * @param {Arsenal} arsenal
   * @param {TargetRef[]} _targets
   */
  async systemContext(weapon, arsenal, _targets) {
    const model = this.choice();
    const mode = model.currentMode();
    model.mode = mode;
    const character = arsenal.character;
    const order = this.#order();
    const statuses = new Set([...(this.token.actor?.statuses ?? [])].map(String));
    const rows = this.#rows();
    const primary = this.#primaryOf(rows);
    const spec = mode ? DIALOG_MODES[mode] : null;
    const burst = model.burst();
    const bs = typeof character.bs === "number" ? character.bs : null;
    const rof = rofPositions(weapon.stats.rof);
    const online = bridgeOnline();
    return {
      bs: bs ?? "—",
      shooterNotes: [
        ...(statuses.has("suppressed") ? [t("VOLLEY.D100.Dialog.ShooterSuppressed")] : []),
        ...(statuses.has("prone") ? [t("VOLLEY.D100.Dialog.ShooterProne")] : []),
      ],
      stats: statsLine(weapon),
      modes: dialogModes(weapon, { order: order !== null }).map((id) => ({ id, label: t(`VOLLEY.D100.DialogModes.${id}`), selected: id === mode })),
      noModes: rof === null && !["thrown", "grenade"].includes(String(weapon.stats.class)),
      modeHint: mode ? t(`VOLLEY.D100.ModeHints.${mode}`) : "",
      modifierLimit: MODIFIER_LIMIT,
      sector: mode && spec?.sector && mode !== "overwatch_fire" ? sectorView(this.#model, weapon, arsenal, mode) : null,
      order: order ? orderView(order) : null,
      waiting: this.#waiting() ? t("VOLLEY.D100.Dialog.OrderWaiting") : "",
      setting: mode === "overwatch" ? settingView(this.#model, weapon) : null,
      firing: mode === "overwatch_fire" && !this.#waiting() ? firingView(this.#model, weapon, order, bs) : null,
      burst,
      suppressing: spec?.mode === "suppressing",
      rows: rows.map((row) => rowView(this.#model, this.token, this.plugin, row, { weapon, character, primary, burst, mode })),
      primaryChoices: (burst || mode === "single") && rows.length > 1 ? rows.filter((row) => !model.excluded.has(row.id)).map((row) => ({ ...row, selected: row.id === primary?.id })) : [],
      primaryLabel: t(mode === "single" ? "VOLLEY.D100.Dialog.SingleTarget" : "VOLLEY.D100.Dialog.Primary"),
      primaryHint: t(mode === "single" ? "VOLLEY.D100.Dialog.SingleTargetHint" : "VOLLEY.D100.Dialog.PrimaryHint"),
      addChoices: model.addChoices(),
      // Single shots and bursts fire at the user's targets (T over a token); a sector's list is edited here.
      addable: model.addable(),
      rowsHint: rowsHint(this.#model, mode, rows, mode !== "overwatch" && this.#waiting()),
      wider: burst,
      upkeep: upkeepView(weapon, character),
      moraleOpen: this.moraleOpen,
      morale: {
        gm: game.user.isGM,
        suppressed: statuses.has("suppressed"),
        disabled: !online,
      },
      jammedNote: weapon.state.jammed === true ? t("VOLLEY.D100.Dialog.JammedNote", { spoiled: Number(weapon.state.spoiled ?? 0) }) : "",
    };
  }

  // --- the choice -----------------------------------------------------------------------------------

  /**
   * The model's request for `action`, from the form (FormError names a bad field).
   * @param {Record<string, string>} values
   * @param {string} action
   */
  choiceFields(values, action) {
    const model = this.choice();
    model.assign(values);
    return model.systemRequest(action);
  }

  jamLabel() {
    return t("VOLLEY.D100.Dialog.JamChance");
  }

  /** @returns {string | null} */
  previewAction() {
    return this.choice().previewAction();
  }

  /**
   * @param {unknown} odds
   * @param {TargetRef[]} targets
   */
  oddsLines(odds, targets) {
    const decimal = decimalSeparator();
    return d100OddsLines(odds, targets, {
      percent: (p) => formatPercent(p, decimal),
      line: (parts) => t("VOLLEY.D100.Odds.Line", parts),
    });
  }

  // --- life cycle -----------------------------------------------------------------------------------

  /** @param {any} context @param {any} options */
  async _onFirstRender(context, options) {
    await super._onFirstRender(context, options);
    const order = this.#order();
    this.#orderSeen = order ? JSON.stringify(order) : null;
    this.element.addEventListener("change", (event) => void this.#onD100Change(event));
    this.element.addEventListener("keydown", (event) => {
      // Enter fires nothing (the frame's rule), but in the sector's fields it aims: what was typed counts.
      const field = event.target;
      if (event.key === "Enter" && isInput(field) && (field.name === "facing" || field.name === "arc")) void this.#aim();
    });
  }

  /** @param {any} context @param {any} options */
  async _onRender(context, options) {
    await super._onRender(context, options);
    // The Mode select shows the mode in force, whatever was typed before a re-render.
    const select = this.element.querySelector('select[name="mode"]');
    const mode = this.currentMode();
    if (isSelect(select) && mode) select.value = mode;
    const primary = this.element.querySelector('select[name="primary"]');
    const first = this.#primaryOf(this.#rows());
    if (isSelect(primary) && first) primary.value = first.id;
    const morale = this.element.querySelector("details.volley-d100__morale");
    if (isDetails(morale)) morale.addEventListener("toggle", () => (this.moraleOpen = morale.open));
  }

  /**
   * The token changed: a standing order may have been set, fired or lifted. A new order turns the
   * dialog to firing it (listing its sector afresh); one fired or lifted leaves the mode to the weapon.
   */
  async tokenChanged() {
    const order = this.#order();
    const seen = order ? JSON.stringify(order) : null;
    if (seen !== this.#orderSeen) {
      this.#orderSeen = seen;
      this.#model.orderChanged(order !== null);
    }
    await super.tokenChanged();
  }

  /**
   * "The trigger is met" opens the step that fires the standing order (the tokens in its sector
   * listed afresh); "Not yet" goes back to waiting. Neither asks the bridge.
   * @param {string} action
   */
  async localAction(action) {
    if (action !== "trigger_met" && action !== "trigger_back") return false;
    this.#model.declareTrigger(action === "trigger_met");
    await this.refresh(["body", "preview", "footer"]);
    this.refreshPreview();
    if (this.#model.triggerMet) /** @type {HTMLElement | null} */ (this.element?.querySelector(".volley-d100__target input, select[name=fire_mode]"))?.focus();
    return true;
  }

  /**
   * A burst's other tokens take only the extra hits the player gives them: one given none has no odds
   * because it was given none, not because nothing was fired ("no shots" read wrong on a burst).
   * @param {import("../common/attack-dialog.js").TargetRef} target
   */
  noShotsText(target) {
    const mode = this.currentMode();
    return mode === "short_burst" || mode === "long_burst" ? t("VOLLEY.D100.Dialog.NoShare", { name: target.name }) : null;
  }

  /**
   * A morale action's modifier (a −10 the referee gave one suppression test) goes back to 0 once it is
   * rolled: kept, it would be added silently to the next recovery or test.
   * @param {string} action
   */
  afterAction(action) {
    if (!MORALE_ACTIONS.includes(action)) return;
    const field = this.element?.querySelector('[name="morale_modifier"]');
    if (isInput(field)) field.value = "0";
  }

  /** @param {Event} event */
  async #onD100Change(event) {
    const field = event.target;
    if (!(isInput(field) || isSelect(field))) return;
    const model = this.#model;
    if (field.name === "mode") {
      model.mode = field.value;
      await this.refresh(["body", "preview", "footer"]);
    } else if (field.name === "fire_mode") {
      model.fireMode = field.value;
      await this.refresh(["body", "preview"]);
    } else if (field.name === "primary") {
      model.primary = field.value;
      await this.refresh(["body", "preview"]);
    } else if (field.name === "facing" || field.name === "arc") {
      await this.#aim();
      return;
    } else if (isInput(field) && /^t\..+\.include$/.test(field.name)) {
      const id = field.name.slice(2, -".include".length);
      if (field.checked) model.excluded.delete(id);
      else model.excluded.add(id);
      await this.refresh(["body", "preview", "footer"]);
    } else {
      return;
    }
    this.refreshPreview();
  }

  // --- the buttons of the body ------------------------------------------------------------------

  /**
   * The sector as its fields say (the Facing typed in degrees, the width), listed as a click on the map
   * in that direction would list it. An empty Facing aims nothing yet; a facing or width that breaks
   * its rule is said in the footer and changes nothing.
   */
  async #aim() {
    const { weapon } = this.#current();
    if (!weapon || !isShowing(this)) return;
    const values = formValues(/** @type {HTMLFormElement} */ (this.element));
    let aimed = false;
    try {
      aimed = this.choice().aimTyped(values);
    } catch (error) {
      this.notice = { text: problemText(error), error: true };
      await this.refresh(["footer"]);
      return;
    }
    if (!aimed) {
      // Aimed as it was (or nothing typed yet): a slip said before is put right, the list the user edited stays.
      if (this.notice.error && this.#model.sector) {
        this.notice = { text: "", error: false };
        await this.refresh(["footer"]);
      }
      return;
    }
    await this.#aimed();
  }

  /** A sector was just aimed (clicked or typed): the model listed its tokens; show them. */
  async #aimed() {
    // The sector's own line says what was aimed.
    this.notice = { text: "", error: false };
    await this.refresh(["body", "preview", "footer"]);
    this.refreshPreview();
  }

  /**
   * Pick the sector's direction on the map; the tokens inside are listed.
   * @this {D100AttackDialog}
   */
  static async #onPickSector() {
    const { weapon, arsenal } = this.#current();
    const geometry = this.#geometry();
    const origin = tokenCentrePixels(this.token);
    if (!weapon || !origin || !canPickOnCanvas()) {
      this.notice = { text: t("VOLLEY.D100.Dialog.NoCanvas"), error: true };
      await this.refresh(["footer"]);
      return;
    }
    const arcField = this.element.querySelector('input[name="arc"]');
    const arc = Math.min(SECTOR_MAX_DEGREES, Math.max(1, Math.round(Number(isInput(arcField) ? arcField.value : SECTOR_MAX_DEGREES) || SECTOR_MAX_DEGREES)));
    const reach = sectorLength(weapon, arsenal.character);
    const lengthPixels = geometry.scale && Number.isFinite(reach) ? reach / geometry.scale : Infinity;
    this.element.classList.add("volley-attack--picking");
    this.#say(t("VOLLEY.D100.Dialog.Picking"));
    const picked = await pickDirection({ origin, arc, lengthPixels });
    this.element?.classList.remove("volley-attack--picking");
    if (picked === null) {
      this.notice = { text: t("VOLLEY.D100.Dialog.PickCancelled"), error: false };
      await this.refresh(["footer"]);
      return;
    }
    // To the whole degree the Facing field shows, so typing that number aims the very same sector;
    // the field says it (what it held before the click is not kept).
    const facing = wholeDegrees(picked);
    const field = this.element?.querySelector('input[name="facing"]');
    if (isInput(field)) field.value = String(facing);
    this.choice().aimAt({ facing, arc });
    await this.#aimed();
  }

  /**
   * Add a token of the scene to the list.
   * @this {D100AttackDialog}
   */
  static async #onAddTarget() {
    const select = this.element.querySelector('select[name="add_token"]');
    const id = isSelect(select) ? select.value : "";
    if (!id || !findTokenDocument(id)) return;
    this.choice().addTarget(id);
    await this.refresh(["body", "preview", "footer"]);
    this.refreshPreview();
  }

  /**
   * List the standing order's sector again (tokens moved since the dialog opened).
   * @this {D100AttackDialog}
   */
  static async #onRescan() {
    this.#model.rescan();
    await this.refresh(["body", "preview", "footer"]);
    this.refreshPreview();
  }

  /** @param {string} text */
  #say(text) {
    const line = this.element?.querySelector(".volley-attack__notice");
    if (line) {
      line.textContent = text;
      line.classList.remove("volley-attack__notice--error");
    }
  }
}