/**
 * The d100 attack choice as a plain model (issue #37, seed 004 "Shooting"): the mode, the sector aimed
 * and the tokens it lists, the standing order's trigger and the tokens in its sector, the rows left
 * out, the primary target, the modifiers, the upkeep and the morale tests; the buttons (the footer's
 * and the morale section's) and why each cannot be used now; and the choice each button sends. The
 * attack dialog draws from it and writes each edit into it; the module API fills it without a dialog.
 *
 * Pure: no DOM, no Foundry globals. The shooter's standing order comes in the token's state, the
 * scene's tokens with their centres in `plane` (metres when the scene has units, else pixels), and
 * whether the user is a game master (the morale section's For) in `gm`.
 */

import { FormError, readFlag, requireInt } from "../../fields.js";
import { readFacing, tokensInSector } from "../../sector.js";
import { ChoiceModel, ChoiceError } from "../common/choice.js";
import { BANDS, DIALOG_MODES, dialogModes, isDialogMode, overwatchModes, rofPositions, SECTOR_MAX_DEGREES, sectorLength } from "./modes.js";
import { MODIFIER_LIMIT } from "./requests.js";

/**
 * @typedef {import("../../registry.js").ChoiceFacts} ChoiceFacts
 * @typedef {import("../../registry.js").ChoiceField} ChoiceField
 * @typedef {import("../../registry.js").ChoiceMessage} ChoiceMessage
 * @typedef {import("../../registry.js").ChoiceActionSpec} ChoiceActionSpec
 * @typedef {import("../../registry.js").WeaponReadout} WeaponReadout
 * @typedef {import("../../profile/types.js").VolleyWeapon} VolleyWeapon
 * @typedef {import("./modes.js").DialogMode} DialogMode
 * @typedef {{id: string, name: string}} TargetRef
 * @typedef {{facing: number, arc: number}} PickedSector
 * @typedef {{inMetres: boolean, origin: {x: number, y: number} | null, tokens: {id: string, name: string, x: number, y: number}[]}} Plane
 */

const D = "VOLLEY.D100.Dialog";

/** The morale buttons of the body: each rolls with the Suppression and morale modifier, for that roll only. */
export const MORALE_ACTIONS = Object.freeze(["suppression_test", "recover", "enter_melee"]);

/** Seed 004: the classes that do not fire while locked in melee (rules/d100/handling.py `_NO_MELEE`). */
const NO_MELEE_CLASSES = Object.freeze(["long_rifle", "heavy"]);

/** @param {unknown} value */
const isRecord = (value) => typeof value === "object" && value !== null && !Array.isArray(value);

export class D100Choice extends ChoiceModel {
  /** The Mode select's choice (checked against the weapon each time it is read). @type {string | null} */
  mode = null;
  /** The sector aimed (picked on the map or typed). @type {PickedSector | null} */
  sector = null;
  /** Tokens the aimed sector listed, plus any the user added. @type {string[] | null} */
  sectorList = null;
  /** Tokens in the standing order's sector (overwatch fire), plus any the user added. @type {string[] | null} */
  triggerList = null;
  /** Rows the user unticked. @type {Set<string>} */
  excluded = new Set();
  /** The primary target the user chose. @type {string | null} */
  primary = null;
  /** Overwatch fire's mode: "order" (the order's own) or one picked when the trigger came. @type {string | null} */
  fireMode = null;
  /** The standing order's trigger was declared met: its fire is the step shown. */
  triggerMet = false;

  /** @param {ChoiceFacts} facts */
  constructor(facts) {
    super(facts);
    this.reset();
  }

  // --- what the token and its weapon allow ------------------------------------------------------

  /** The token's standing overwatch order, or null. @returns {Record<string, unknown> | null} */
  order() {
    const order = this.facts.state?.overwatch;
    return isRecord(order) ? /** @type {Record<string, unknown>} */ (order) : null;
  }

  /**
   * The mode in force: the user's, while the weapon allows it; else the weapon's first (overwatch fire
   * when an order stands).
   * @returns {DialogMode | null}
   */
  currentMode() {
    const weapon = this.facts.weapon;
    if (!weapon) return null;
    const allowed = dialogModes(weapon, { order: this.order() !== null });
    return isDialogMode(this.mode) && allowed.includes(this.mode) ? this.mode : (allowed[0] ?? null);
  }

  /** The order stands and its trigger has not been declared met: nothing to fire, nobody listed. */
  waiting() {
    return this.currentMode() === "overwatch_fire" && !this.triggerMet;
  }

  /** The standing order's mode. */
  orderMode() {
    const mode = this.order()?.mode;
    return typeof mode === "string" ? mode : "single";
  }

  /** The mode overwatch fire answers with: the order's, or the one picked now. */
  overwatchFireMode() {
    return this.fireMode && this.fireMode !== "order" ? this.fireMode : this.orderMode();
  }

  /** A burst fires in the mode in force (its rows take shares). */
  burst() {
    const mode = this.currentMode();
    const spec = mode ? DIALOG_MODES[mode] : null;
    if (spec?.action === "attack") return spec.mode !== "single" && spec.mode !== "suppressing";
    return mode === "overwatch_fire" && this.overwatchFireMode() !== "single";
  }

  // --- targets ------------------------------------------------------------------------------------

  /** @returns {Plane} */
  #plane() {
    const plane = /** @type {Plane | undefined} */ (this.facts.plane);
    return plane ?? { inMetres: false, origin: null, tokens: [] };
  }

  /**
   * Tokens of the scene (not the shooter) inside a sector opening from the shooter, nearest first.
   * @param {PickedSector} sector
   * @returns {string[]}
   */
  inSector(sector) {
    const weapon = this.facts.weapon;
    const { inMetres, origin, tokens } = this.#plane();
    if (!weapon || !origin) return [];
    const length = inMetres ? sectorLength(weapon, this.facts.character) : Infinity;
    const others = tokens.filter((token) => token.id !== this.facts.token.id).map(({ id, x, y }) => ({ id, centre: { x, y } }));
    return tokensInSector({ origin, facing: sector.facing, arc: sector.arc, length }, others).map((found) => found.id);
  }

  /** The list the rows come from for the mode in force, or null for the user's targets. @returns {string[] | null} */
  list() {
    const mode = this.currentMode();
    if (!mode) return null;
    if (mode === "overwatch_fire") {
      if (!this.triggerList) {
        const order = this.order();
        this.triggerList = order ? this.inSector({ facing: Number(order.facing) || 0, arc: Number(order.arc) || SECTOR_MAX_DEGREES }) : [];
      }
      return this.triggerList;
    }
    if (DIALOG_MODES[mode].sector && this.sectorList) return this.sectorList;
    return null;
  }

  /** The user's own targets (or the API's). @returns {TargetRef[]} */
  userTargets() {
    return this.facts.targets.map(({ id, name }) => ({ id, name }));
  }

  /** A token's name on the scene, or null when the scene has it not. @param {string} id */
  #named(id) {
    const found = this.#plane().tokens.find((token) => token.id === id) ?? this.facts.targets.find((token) => token.id === id);
    return found ? found.name : null;
  }

  /** Every row the dialog shows, ticked or not, primary first. @returns {TargetRef[]} */
  rows() {
    if (this.currentMode() === "overwatch" || this.waiting()) return [];
    const list = this.list();
    /** @type {TargetRef[]} */
    const rows =
      list === null
        ? this.userTargets()
        : list.flatMap((id) => {
            const name = this.#named(id);
            return name !== null && id !== this.facts.token.id ? [{ id, name }] : [];
          });
    const primary = this.primaryOf(rows);
    return primary ? [primary, ...rows.filter((row) => row.id !== primary.id)] : rows;
  }

  /** @param {TargetRef[]} rows @returns {TargetRef | null} */
  primaryOf(rows) {
    const ticked = rows.filter((row) => !this.excluded.has(row.id));
    return ticked.find((row) => row.id === this.primary) ?? ticked[0] ?? null;
  }

  /** The targets fired at: the ticked rows, primary first; for a single shot, the primary alone. @returns {TargetRef[]} */
  chosenTargets() {
    const rows = this.rows().filter((row) => !this.excluded.has(row.id));
    return this.currentMode() === "single" ? rows.slice(0, 1) : rows;
  }

  /** Tokens of the scene not listed yet, for the Add select. @returns {TargetRef[]} */
  addChoices() {
    const listed = new Set(this.rows().map((row) => row.id));
    return this.#plane().tokens.filter((token) => token.id !== this.facts.token.id && !listed.has(token.id)).map(({ id, name }) => ({ id, name }));
  }

  /** Single shots and bursts fire at the user's targets; a sector's or a trigger's list is edited. */
  addable() {
    const mode = this.currentMode();
    if (mode === "overwatch_fire") return !this.waiting();
    return Boolean(mode && DIALOG_MODES[mode].sector && mode !== "overwatch");
  }

  // --- what the user does besides typing ------------------------------------------------------------

  /**
   * List the tokens inside a sector just aimed (clicked or typed); the user's edits of the old list go.
   * @param {PickedSector} sector
   */
  aimAt(sector) {
    this.sector = sector;
    this.sectorList = this.inSector(sector);
    this.excluded.clear();
    this.primary = null;
    this.#fillDefaults();
  }

  /**
   * The sector as its fields say: the Facing typed (or the one aimed before), the width. False when
   * nothing is aimed yet or it is aimed as it was; throws FormError naming the field that breaks its rule.
   * @param {Record<string, string>} values
   */
  aimTyped(values) {
    const arc = requireInt(values.arc || SECTOR_MAX_DEGREES, "arc", { min: 1, max: SECTOR_MAX_DEGREES });
    const typed = (values.facing ?? "").trim();
    if (!typed && !this.sector) return false;
    const sector = { facing: typed ? readFacing(typed) : /** @type {PickedSector} */ (this.sector).facing, arc };
    if (this.sector && this.sector.facing === sector.facing && this.sector.arc === sector.arc) return false;
    this.aimAt(sector);
    return true;
  }

  /** Add a token of the scene to the list. @param {string} id */
  addTarget(id) {
    if (this.currentMode() === "overwatch_fire") this.triggerList = [...(this.list() ?? []), id];
    else {
      // Before a sector is aimed the list is the user's targets: the added token joins them.
      const base = this.list() ?? this.userTargets().map((row) => row.id);
      this.sectorList = [...base.filter((known) => known !== id), id];
    }
    this.excluded.delete(id);
    this.#fillDefaults();
  }

  /** List the standing order's sector again. */
  rescan() {
    this.triggerList = null;
    this.excluded.clear();
    this.#fillDefaults();
  }

  /** "The trigger is met" (true) or "Not yet" (false). @param {boolean} met */
  declareTrigger(met) {
    this.triggerMet = met;
    this.triggerList = null;
    this.#fillDefaults();
  }

  /** An order was set, fired or lifted: a new one turns the choice to firing it. @param {boolean} standing */
  orderChanged(standing) {
    this.triggerList = null;
    this.triggerMet = false;
    if (standing) this.mode = "overwatch_fire";
    this.#fillDefaults();
  }

  // --- the fields --------------------------------------------------------------------------------------

  /** @returns {ChoiceField[]} */
  fields() {
    const weapon = this.facts.weapon;
    if (!weapon) return [];
    const mode = this.currentMode();
    const spec = mode ? DIALOG_MODES[mode] : null;
    const modes = dialogModes(weapon, { order: this.order() !== null });
    const limit = { min: -MODIFIER_LIMIT, max: MODIFIER_LIMIT };
    /** @type {ChoiceField[]} */
    const fields = [
      {
        name: "mode",
        label: { key: `${D}.Mode` },
        kind: "select",
        default: mode ?? "",
        options: modes.map((id) => ({ value: id, label: { key: `VOLLEY.D100.DialogModes.${id}` } })),
        disabled: modes.length ? null : { key: `${D}.NoModes` },
      },
      { name: "modifier", label: { key: `${D}.Modifier` }, kind: "int", default: "0", ...limit },
      { name: "moved", label: { key: `${D}.Moved` }, kind: "flag", default: "off" },
      { name: "in_melee", label: { key: `${D}.InMelee` }, kind: "flag", default: "off" },
    ];
    if (mode && spec?.sector && mode !== "overwatch_fire") {
      fields.push(
        { name: "facing", label: { key: `${D}.Facing` }, kind: "int", default: this.sector ? String(this.sector.facing) : "", min: 0, max: 359 },
        { name: "arc", label: { key: `${D}.Arc` }, kind: "int", default: String(this.sector?.arc ?? SECTOR_MAX_DEGREES), min: 1, max: SECTOR_MAX_DEGREES },
      );
    }
    if (mode === "overwatch") {
      const options = overwatchModes(weapon).map((id) => ({ value: id, label: { key: `VOLLEY.D100.Modes.${id}` } }));
      fields.push(
        { name: "order_mode", label: { key: `${D}.OrderModeLabel` }, kind: "select", default: options[0]?.value ?? "", options },
        { name: "trigger", label: { key: `${D}.Trigger` }, kind: "text", default: "" },
      );
    }
    if (mode === "overwatch_fire" && !this.waiting()) {
      const options = [
        { value: "order", label: { key: `${D}.OrderMode`, values: { mode: { key: `VOLLEY.D100.Modes.${this.orderMode()}` } } } },
        ...overwatchModes(weapon).map((id) => ({ value: id, label: { key: `VOLLEY.D100.Modes.${id}` } })),
      ];
      fields.push({ name: "fire_mode", label: { key: `${D}.FireMode` }, kind: "select", default: this.fireMode ?? "order", options });
    }
    const burst = this.burst();
    const rows = this.rows();
    const primary = this.primaryOf(rows);
    if ((burst || mode === "single") && rows.length > 1) {
      const options = rows.filter((row) => !this.excluded.has(row.id)).map((row) => ({ value: row.id, label: { key: row.name } }));
      fields.push({ name: "primary", label: { key: mode === "single" ? `${D}.SingleTarget` : `${D}.Primary` }, kind: "select", default: primary?.id ?? "", options });
    }
    for (const row of rows) {
      const name = { name: row.name };
      const isPrimary = row.id === primary?.id;
      const included = !this.excluded.has(row.id);
      // A single shot's other rows have no tick (it would do nothing).
      if (!(mode === "single" && !isPrimary && included)) {
        fields.push({ name: `t.${row.id}.include`, label: { key: mode === "overwatch_fire" ? `${D}.TriggeredBy` : `${D}.IncludeTarget`, values: name }, kind: "flag", default: included ? "on" : "off" });
      }
      fields.push(
        {
          name: `t.${row.id}.band`,
          label: { key: `${D}.BandFor`, values: name },
          kind: "select",
          default: "auto",
          options: [{ value: "auto", label: { key: `${D}.BandFromMap` } }, ...BANDS.map((id) => ({ value: id, label: { key: `VOLLEY.D100.Bands.${id}` } }))],
        },
        { name: `t.${row.id}.cover`, label: { key: `${D}.CoverFor`, values: name }, kind: "flag", default: "off" },
        { name: `t.${row.id}.reach`, label: { key: `${D}.ReachFor`, values: name }, kind: "flag", default: "on" },
      );
      if (burst && !isPrimary) fields.push({ name: `t.${row.id}.share`, label: { key: `${D}.ShareFor`, values: name }, kind: "int", default: "0", min: 0, max: 100 });
    }
    const adding = this.addable() ? this.addChoices() : [];
    if (adding.length) {
      fields.push({
        name: "add_token",
        label: { key: `${D}.AddToken` },
        kind: "select",
        default: adding[0].id,
        options: adding.map((token) => ({ value: token.id, label: { key: token.name } })),
      });
    }
    if (burst) fields.push({ name: "gm_allows_wider", label: { key: `${D}.Wider` }, kind: "flag", default: "off" });
    const jammed = weapon.state.jammed === true;
    const spoiled = typeof weapon.state.spoiled === "number" ? weapon.state.spoiled : 0;
    if (jammed || spoiled > 0) {
      if (jammed) {
        const tech = typeof this.facts.character.tech_use === "number" ? this.facts.character.tech_use : null;
        const smith = typeof this.facts.character.weaponsmith === "number" ? this.facts.character.weaponsmith : null;
        fields.push({
          name: "using",
          label: { key: `${D}.UnjamUsing` },
          kind: "select",
          default: "best",
          options: [
            { value: "best", label: { key: `${D}.UnjamBest`, values: { skill: Math.max(tech ?? 0, smith ?? 0) || "—" } } },
            { value: "tech_use", label: { key: `${D}.UnjamTech`, values: { skill: tech ?? "—" } } },
            { value: "weaponsmith", label: { key: `${D}.UnjamSmith`, values: { skill: smith ?? "—" } } },
          ],
        });
      }
      fields.push({ name: "tech_modifier", label: { key: `${D}.TechModifier` }, kind: "int", default: "0", ...limit });
    }
    if (this.facts.gm) {
      fields.push({
        name: "who",
        label: { key: `${D}.Who` },
        kind: "select",
        default: "self",
        options: [
          { value: "self", label: { key: `${D}.WhoSelf` } },
          { value: "targets", label: { key: `${D}.WhoTargets` } },
        ],
      });
    }
    fields.push(
      { name: "morale_modifier", label: { key: `${D}.MoraleModifier` }, kind: "int", default: "0", ...limit },
      { name: "self_cover", label: { key: `${D}.SelfCover` }, kind: "flag", default: "off" },
      { name: "self_reach", label: { key: `${D}.SelfReach` }, kind: "flag", default: "on" },
      { name: "quiet", label: { key: `${D}.Quiet` }, kind: "flag", default: "off" },
    );
    return fields;
  }

  /**
   * Every field the form shows now and has no value for yet takes its default (a fresh part drawn).
   * The dialog hands its form over whole (`assign`); this keeps a choice filled without one complete.
   */
  #fillDefaults() {
    for (const field of this.fields()) if (!(field.name in this.values)) this.values[field.name] = field.default;
  }

  reset() {
    super.reset();
    this.#fillDefaults();
  }

  /**
   * Set a field as a user would. The fields that reshape the form (the mode, the primary, how overwatch
   * fires, a row's tick, the sector's Facing and width) change the choice as the dialog's do.
   * @param {string} name
   * @param {unknown} value
   */
  set(name, value) {
    super.set(name, value);
    const text = this.values[name] ?? "";
    if (name === "mode") this.mode = text;
    else if (name === "fire_mode") this.fireMode = text;
    else if (name === "primary") this.primary = text;
    else if (/^t\..+\.include$/.test(name)) {
      const id = name.slice(2, -".include".length);
      if (text === "on") this.excluded.delete(id);
      else this.excluded.add(id);
    } else if (name === "facing" || name === "arc") {
      try {
        this.aimTyped(this.values);
      } catch (error) {
        const field = /** @type {{field?: unknown}} */ (error).field;
        if (error instanceof FormError && typeof field === "string") throw new ChoiceError(field, this.labelOf(field), error.key, error.values);
        throw error;
      }
    }
    this.#fillDefaults();
  }

  // --- the buttons -------------------------------------------------------------------------------------

  /**
   * The rounds the mode fires, as the rules count them: one for a single shot or a thrown weapon, the
   * RoF's position for a burst and for suppressing fire's rate, and for overwatch fire one shot per
   * token (single) or the burst's RoF.
   * @param {VolleyWeapon} weapon
   * @param {DialogMode} mode
   */
  roundsNeeded(weapon, mode) {
    if (["thrown", "grenade"].includes(String(weapon.stats.class))) return 1;
    const rof = rofPositions(weapon.stats.rof);
    const of = (/** @type {string} */ fired) => (fired === "single" ? 1 : fired.startsWith("short") || fired === "wide_short_burst" ? (rof?.short ?? 0) : (rof?.long ?? 0));
    if (mode === "overwatch") return 0;
    if (mode === "overwatch_fire") {
      const fired = this.overwatchFireMode();
      return fired === "single" ? Math.max(1, this.chosenTargets().length) : of(fired);
    }
    const spec = DIALOG_MODES[mode];
    if (spec.mode === "suppressing") return spec.rate === "semi" ? (rof?.short ?? 0) : (rof?.long ?? 0);
    return of(String(spec.mode));
  }

  /**
   * The footer's buttons for the weapon; the first `primary` one is Fire.
   * @param {WeaponReadout} readout
   * @returns {ChoiceActionSpec[]}
   */
  actions(readout) {
    const weapon = this.facts.weapon;
    if (!weapon) return [];
    const mode = this.currentMode();
    /** @type {ChoiceMessage | null} */
    const jammedBlocks = readout.jammed ? { key: "VOLLEY.Dialog.JammedBlocks" } : null;
    /** @type {ChoiceActionSpec[]} */
    const actions = [];
    if (mode === "overwatch") {
      actions.push({ action: "overwatch", label: { key: `${D}.SetOverwatch` }, icon: "fa-solid fa-eye", primary: true, blocked: jammedBlocks });
    } else if (this.waiting()) {
      // Where Set overwatch stood, a button that does nothing: the order waits for its trigger.
      actions.push({ action: "overwatch_waiting", label: { key: `${D}.Waiting` }, icon: "fa-solid fa-stopwatch", primary: true, blocked: { key: `${D}.WaitingHint` } });
      actions.push({ action: "trigger_met", label: { key: `${D}.TriggerMet` }, icon: "fa-solid fa-bullseye", hint: { key: `${D}.TriggerMetHint` }, blocked: jammedBlocks });
    } else {
      // The rounds this shot fires must be loaded (seed 004; the rules refuse a short magazine, #31).
      const needed = mode ? this.roundsNeeded(weapon, mode) : 0;
      const loaded = typeof weapon.state.loaded === "number" ? weapon.state.loaded : 0;
      /** @type {ChoiceMessage | null} */
      const short = needed > loaded ? { key: `${D}.ShortMagazine`, values: { loaded, needed } } : null;
      actions.push({
        action: mode === "overwatch_fire" ? "overwatch_fire" : "attack",
        label: { key: "VOLLEY.Dialog.Fire" },
        icon: "fa-solid fa-crosshairs",
        primary: true,
        needsTargets: true,
        blocked: jammedBlocks ?? (mode ? short : { key: `${D}.NoModes` }),
      });
      if (mode === "overwatch_fire") actions.push({ action: "trigger_back", label: { key: `${D}.NotYet` }, icon: "fa-solid fa-eye", hint: { key: `${D}.NotYetHint` } });
    }
    if (this.order()) actions.push({ action: "lift_overwatch", label: { key: `${D}.LiftOverwatch` }, icon: "fa-solid fa-eye-slash" });
    actions.push({ action: "reload", label: { key: "VOLLEY.Dialog.Reload" }, icon: "fa-solid fa-rotate", blocked: readout.jammed ? { key: `${D}.ReloadJammed` } : null });
    if (readout.jammed) actions.push({ action: "unjam", label: { key: `${D}.Unjam` }, icon: "fa-solid fa-wrench" });
    if (typeof weapon.state.spoiled === "number" && weapon.state.spoiled > 0) {
      actions.push({ action: "recover_ammo", label: { key: `${D}.RecoverAmmo` }, icon: "fa-solid fa-box-open" });
    }
    if (weapon.stats.class === "heavy") {
      actions.push(
        weapon.state.braced === true
          ? { action: "release_brace", label: { key: `${D}.ReleaseBrace` }, icon: "fa-solid fa-person-walking" }
          : { action: "brace", label: { key: `${D}.Brace` }, icon: "fa-solid fa-anchor" },
      );
    }
    return actions;
  }

  /**
   * The buttons of the body (the morale section's): a suppression test, recovery, entering melee.
   * Nothing of the weapon holds them back; "For: the listed targets" with nobody listed is refused by
   * the request, naming the For field.
   * @returns {ChoiceActionSpec[]}
   */
  bodyActions() {
    return [
      { action: "suppression_test", label: { key: `${D}.SuppressionTest` }, icon: "fa-solid fa-person-falling-burst", blocked: null },
      { action: "recover", label: { key: `${D}.Recover` }, icon: "fa-solid fa-heart-pulse", blocked: null },
      { action: "enter_melee", label: { key: `${D}.EnterMelee` }, icon: "fa-solid fa-hand-fist", blocked: null },
    ];
  }

  /** @returns {string | null} */
  previewAction() {
    const mode = this.currentMode();
    if (!mode || mode === "overwatch" || this.waiting()) return null;
    return mode === "overwatch_fire" ? "overwatch_fire" : "attack";
  }

  // --- the request -------------------------------------------------------------------------------------

  /**
   * The system's part of the choice for `action` (FormError names a bad field).
   * @param {string} action
   * @returns {Record<string, unknown>}
   */
  systemRequest(action) {
    const values = this.formValues();
    const limit = { min: -MODIFIER_LIMIT, max: MODIFIER_LIMIT };
    const shooter = { moved: readFlag(values.moved), in_melee: readFlag(values.in_melee) };
    // Seed 004: locked in melee, a long rifle or a heavy weapon does not fire, and nothing is braced.
    // Refused here, naming the box, not after sending (#31).
    if (shooter.in_melee) {
      const weapon = this.facts.weapon;
      if ((action === "attack" || action === "overwatch_fire") && NO_MELEE_CLASSES.includes(String(weapon?.stats.class ?? ""))) {
        throw new FormError("in_melee", "VOLLEY.D100.Form.NoFireInMelee", { weapon: weapon?.name ?? "" });
      }
      if (action === "brace") throw new FormError("in_melee", "VOLLEY.D100.Form.NoBraceInMelee");
    }
    switch (action) {
      case "attack": {
        const mode = this.currentMode();
        const spec = mode ? DIALOG_MODES[mode] : null;
        if (!spec || spec.action !== "attack") return { ...shooter, mode: "single", targets: [] };
        /** @type {Record<string, unknown>} */
        const fields = {
          ...shooter,
          mode: spec.mode,
          modifier: requireInt(values.modifier || 0, "modifier", limit),
          targets: this.#requestTargets(values, { shares: spec.mode !== "single" && spec.mode !== "suppressing" }),
        };
        if (spec.rate) fields.rate = spec.rate;
        if (spec.mode === "suppressing") {
          // Suppressing fire sweeps a sector: with no Facing there is none, and nothing is guessed (#31).
          this.#sectorAimed(values);
          fields.arc = requireInt(values.arc || SECTOR_MAX_DEGREES, "arc", { min: 1, max: SECTOR_MAX_DEGREES });
        } else if (readFlag(values.gm_allows_wider)) fields.gm_allows_wider = true;
        return fields;
      }
      case "overwatch_fire":
        return {
          ...shooter,
          modifier: requireInt(values.modifier || 0, "modifier", limit),
          fire_mode: values.fire_mode || "order",
          targets: this.#requestTargets(values, { shares: this.overwatchFireMode() !== "single" }),
          ...(readFlag(values.gm_allows_wider) ? { gm_allows_wider: true } : {}),
        };
      case "overwatch":
        // An order's sector is where it watches: an empty Facing is refused, never taken for 0° (#31).
        this.#sectorAimed(values);
        return {
          ...shooter,
          order: {
            mode: values.order_mode || "single",
            trigger: values.trigger ?? "",
            facing: requireInt(values.facing, "facing", { min: -360, max: 720 }),
            arc: requireInt(values.arc || SECTOR_MAX_DEGREES, "arc", { min: 1, max: SECTOR_MAX_DEGREES }),
          },
        };
      case "lift_overwatch":
      case "reload":
      case "brace":
      case "release_brace":
        return shooter;
      case "unjam":
      case "recover_ammo":
        return { ...shooter, using: values.using || "best", tech_modifier: requireInt(values.tech_modifier || 0, "tech_modifier", limit) };
      case "suppression_test":
      case "recover":
      case "enter_melee": {
        const who = values.who === "targets" ? "targets" : "self";
        const targets = who === "targets" ? this.#requestTargets(values, { shares: false }) : [];
        // "For: the listed targets" with nobody listed is refused here, naming the For field, not by the
        // referee's browser after sending (#31: the generated walk found it).
        if (who === "targets" && targets.length === 0) throw new FormError("who", "VOLLEY.D100.Form.NobodyListed");
        return {
          who,
          morale_modifier: requireInt(values.morale_modifier || 0, "morale_modifier", limit),
          quiet: readFlag(values.quiet),
          cover: readFlag(values.self_cover),
          reach_cover: readFlag(values.self_reach),
          targets,
        };
      }
      default:
        return {};
    }
  }

  /**
   * A sector is aimed and its Facing says where: refused naming the Facing field otherwise.
   * @param {Record<string, string>} values
   */
  #sectorAimed(values) {
    if (!(values.facing ?? "").trim() || !this.sector) throw new FormError("facing", "VOLLEY.Form.Required");
  }

  /**
   * The targets as the player chose them, primary first: cover, reach, band, and for a burst each
   * secondary's share (a secondary with no share is not fired at).
   * @param {Record<string, string>} values
   * @param {{shares: boolean}} how
   */
  #requestTargets(values, { shares }) {
    /** @type {Record<string, unknown>[]} */
    const out = [];
    for (const [index, target] of this.chosenTargets().entries()) {
      const field = (/** @type {string} */ name) => values[`t.${target.id}.${name}`];
      /** @type {Record<string, unknown>} */
      const entry = {
        id: target.id,
        cover: readFlag(field("cover")),
        // Every row has the box: absent from the form means unticked.
        reach_cover: readFlag(field("reach")),
        band: field("band") || "auto",
      };
      if (shares && index > 0) {
        const share = requireInt(field("share") || 0, `t.${target.id}.share`, { min: 0, max: 100 });
        if (share === 0) continue;
        entry.share = share;
      }
      out.push(entry);
    }
    return out;
  }
}

/**
 * The d100 choice for these facts, at the dialog's defaults.
 * @param {ChoiceFacts} facts
 */
export function d100Choice(facts) {
  return new D100Choice(facts);
}
