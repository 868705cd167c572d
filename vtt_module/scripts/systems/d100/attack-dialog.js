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
 */

import { isShowing } from "../../foundry/app-state.js";
import { AttackDialog, formValues } from "../common/attack-dialog.js";
import { FormError, readFlag, requireInt } from "../../fields.js";
import { distanceBetween, readFacing, tokensInSector, wholeDegrees } from "../../sector.js";
import { arsenalOf, findTokenDocument, metresPerPixel, placedTokens, tokenCentre, tokenCentrePixels, tokenState } from "../../foundry/documents.js";
import { canPickOnCanvas, pickDirection } from "../../foundry/sector-picker.js";
import { bridgeOnline } from "../../foundry/bridge.js";
import { formatPercent } from "../../odds-preview.js";
import { decimalSeparator, problemText, t } from "../../foundry/words.js";
import {
  BANDS,
  bandOf,
  DIALOG_MODES,
  dialogModes,
  isDialogMode,
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

/** The morale buttons: each rolls with the Suppression and morale modifier, for that roll only. */
const MORALE_ACTIONS = new Set(["suppression_test", "recover", "enter_melee"]);

/**
 * @typedef {import("../../profile/types.js").VolleyWeapon} VolleyWeapon
 * @typedef {import("../../profile/weapons.js").Arsenal} Arsenal
 * @typedef {import("../common/attack-dialog.js").TargetRef} TargetRef
 * @typedef {import("../common/attack-dialog.js").ActionSpec} ActionSpec
 * @typedef {import("./modes.js").DialogMode} DialogMode
 * @typedef {import("../../sector.js").Point} Point
 * @typedef {{facing: number, arc: number}} PickedSector
 */

/** @param {unknown} value */
const isRecord = (value) => typeof value === "object" && value !== null && !Array.isArray(value);

/** Seed 004: the classes that do not fire while locked in melee (rules/d100/handling.py `_NO_MELEE`). */
const NO_MELEE_CLASSES = Object.freeze(["long_rifle", "heavy"]);

export default class D100AttackDialog extends AttackDialog {
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

  /** The Mode select's choice (checked against the weapon each time it is read). @type {string | null} */
  mode = null;
  /** The sector aimed (picked on the map or typed) for wide bursts, suppressing fire and setting overwatch. @type {PickedSector | null} */
  sector = null;
  /** Tokens the picked sector listed, plus any the user added. @type {string[] | null} */
  sectorList = null;
  /** Tokens in the standing order's sector (overwatch fire), plus any the user added. @type {string[] | null} */
  triggerList = null;
  /** Rows the user unticked. @type {Set<string>} */
  excluded = new Set();
  /** The primary target the user chose. @type {string | null} */
  primary = null;
  /** Overwatch fire's mode select: "order" (the order's own) or a mode picked when the trigger came. @type {string | null} */
  fireMode = null;
  /** Whether the morale section is open (kept across re-renders). */
  moraleOpen = false;
  /** The standing order as last seen (JSON), to notice one set, fired or lifted. @type {string | null | undefined} */
  #orderSeen = undefined;

  // --- what the token and its weapon allow ------------------------------------------------------

  /** @returns {{weapon: VolleyWeapon | null, arsenal: Arsenal}} */
  #current() {
    const arsenal = arsenalOf(this.token, this.plugin.id);
    const weapon = arsenal.weapons.find((w) => w.id === this.weaponId) ?? arsenal.weapons.find((w) => w.id === arsenal.current) ?? arsenal.weapons[0] ?? null;
    return { weapon, arsenal };
  }

  /**
   * A standing order waits for its trigger; firing it is a step of its own, opened by "The trigger is
   * met" (never by the button that set it, so a second click cannot spend the order).
   */
  triggerMet = false;

  /** The order stands and its trigger has not been declared met: nothing to fire, nobody listed. */
  #waiting() {
    return this.currentMode() === "overwatch_fire" && !this.triggerMet;
  }

  /** The token's standing overwatch order, or null. @returns {Record<string, unknown> | null} */
  #order() {
    const order = tokenState(this.token).overwatch;
    return isRecord(order) ? /** @type {Record<string, unknown>} */ (order) : null;
  }

  /**
   * The mode in force: the user's, while the weapon allows it; else overwatch fire when an order stands,
   * else the weapon's first.
   * @returns {DialogMode | null}
   */
  currentMode() {
    const { weapon } = this.#current();
    if (!weapon) return null;
    const allowed = dialogModes(weapon, { order: this.#order() !== null });
    const chosen = isDialogMode(this.mode) && allowed.includes(this.mode) ? this.mode : (allowed[0] ?? null);
    return chosen;
  }

  // --- targets ------------------------------------------------------------------------------------

  /** The shooter's centre and the map's scale: metres when the scene's units allow, else pixels. */
  #geometry() {
    const metres = tokenCentre(this.token);
    if (metres) return { origin: metres, inMetres: true, scale: metresPerPixel(this.token.parent) };
    return { origin: tokenCentrePixels(this.token), inMetres: false, scale: null };
  }

  /**
   * Tokens of the scene (not the shooter) inside a sector opening from the shooter, nearest first.
   * @param {PickedSector} sector
   * @param {VolleyWeapon} weapon
   * @returns {string[]}
   */
  #inSector(sector, weapon) {
    const { origin, inMetres } = this.#geometry();
    if (!origin) return [];
    const length = inMetres ? sectorLength(weapon, this.#current().arsenal.character) : Infinity;
    const others = placedTokens(this.token, inMetres ? tokenCentre : tokenCentrePixels).filter((placed) => placed.id !== this.token.id);
    return tokensInSector({ origin, facing: sector.facing, arc: sector.arc, length }, others).map((found) => found.id);
  }

  /** The list the rows come from for the mode in force, or null for the user's targets. @returns {string[] | null} */
  #list() {
    const mode = this.currentMode();
    if (!mode) return null;
    if (mode === "overwatch_fire") {
      if (!this.triggerList) {
        const order = this.#order();
        const { weapon } = this.#current();
        this.triggerList = order && weapon ? this.#inSector({ facing: Number(order.facing) || 0, arc: Number(order.arc) || SECTOR_MAX_DEGREES }, weapon) : [];
      }
      return this.triggerList;
    }
    if (DIALOG_MODES[mode].sector && this.sectorList) return this.sectorList;
    return null;
  }

  /** The user's own targets (Foundry: T over a token). @returns {TargetRef[]} */
  userTargets() {
    return super.targets();
  }

  /** Every row the dialog shows, ticked or not, primary first. @returns {TargetRef[]} */
  #rows() {
    if (this.currentMode() === "overwatch" || this.#waiting()) return [];
    const list = this.#list();
    /** @type {TargetRef[]} */
    let rows;
    if (list === null) rows = this.userTargets();
    else {
      rows = list.flatMap((id) => {
        const doc = findTokenDocument(id);
        return doc && doc.id !== this.token.id ? [{ id, name: doc.name ?? id }] : [];
      });
    }
    const primary = this.#primaryOf(rows);
    return primary ? [primary, ...rows.filter((row) => row.id !== primary.id)] : rows;
  }

  /**
   * @param {TargetRef[]} rows
   * @returns {TargetRef | null}
   */
  #primaryOf(rows) {
    const ticked = rows.filter((row) => !this.excluded.has(row.id));
    return ticked.find((row) => row.id === this.primary) ?? ticked[0] ?? null;
  }

  /**
   * The targets fired at: the ticked rows, primary first; for a single shot, the primary alone.
   * @returns {TargetRef[]}
   */
  targets() {
    const rows = this.#rows().filter((row) => !this.excluded.has(row.id));
    return this.currentMode() === "single" ? rows.slice(0, 1) : rows;
  }

  // --- the body -------------------------------------------------------------------------------------

  /**
   * @param {VolleyWeapon} weapon
   * @param {Arsenal} arsenal
   * @param {TargetRef[]} _targets
   */
  async systemContext(weapon, arsenal, _targets) {
    const mode = this.currentMode();
    this.mode = mode;
    const character = arsenal.character;
    const order = this.#order();
    const statuses = new Set([...(this.token.actor?.statuses ?? [])].map(String));
    const rows = this.#rows();
    const primary = this.#primaryOf(rows);
    const spec = mode ? DIALOG_MODES[mode] : null;
    const firing = mode === "overwatch_fire" ? this.#overwatchFireMode() : null;
    const burst = spec?.action === "attack" ? spec.mode !== "single" && spec.mode !== "suppressing" : firing !== null && firing !== "single";
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
      primaryChoices: (burst || mode === "single") && rows.length > 1 ? rows.filter((row) => !this.excluded.has(row.id)).map((row) => ({ ...row, selected: row.id === primary?.id })) : [],
      primaryLabel: t(mode === "single" ? "VOLLEY.D100.Dialog.SingleTarget" : "VOLLEY.D100.Dialog.Primary"),
      primaryHint: t(mode === "single" ? "VOLLEY.D100.Dialog.SingleTargetHint" : "VOLLEY.D100.Dialog.PrimaryHint"),
      addChoices: this.#addChoices(rows),
      // Single shots and bursts fire at the user's targets (T over a token); a sector's list is edited here.
      addable: (mode === "overwatch_fire" && !this.#waiting()) || Boolean(spec?.sector && mode !== "overwatch" && mode !== "overwatch_fire"),
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
    const picked = this.sector;
    return {
      canPick: canPickOnCanvas(),
      facing: picked ? picked.facing : "",
      arc: picked?.arc ?? SECTOR_MAX_DEGREES,
      max: SECTOR_MAX_DEGREES,
      reach: Number.isFinite(reach) ? t("VOLLEY.D100.Dialog.Reach", { metres: reach }) : t("VOLLEY.D100.Dialog.ReachUnknown"),
      picked: picked ? t("VOLLEY.D100.Dialog.Picked", { facing: Math.round(picked.facing), arc: picked.arc, n: this.sectorList?.length ?? 0 }) : "",
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
    const inside = this.sector ? this.#inSector(this.sector, weapon) : [];
    const names = inside.map((id) => findTokenDocument(id)?.name ?? id);
    return {
      modes: overwatchModes(weapon).map((id, index) => ({ id, label: t(`VOLLEY.D100.Modes.${id}`), selected: index === 0 })),
      inside: this.sector ? t("VOLLEY.D100.Dialog.InSectorNow", { n: names.length, names: names.join(", ") || "—" }) : "",
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
    const chosen = this.fireMode ?? "order";
    return {
      modes: [
        { id: "order", label: t("VOLLEY.D100.Dialog.OrderMode", { mode: t(`VOLLEY.D100.Modes.${orderMode}`) }), selected: chosen === "order" },
        ...overwatchModes(weapon).map((id) => ({ id, label: t(`VOLLEY.D100.Modes.${id}`), selected: chosen === id })),
      ],
      shots: bs !== null && rof && this.#overwatchFireMode() === "single" ? t("VOLLEY.D100.Dialog.SingleShots", { n: maxOverwatchShots(bs, rof.highest) }) : "",
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
    const included = !this.excluded.has(row.id);
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

  /** Tokens of the scene not listed yet, for the Add select. @param {TargetRef[]} rows */
  #addChoices(rows) {
    const listed = new Set(rows.map((row) => row.id));
    return placedTokens(this.token)
      .filter((placed) => placed.id !== this.token.id && !listed.has(placed.id))
      .map((placed) => ({ id: placed.id, name: placed.name }));
  }

  /**
   * @param {DialogMode | null} mode
   * @param {TargetRef[]} rows
   */
  #rowsHint(mode, rows) {
    if (mode === "overwatch" || this.#waiting()) return "";
    if (rows.length === 0) {
      if (mode === "overwatch_fire") return t("VOLLEY.D100.Dialog.NobodyInOrderSector");
      if (mode && DIALOG_MODES[mode].sector && this.sectorList) return t("VOLLEY.D100.Dialog.NobodyInSector");
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
   * @param {Record<string, string>} values
   * @param {string} action
   */
  choiceFields(values, action) {
    const limit = { min: -MODIFIER_LIMIT, max: MODIFIER_LIMIT };
    const shooter = { moved: readFlag(values.moved), in_melee: readFlag(values.in_melee) };
    // Seed 004: locked in melee, a long rifle or a heavy weapon does not fire, and nothing is braced.
    // Refused here, naming the box, not after sending (#31).
    if (shooter.in_melee) {
      const weapon = this.#current().weapon;
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
          targets: this.#choiceTargets(values, { shares: spec.mode !== "single" && spec.mode !== "suppressing" }),
        };
        if (spec.rate) fields.rate = spec.rate;
        if (spec.mode === "suppressing") {
          // Suppressing fire sweeps a sector: with no Facing there is none, and nothing is guessed (#31).
          this.#sectorAimed(values);
          fields.arc = requireInt(values.arc || SECTOR_MAX_DEGREES, "arc", { min: 1, max: SECTOR_MAX_DEGREES });
        }
        else if (readFlag(values.gm_allows_wider)) fields.gm_allows_wider = true;
        return fields;
      }
      case "overwatch_fire":
        return {
          ...shooter,
          modifier: requireInt(values.modifier || 0, "modifier", limit),
          fire_mode: values.fire_mode || "order",
          targets: this.#choiceTargets(values, { shares: this.#overwatchFireMode() !== "single" }),
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
        const targets = who === "targets" ? this.#choiceTargets(values, { shares: false }) : [];
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

  /** The standing order's mode. */
  #orderMode() {
    const mode = this.#order()?.mode;
    return typeof mode === "string" ? mode : "single";
  }

  /** The mode overwatch fire answers with: the order's, or the one picked now. */
  #overwatchFireMode() {
    return this.fireMode && this.fireMode !== "order" ? this.fireMode : this.#orderMode();
  }

  /**
   * The targets as the player chose them, primary first: cover, reach, band, and for a burst each
   * secondary's share (a secondary with no share is not fired at).
   * @param {Record<string, string>} values
   * @param {{shares: boolean}} how
   */
  #choiceTargets(values, { shares }) {
    /** @type {Record<string, unknown>[]} */
    const out = [];
    for (const [index, target] of this.targets().entries()) {
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

  /** Seed 004 calls it Клин. */
  jamLabel() {
    return t("VOLLEY.D100.Dialog.JamChance");
  }

  /** @returns {string | null} */
  previewAction() {
    const mode = this.currentMode();
    if (!mode || mode === "overwatch" || this.#waiting()) return null;
    return mode === "overwatch_fire" ? "overwatch_fire" : "attack";
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

  /**
   * @param {VolleyWeapon} weapon
   * @param {import("../../registry.js").WeaponReadout} readout
   */
  actionsFor(weapon, readout) {
    const mode = this.currentMode();
    const jammedBlocks = readout.jammed ? t("VOLLEY.Dialog.JammedBlocks") : null;
    /** @type {ActionSpec[]} */
    const actions = [];
    if (mode === "overwatch") {
      actions.push({ action: "overwatch", label: t("VOLLEY.D100.Dialog.SetOverwatch"), icon: "fa-solid fa-eye", primary: true, blocked: jammedBlocks });
    } else if (this.#waiting()) {
      // Where Set overwatch stood, a button that does nothing: the order waits for its trigger.
      actions.push({ action: "overwatch_waiting", label: t("VOLLEY.D100.Dialog.Waiting"), icon: "fa-solid fa-stopwatch", primary: true, blocked: t("VOLLEY.D100.Dialog.WaitingHint") });
      actions.push({ action: "trigger_met", label: t("VOLLEY.D100.Dialog.TriggerMet"), icon: "fa-solid fa-bullseye", hint: t("VOLLEY.D100.Dialog.TriggerMetHint"), blocked: jammedBlocks });
    } else {
      // The rounds this shot fires must be loaded (seed 004; the rules refuse a short magazine, #31).
      const needed = mode ? this.#roundsNeeded(weapon, mode) : 0;
      const loaded = typeof weapon.state.loaded === "number" ? weapon.state.loaded : 0;
      const short = needed > loaded ? t("VOLLEY.D100.Dialog.ShortMagazine", { loaded, needed }) : null;
      actions.push({
        action: mode === "overwatch_fire" ? "overwatch_fire" : "attack",
        label: t("VOLLEY.Dialog.Fire"),
        icon: "fa-solid fa-crosshairs",
        primary: true,
        needsTargets: true,
        blocked: jammedBlocks ?? (mode ? short : t("VOLLEY.D100.Dialog.NoModes")),
      });
      if (mode === "overwatch_fire") actions.push({ action: "trigger_back", label: t("VOLLEY.D100.Dialog.NotYet"), icon: "fa-solid fa-eye", hint: t("VOLLEY.D100.Dialog.NotYetHint") });
    }
    if (this.#order()) actions.push({ action: "lift_overwatch", label: t("VOLLEY.D100.Dialog.LiftOverwatch"), icon: "fa-solid fa-eye-slash" });
    actions.push({ action: "reload", label: t("VOLLEY.Dialog.Reload"), icon: "fa-solid fa-rotate", blocked: readout.jammed ? t("VOLLEY.D100.Dialog.ReloadJammed") : null });
    if (readout.jammed) actions.push({ action: "unjam", label: t("VOLLEY.D100.Dialog.Unjam"), icon: "fa-solid fa-wrench" });
    if (typeof weapon.state.spoiled === "number" && weapon.state.spoiled > 0) {
      actions.push({ action: "recover_ammo", label: t("VOLLEY.D100.Dialog.RecoverAmmo"), icon: "fa-solid fa-box-open" });
    }
    if (weapon.stats.class === "heavy") {
      actions.push(
        weapon.state.braced === true
          ? { action: "release_brace", label: t("VOLLEY.D100.Dialog.ReleaseBrace"), icon: "fa-solid fa-person-walking" }
          : { action: "brace", label: t("VOLLEY.D100.Dialog.Brace"), icon: "fa-solid fa-anchor" },
      );
    }
    return actions;
  }

  /**
   * The rounds the mode fires, as the rules count them: one for a single shot or a thrown weapon, the
   * RoF's position for a burst and for suppressing fire's rate, and for overwatch fire one shot per token
   * (single) or the burst's RoF.
   * @param {VolleyWeapon} weapon
   * @param {DialogMode} mode
   */
  #roundsNeeded(weapon, mode) {
    if (["thrown", "grenade"].includes(String(weapon.stats.class))) return 1;
    const rof = rofPositions(weapon.stats.rof);
    const of = (/** @type {string} */ fired) => (fired === "single" ? 1 : fired.startsWith("short") || fired === "wide_short_burst" ? (rof?.short ?? 0) : (rof?.long ?? 0));
    if (mode === "overwatch") return 0;
    if (mode === "overwatch_fire") {
      const fired = this.#overwatchFireMode();
      return fired === "single" ? Math.max(1, this.targets().length) : of(fired);
    }
    const spec = DIALOG_MODES[mode];
    if (spec.mode === "suppressing") return spec.rate === "semi" ? (rof?.short ?? 0) : (rof?.long ?? 0);
    return of(String(spec.mode));
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
      this.triggerList = null;
      this.triggerMet = false;
      if (order) this.mode = "overwatch_fire";
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
    this.triggerMet = action === "trigger_met";
    this.triggerList = null;
    await this.refresh(["body", "preview", "footer"]);
    this.refreshPreview();
    if (this.triggerMet) /** @type {HTMLElement | null} */ (this.element?.querySelector(".volley-d100__target input, select[name=fire_mode]"))?.focus();
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
    if (!MORALE_ACTIONS.has(action)) return;
    const field = this.element?.querySelector('[name="morale_modifier"]');
    if (isInput(field)) field.value = "0";
  }

  /** @param {Event} event */
  async #onD100Change(event) {
    const field = event.target;
    if (!(isInput(field) || isSelect(field))) return;
    if (field.name === "mode") {
      this.mode = field.value;
      await this.refresh(["body", "preview", "footer"]);
    } else if (field.name === "fire_mode") {
      this.fireMode = field.value;
      await this.refresh(["body", "preview"]);
    } else if (field.name === "primary") {
      this.primary = field.value;
      await this.refresh(["body", "preview"]);
    } else if (field.name === "facing" || field.name === "arc") {
      await this.#aim();
      return;
    } else if (isInput(field) && /^t\..+\.include$/.test(field.name)) {
      const id = field.name.slice(2, -".include".length);
      if (field.checked) this.excluded.delete(id);
      else this.excluded.add(id);
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
    /** @type {PickedSector} */
    let sector;
    try {
      const arc = requireInt(values.arc || SECTOR_MAX_DEGREES, "arc", { min: 1, max: SECTOR_MAX_DEGREES });
      const typed = (values.facing ?? "").trim();
      if (!typed && !this.sector) return;
      sector = { facing: typed ? readFacing(typed) : /** @type {PickedSector} */ (this.sector).facing, arc };
    } catch (error) {
      this.notice = { text: problemText(error), error: true };
      await this.refresh(["footer"]);
      return;
    }
    if (this.sector && this.sector.facing === sector.facing && this.sector.arc === sector.arc) {
      // Aimed as it was: a slip said before is put right, the list the user edited stays.
      if (this.notice.error) {
        this.notice = { text: "", error: false };
        await this.refresh(["footer"]);
      }
      return;
    }
    await this.#aimAt(sector, weapon);
  }

  /**
   * List the tokens inside a sector just aimed (clicked or typed); the user's edits of the old list go.
   * @param {PickedSector} sector
   * @param {VolleyWeapon} weapon
   */
  async #aimAt(sector, weapon) {
    this.sector = sector;
    this.sectorList = this.#inSector(sector, weapon);
    this.excluded.clear();
    this.primary = null;
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
    await this.#aimAt({ facing, arc }, weapon);
  }

  /**
   * Add a token of the scene to the list.
   * @this {D100AttackDialog}
   */
  static async #onAddTarget() {
    const select = this.element.querySelector('select[name="add_token"]');
    const id = isSelect(select) ? select.value : "";
    if (!id || !findTokenDocument(id)) return;
    if (this.currentMode() === "overwatch_fire") this.triggerList = [...(this.#list() ?? []), id];
    else {
      // Before a sector is picked the list is the user's targets: the added token joins them.
      const base = this.#list() ?? this.userTargets().map((row) => row.id);
      this.sectorList = [...base.filter((known) => known !== id), id];
    }
    this.excluded.delete(id);
    await this.refresh(["body", "preview", "footer"]);
    this.refreshPreview();
  }

  /**
   * List the standing order's sector again (tokens moved since the dialog opened).
   * @this {D100AttackDialog}
   */
  static async #onRescan() {
    this.triggerList = null;
    this.excluded.clear();
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
