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
 */

import { isShowing } from "../../foundry/app-state.js";
import { AttackDialog, ChoiceAttackDialog } from "../common/attack-dialog.js";
import { formValues } from "../common/attack-form.js";
import { distanceBetween, wholeDegrees } from "../../sector.js";
import { arsenalOf, findTokenDocument, metresPerPixel, tokenCentre, tokenCentrePixels } from "../../foundry/documents.js";
import { choiceFacts } from "../../foundry/choice.js";
import { canPickOnCanvas, pickDirection } from "../../foundry/sector-picker.js";
import { bridgeOnline } from "../../foundry/bridge.js";
import { formatPercent } from "../../odds-preview.js";
import { decimalSeparator, problemText, t } from "../../foundry/words.js";
import {
  BANDS,
  bandOf,
  DIALOG_MODES,
  dialogModes,
  maxOverwatchShots,
  overwatchModes,
  rofPositions,
  SECONDARY_REACH_METRES,
  SECTOR_MAX_DEGREES,
  sectorLength,
  SUPPRESSION_TEST_BANDS,
  weaponRange,
} from "./modes.js";
import { d100OddsLines } from "./odds.js";
import { MODIFIER_LIMIT } from "./requests.js";
import { isDetails, isInput, isSelect } from "../../foundry/window-dom.js";
import { d100Choice, MORALE_ACTIONS } from "./choice.js";

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
      stats: this.#statsLine(weapon),
      modes: dialogModes(weapon, { order: order !== null }).map((id) => ({ id, label: t(`VOLLEY.D100.DialogModes.${id}`), selected: id === mode })),
      noModes: rof === null && !["thrown", "grenade"].includes(String(weapon.stats.class)),
      modeHint: mode ? t(`VOLLEY.D100.ModeHints.${mode}`) : "",
      modifierLimit: MODIFIER_LIMIT,
      sector: mode && spec?.sector && mode !== "overwatch_fire" ? this.#sectorView(weapon, arsenal, mode) : null,
      order: order ? this.#orderView(order) : null,
      waiting: this.#waiting() ? t("VOLLEY.D100.Dialog.OrderWaiting") : "",
      setting: mode === "overwatch" ? this.#settingView(weapon) : null,
      firing: mode === "overwatch_fire" && !this.#waiting() ? this.#firingView(weapon, order, bs) : null,
      burst,
      suppressing: spec?.mode === "suppressing",
      rows: rows.map((row) => this.#rowView(row, { weapon, character, primary, burst, mode })),
      primaryChoices: (burst || mode === "single") && rows.length > 1 ? rows.filter((row) => !model.excluded.has(row.id)).map((row) => ({ ...row, selected: row.id === primary?.id })) : [],
      primaryLabel: t(mode === "single" ? "VOLLEY.D100.Dialog.SingleTarget" : "VOLLEY.D100.Dialog.Primary"),
      primaryHint: t(mode === "single" ? "VOLLEY.D100.Dialog.SingleTargetHint" : "VOLLEY.D100.Dialog.PrimaryHint"),
      addChoices: model.addChoices(),
      // Single shots and bursts fire at the user's targets (T over a token); a sector's list is edited here.
      addable: model.addable(),
      rowsHint: this.#rowsHint(mode, rows),
      wider: burst,
      upkeep: this.#upkeepView(weapon, character),
      moraleOpen: this.moraleOpen,
      morale: {
        gm: game.user.isGM,
        suppressed: statuses.has("suppressed"),
        disabled: !online,
      },
      jammedNote: weapon.state.jammed === true ? t("VOLLEY.D100.Dialog.JammedNote", { spoiled: Number(weapon.state.spoiled ?? 0) }) : "",
    };
  }

  /** @param {VolleyWeapon} weapon */
  #statsLine(weapon) {
    const stats = weapon.stats;
    const classKey = `VOLLEY.D100.Classes.${String(stats.class ?? "rifle")}`;
    const parts = [
      game.i18n.has(classKey) ? t(classKey) : String(stats.class ?? ""),
      t("VOLLEY.D100.Dialog.Rof", { rof: String(stats.rof ?? "—") }),
    ];
    if (stats.range !== undefined && stats.range !== null) parts.push(t("VOLLEY.D100.Dialog.Rng", { range: String(stats.range) }));
    if (stats.reliability !== undefined && stats.reliability !== null && stats.reliability !== 0) {
      const named = `VOLLEY.D100.ReliabilityNames.${String(stats.reliability).toLowerCase().replace(/\s+/g, "_")}`;
      parts.push(t("VOLLEY.D100.Dialog.Reliability", { value: game.i18n.has(named) ? t(named) : String(stats.reliability) }));
    }
    if (stats.class === "heavy") parts.push(t(weapon.state.braced === true ? "VOLLEY.D100.Dialog.Braced" : "VOLLEY.D100.Dialog.NotBraced"));
    return parts.join(" · ");
  }

  /**
   * @param {VolleyWeapon} weapon
   * @param {Arsenal} arsenal
   * @param {DialogMode} mode
   */
  #sectorView(weapon, arsenal, mode) {
    const reach = sectorLength(weapon, arsenal.character);
    const model = this.#model;
    const picked = model.sector;
    return {
      canPick: canPickOnCanvas(),
      facing: picked ? picked.facing : "",
      arc: picked?.arc ?? SECTOR_MAX_DEGREES,
      max: SECTOR_MAX_DEGREES,
      reach: Number.isFinite(reach) ? t("VOLLEY.D100.Dialog.Reach", { metres: reach }) : t("VOLLEY.D100.Dialog.ReachUnknown"),
      picked: picked ? t("VOLLEY.D100.Dialog.Picked", { facing: Math.round(picked.facing), arc: picked.arc, n: model.sectorList?.length ?? 0 }) : "",
      hint: mode === "overwatch" ? t("VOLLEY.D100.Dialog.PickOrderHint") : t("VOLLEY.D100.Dialog.PickHint"),
    };
  }

  /** @param {Record<string, unknown>} order */
  #orderView(order) {
    const mode = typeof order.mode === "string" ? order.mode : "single";
    return t("VOLLEY.D100.Dialog.OrderStanding", {
      mode: t(`VOLLEY.D100.Modes.${mode}`),
      facing: Math.round(Number(order.facing) || 0),
      arc: Number(order.arc) || SECTOR_MAX_DEGREES,
      trigger: typeof order.trigger === "string" && order.trigger ? order.trigger : "—",
    });
  }

  /** @param {VolleyWeapon} weapon */
  #settingView(weapon) {
    const model = this.#model;
    const inside = model.sector ? model.inSector(model.sector) : [];
    const names = inside.map((id) => findTokenDocument(id)?.name ?? id);
    return {
      modes: overwatchModes(weapon).map((id, index) => ({ id, label: t(`VOLLEY.D100.Modes.${id}`), selected: index === 0 })),
      inside: model.sector ? t("VOLLEY.D100.Dialog.InSectorNow", { n: names.length, names: names.join(", ") || "—" }) : "",
    };
  }

  /**
   * @param {VolleyWeapon} weapon
   * @param {Record<string, unknown> | null} order
   * @param {number | null} bs
   */
  #firingView(weapon, order, bs) {
    const orderMode = typeof order?.mode === "string" ? order.mode : "single";
    const rof = rofPositions(weapon.stats.rof);
    const chosen = this.#model.fireMode ?? "order";
    return {
      modes: [
        { id: "order", label: t("VOLLEY.D100.Dialog.OrderMode", { mode: t(`VOLLEY.D100.Modes.${orderMode}`) }), selected: chosen === "order" },
        ...overwatchModes(weapon).map((id) => ({ id, label: t(`VOLLEY.D100.Modes.${id}`), selected: chosen === id })),
      ],
      shots: bs !== null && rof && this.#model.overwatchFireMode() === "single" ? t("VOLLEY.D100.Dialog.SingleShots", { n: maxOverwatchShots(bs, rof.highest) }) : "",
    };
  }

  /**
   * One row of the targets table.
   * @param {TargetRef} row
   * @param {{weapon: VolleyWeapon, character: Record<string, unknown>, primary: TargetRef | null, burst: boolean, mode: DialogMode | null}} how
   */
  #rowView(row, { weapon, character, primary, burst, mode }) {
    const doc = findTokenDocument(row.id);
    const theirs = doc ? arsenalOf(doc, this.plugin.id).character : {};
    const statuses = new Set([...(doc?.actor?.statuses ?? [])].map(String));
    const shooterAt = tokenCentre(this.token);
    const at = doc && doc.parent === this.token.parent ? tokenCentre(doc) : null;
    const distance = shooterAt && at ? distanceBetween(shooterAt, at) : null;
    const band = distance === null ? null : bandOf(distance, weaponRange(weapon, character));
    const isPrimary = row.id === primary?.id;
    const included = !this.#model.excluded.has(row.id);
    const single = mode === "single";
    const primaryAt = primary ? findTokenDocument(primary.id) : null;
    const primaryCentre = primaryAt && primaryAt.parent === this.token.parent ? tokenCentre(primaryAt) : null;
    const toPrimary = burst && !isPrimary && at && primaryCentre ? distanceBetween(primaryCentre, at) : null;
    const decimal = decimalSeparator();
    const wp = typeof theirs.wp === "number" ? theirs.wp : null;
    let note = "";
    if (mode?.startsWith("suppressing") && band !== null && band !== "beyond" && !SUPPRESSION_TEST_BANDS.includes(band)) note = t("VOLLEY.D100.Dialog.NoTest");
    if (single && !isPrimary && included) note = t("VOLLEY.D100.Dialog.IdleNote");
    return {
      id: row.id,
      name: row.name,
      included,
      // A single shot fires at the one chosen above: that row says so; the others have no tick to
      // give (a tick that does nothing would mislead) and say why.
      idle: single && !isPrimary && included,
      includeLabel: t(mode === "overwatch_fire" ? "VOLLEY.D100.Dialog.TriggeredBy" : "VOLLEY.D100.Dialog.IncludeTarget", { name: row.name }),
      isPrimary,
      primaryMark: isPrimary && burst ? t("VOLLEY.D100.Dialog.PrimaryMark") : isPrimary && single ? t("VOLLEY.D100.Dialog.SingleMark") : "",
      range: distance === null ? "—" : `${distance.toFixed(1).replace(".", decimal)} ${t("VOLLEY.D100.Dialog.Metres")}`,
      band: band === null ? "" : t(`VOLLEY.D100.Bands.${band}`),
      beyond: band === "beyond",
      bands: [{ id: "auto", label: t("VOLLEY.D100.Dialog.BandFromMap"), selected: true }, ...BANDS.map((id) => ({ id, label: t(`VOLLEY.D100.Bands.${id}`), selected: false }))],
      bandLabel: t("VOLLEY.D100.Dialog.BandFor", { name: row.name }),
      wp: wp ?? "—",
      noWp: wp === null,
      statuses: [...statuses].filter((id) => id === "suppressed" || id === "prone" || id === "pinned").map((id) => t(`VOLLEY.Statuses.${id}`)).join(", "),
      coverLabel: t("VOLLEY.D100.Dialog.CoverFor", { name: row.name }),
      reachLabel: t("VOLLEY.D100.Dialog.ReachFor", { name: row.name }),
      share: burst && !isPrimary,
      shareLabel: t("VOLLEY.D100.Dialog.ShareFor", { name: row.name }),
      toPrimary: toPrimary === null ? "" : `${toPrimary.toFixed(1).replace(".", decimal)} ${t("VOLLEY.D100.Dialog.Metres")}`,
      farFromPrimary: toPrimary !== null && toPrimary > SECONDARY_REACH_METRES,
      note,
    };
  }

  /**
   * @param {DialogMode | null} mode
   * @param {TargetRef[]} rows
   */
  #rowsHint(mode, rows) {
    if (mode === "overwatch" || this.#waiting()) return "";
    if (rows.length === 0) {
      if (mode === "overwatch_fire") return t("VOLLEY.D100.Dialog.NobodyInOrderSector");
      if (mode && DIALOG_MODES[mode].sector && this.#model.sectorList) return t("VOLLEY.D100.Dialog.NobodyInSector");
      return t("VOLLEY.Dialog.NoTargets");
    }
    return "";
  }

  /**
   * @param {VolleyWeapon} weapon
   * @param {Record<string, unknown>} character
   */
  #upkeepView(weapon, character) {
    const jammed = weapon.state.jammed === true;
    const spoiled = typeof weapon.state.spoiled === "number" ? weapon.state.spoiled : 0;
    const tech = typeof character.tech_use === "number" ? character.tech_use : null;
    const smith = typeof character.weaponsmith === "number" ? character.weaponsmith : null;
    if (!jammed && spoiled === 0) return null;
    return {
      jammed,
      spoiled: spoiled > 0 ? t("VOLLEY.D100.Dialog.SpoiledRounds", { n: spoiled, skill: smith ?? "—" }) : "",
      using: [
        { id: "best", label: t("VOLLEY.D100.Dialog.UnjamBest", { skill: Math.max(tech ?? 0, smith ?? 0) || "—" }), selected: true },
        { id: "tech_use", label: t("VOLLEY.D100.Dialog.UnjamTech", { skill: tech ?? "—" }), selected: false },
        { id: "weaponsmith", label: t("VOLLEY.D100.Dialog.UnjamSmith", { skill: smith ?? "—" }), selected: false },
      ],
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