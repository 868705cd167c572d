/**
 * The MegaTraveller (RCS) attack dialog: the weapon's modes (single, rapid, burst, automatic,
 * controlled), how to fire (fire at the locked target, fast draw, retarget and fire), the weapon's
 * readiness, selector and the token's target lock as the token holds them, and what the rules will
 * charge for the shot in plain words ("Ready rifle first: 1 action"); per token its role (target,
 * bystander in the danger space, left out), difficulty, DM, and where stray bullets fly on; the split
 * (the default, a burst's bullets by hand, or after the roll in two steps); buttons for draw, unsling,
 * ready, select fire mode, retarget and reload.
 *
 * What the player types is kept in `draft` and the form is drawn from it, so a re-render (the token's
 * state changed, a target was added) keeps it; a choice of how to fire is kept only while the state it
 * was made in lasts (after a fast draw the weapon is ready, and a plain fire is offered again).
 */

import { isShowing } from "../../foundry/app-state.js";
import { AttackDialog, formValues } from "../common/attack-dialog.js";
import { FormError, requireInt } from "../../fields.js";
import { DM_LIMIT } from "./requests.js";
import { arsenalOf, findTokenDocument, placedTokens, tokenCentreSquares, tokenState } from "../../foundry/documents.js";
import { tableRuleValue } from "../../foundry/table-rules.js";
import { t } from "../../foundry/words.js";
import { defaultFiringAction, firingPlan, handlingActions } from "./actions.js";
import { choiceTargets, lineup } from "./lineup.js";
import { checkBulletSplit } from "./split.js";
import {
  BRING_TO_BEAR_DM,
  DIFFICULTIES,
  FAST_DRAW_DM,
  FIRING_ACTIONS,
  MODE_RULES,
  READINESS,
  SELECTOR,
  characteristicDm,
  burstSize,
  modeForSelector,
  weaponKind,
  weaponModes,
  weaponSelectors,
} from "./modes.js";
import { isForm, isSelect } from "../../foundry/window-dom.js";

/**
 * @typedef {import("../../profile/types.js").VolleyWeapon} VolleyWeapon
 * @typedef {import("../../profile/weapons.js").Arsenal} Arsenal
 * @typedef {import("../common/attack-dialog.js").TargetRef} TargetRef
 * @typedef {import("../common/attack-dialog.js").ActionSpec} ActionSpec
 * @typedef {import("./modes.js").FireMode} FireMode
 * @typedef {import("./modes.js").FiringAction} FiringAction
 * @typedef {import("./actions.js").Shooter} Shooter
 * @typedef {import("./actions.js").Aim} Aim
 * @typedef {import("./actions.js").FiringPlan} FiringPlan
 * @typedef {import("./actions.js").Words} Words
 * @typedef {import("./lineup.js").Lineup} Lineup
 * @typedef {import("./lineup.js").RowDraft} RowDraft
 * @typedef {import("./lineup.js").Role} Role
 * @typedef {{weaponId: string | null, mode: FireMode | null, how: {value: FiringAction, state: string} | null,
 *   primary: string | null, allocation: string, emptyMagazine: boolean, rows: Map<string, RowDraft>,
 *   added: string[], bulletsFor: string}} Draft
 * @typedef {{weapon: VolleyWeapon, shooter: Shooter, mode: FireMode, lineup: Lineup, aim: Aim,
 *   plan: FiringPlan, howState: string}} Attack everything the dialog works out from the draft
 */

const P = "VOLLEY.MegaTraveller";

/** Icons of the weapon-handling buttons. */
const ICONS = /** @type {Record<string, string>} */ ({
  draw: "fa-solid fa-hand",
  unsling: "fa-solid fa-person-rifle",
  ready: "fa-solid fa-hand-fist",
  select_mode: "fa-solid fa-sliders",
  retarget: "fa-solid fa-location-crosshairs",
  reload: "fa-solid fa-rotate",
});

/** Fields whose change reshapes the body (who is listed, what is offered, what it costs). */
const RESHAPING = new Set(["mode", "how", "primary", "add"]);

/**
 * @param {string | null} weaponId
 * @returns {Draft}
 */
function freshDraft(weaponId) {
  return { weaponId, mode: null, how: null, primary: null, allocation: "default", emptyMagazine: false, rows: new Map(), added: [], bulletsFor: "" };
}

/**
 * How many targets the splitting DM counts as the dialog can tell before the roll: every target
 * designated (Volley's reading: undefined), or, under the table rule `split_dm_counts: "receiving"`, a
 * burst's targets whose share is at least one bullet. Where the shares are not known before the roll
 * (rapid fire's pool is rolled; a burst the player has not split by hand) the count is null: the DM
 * line then says the splitting DM comes after the roll, rather than show the designated count.
 * @param {FireMode} mode
 * @param {Lineup} laid
 * @returns {number | null | undefined}
 */
function splitCounted(mode, laid) {
  if (!MODE_RULES[mode].splitDm || tableRuleValue("megatraveller", "split_dm_counts") !== "receiving") return undefined;
  if (laid.chosen < 2) return undefined;
  if (mode !== "burst") return null;
  const chosen = laid.rows.filter((row) => row.role === "target" && row.bullets !== null);
  return chosen.length === laid.chosen ? chosen.filter((row) => Number(row.bullets) > 0).length : null;
}

/**
 * A message of actions.js or lineup.js in the reader's language; values `{i18n: key}` are module words.
 * @param {Words | null | undefined} words
 */
export function say(words) {
  if (!words) return "";
  /** @type {Record<string, unknown>} */
  const values = {};
  for (const [name, value] of Object.entries(words.values ?? {})) {
    const key = typeof value === "object" && value !== null ? /** @type {{i18n?: unknown}} */ (value).i18n : undefined;
    values[name] = typeof key === "string" ? t(key) : value;
  }
  return t(words.key, values);
}

/**
 * A refusal the preview and the notice show as it is (the player's own words, no field name).
 * @param {string} text
 */
function plainProblem(text) {
  return Object.assign(new Error(text), { plain: true });
}

/**
 * The tokens on the shooter's scene with their centres in grid squares (a player's client does not see
 * hidden ones).
 * @param {TokenDocument} token the shooter
 * @returns {{id: string, name: string, x: number, y: number}[]}
 */
function sceneSpots(token) {
  return placedTokens(token, tokenCentreSquares).flatMap(({ id, name, centre }) => (centre ? [{ id, name, x: centre.x, y: centre.y }] : []));
}

export default class MegaTravellerAttackDialog extends AttackDialog {
  static PARTS = AttackDialog.partsWith("modules/volley/templates/systems/megatraveller/attack-body.hbs");

  /** Wider than the frame's default: the tokens' table has more columns. */
  static DEFAULT_OPTIONS = {
    ...AttackDialog.DEFAULT_OPTIONS,
    classes: [...AttackDialog.DEFAULT_OPTIONS.classes, "volley-mt-dialog"],
    position: { ...AttackDialog.DEFAULT_OPTIONS.position, width: 680 },
  };

  /** What the player has set. @type {Draft} */
  draft = freshDraft(null);

  /** The attack as last drawn (the buttons read it). @type {Attack | null} */
  #attack = null;

  // --- the draft ------------------------------------------------------------------------------------

  /**
   * Take what the form shows into the draft (every field; a row's values by its token id).
   * @param {Record<string, string>} values
   */
  #absorb(values) {
    const draft = this.draft;
    if (draft.weaponId !== this.weaponId) return;
    if (typeof values.mode === "string" && values.mode) draft.mode = /** @type {FireMode} */ (values.mode);
    if (typeof values.how === "string" && FIRING_ACTIONS.includes(/** @type {FiringAction} */ (values.how))) {
      draft.how = { value: /** @type {FiringAction} */ (values.how), state: values.how_state ?? "" };
    }
    if (values.primary) draft.primary = values.primary;
    if (values.allocation) draft.allocation = values.allocation;
    if ("empty_magazine_shown" in values) draft.emptyMagazine = values.empty_magazine === "on";
    for (let index = 0; `rows.${index}.id` in values; index += 1) {
      const id = values[`rows.${index}.id`] ?? "";
      const row = draft.rows.get(id) ?? {};
      const field = (/** @type {string} */ name) => values[`rows.${index}.${name}`];
      if (field("role") !== undefined) row.role = /** @type {Role} */ (field("role"));
      if (field("difficulty") !== undefined) row.difficulty = field("difficulty");
      if (field("dm") !== undefined) row.dm = field("dm");
      if (field("closer") !== undefined) row.closer = field("closer");
      if (field("bullets") !== undefined) row.bullets = field("bullets");
      draft.rows.set(id, row);
    }
  }

  /** The form as it is now, when it is on screen. */
  #formNow() {
    return isForm(this.element) ? formValues(this.element) : {};
  }

  /**
   * Re-render parts from the draft (what the user typed is in it already).
   * @param {string[]} parts
   */
  async refresh(parts) {
    if (isShowing(this)) this.#absorb(this.#formNow());
    await super.refresh(parts, { keep: false });
  }

  // --- working it out -------------------------------------------------------------------------------

  /**
   * The shooter as the token holds it now.
   * @param {VolleyWeapon} weapon
   * @param {Arsenal} arsenal
   * @returns {Shooter}
   */
  #shooter(weapon, arsenal) {
    const state = weapon.state ?? {};
    const lockId = tokenState(this.token).target;
    const lock = typeof lockId === "string" && lockId ? lockId : null;
    return {
      weapon: weapon.name || t("VOLLEY.Dialog.Unnamed"),
      stats: weapon.stats ?? {},
      readiness: READINESS.includes(/** @type {any} */ (state.readiness)) ? /** @type {any} */ (state.readiness) : "ready",
      selector: SELECTOR.includes(/** @type {any} */ (state.selector)) ? /** @type {any} */ (state.selector) : "single",
      loaded: typeof state.loaded === "number" ? state.loaded : 0,
      capacity: typeof weapon.stats?.capacity === "number" ? weapon.stats.capacity : null,
      lock,
      lockName: lock ? (findTokenDocument(lock)?.name ?? lock) : "",
      skill: typeof weapon.skill === "number" ? weapon.skill : 0,
      dex: typeof arsenal.character.dex === "number" ? arsenal.character.dex : 7,
    };
  }

  /**
   * Everything the draft means for this weapon now.
   * @param {VolleyWeapon} weapon
   * @param {Arsenal} arsenal
   * @param {TargetRef[]} targets
   * @returns {Attack}
   */
  #work(weapon, arsenal, targets) {
    if (this.draft.weaponId !== weapon.id) this.draft = freshDraft(weapon.id);
    const draft = this.draft;
    const shooter = this.#shooter(weapon, arsenal);
    const stats = shooter.stats;
    const mode = draft.mode && weaponModes(stats).includes(draft.mode) ? draft.mode : modeForSelector(stats, shooter.selector);
    draft.mode = mode;
    const spots = sceneSpots(this.token);
    const me = spots.find((spot) => spot.id === this.token.id) ?? { id: String(this.token.id), name: "", x: 0, y: 0 };
    // The danger space's shape is a table rule (reading 14): the table's width and reach, else Volley's.
    const space = { halfWidth: Number(tableRuleValue("megatraveller", "danger_space_half_width")), beyond: Number(tableRuleValue("megatraveller", "danger_space_beyond")) };
    const input = { mode, stats, shooter: me, targeted: targets, primary: draft.primary, lock: shooter.lock, scene: spots, drafts: draft.rows, added: draft.added, space };
    let laid = lineup(input);
    // A burst's split starts from the default whenever the chosen targets change.
    const chosenNow = laid.rows.filter((row) => row.role === "target").map((row) => row.id).join(",");
    if (draft.bulletsFor !== chosenNow) {
      draft.bulletsFor = chosenNow;
      for (const row of draft.rows.values()) row.bullets = null;
      laid = lineup(input);
    }
    const primaryName = laid.rows.find((row) => row.id === laid.primary)?.name ?? "";
    const howState = `${shooter.readiness}|${shooter.lock ?? ""}|${laid.primary ?? ""}`;
    // The table's Fast Draw reading (docs/rules/megatraveller.md, reading 10): what the engine will allow.
    const fastDrawWeapons = tableRuleValue("megatraveller", "fast_draw_weapons") === "any" ? "any" : "small";
    const how = draft.how && draft.how.state === howState ? draft.how.value : defaultFiringAction(shooter, laid.primary, fastDrawWeapons);
    /** @type {Aim} */
    const aim = { mode, how, primary: laid.primary, primaryName, designated: laid.chosen, counted: splitCounted(mode, laid), fastDrawWeapons };
    const attack = { weapon, shooter, mode, lineup: laid, aim, plan: firingPlan(shooter, aim), howState };
    this.#attack = attack;
    return attack;
  }

  /** The attack for the weapon picked now, from the documents and the draft. */
  #workNow() {
    const arsenal = arsenalOf(this.token, this.plugin.id);
    const weapon = arsenal.weapons.find((w) => w.id === this.weaponId);
    return weapon ? this.#work(weapon, arsenal, this.targets()) : null;
  }

  // --- what the frame asks of a system --------------------------------------------------------------

  /**
   * @param {VolleyWeapon} weapon
   * @param {Arsenal} arsenal
   * @param {TargetRef[]} targets
   */
  async systemContext(weapon, arsenal, targets) {
    const { shooter, mode, lineup: laid, aim, plan, howState } = this.#work(weapon, arsenal, targets);
    const rule = MODE_RULES[mode];
    const kind = weaponKind(shooter.stats.kind);
    const word = (/** @type {string} */ group, /** @type {string} */ value) => t(`${P}.${group}.${value}`);
    const signedDm = (/** @type {number} */ n) => (n >= 0 ? `+${n}` : `−${-n}`);
    const showBullets = mode === "burst" && laid.chosen > 1;
    return {
      state: t(`${P}.StateLine`, {
        weapon: shooter.weapon,
        readiness: word("Readinesses", shooter.readiness),
        selector: word("Selectors", shooter.selector),
        lock: shooter.lock ? t(`${P}.LockedOn`, { name: shooter.lockName }) : t(`${P}.NoLock`),
      }),
      stats: t(`${P}.StatsLine`, {
        skill: shooter.skill,
        dex: shooter.dex,
        dexDm: signedDm(characteristicDm(shooter.dex)),
        kind: word("Kinds", kind),
        modes: weaponModes(shooter.stats).map((m) => word("Modes", m)).join(", "),
        burst: burstSize(shooter.stats) ?? "—",
        autoTargets: Number(shooter.stats.auto_targets) || 1,
        auto: shooter.stats.auto === true,
      }),
      modes: weaponModes(shooter.stats).map((value) => ({ value, label: word("Modes", value), selected: value === mode })),
      hows: FIRING_ACTIONS.map((value) => ({
        value,
        label: t(`${P}.How.${value}`, { dm: signedDm(value === "fast_draw" ? FAST_DRAW_DM : BRING_TO_BEAR_DM[kind]) }),
        selected: value === aim.how,
      })),
      howState,
      primaries: laid.rows.filter((row) => row.role === "target").map((row) => ({ id: row.id, name: row.name, selected: row.primary })),
      blocked: say(plan.blocked),
      charge: say(plan.charge),
      notes: plan.notes.map(say),
      dms: say(plan.dms),
      problem: laid.problem ? say(laid.problem) : "",
      rows: laid.rows.map((row, index) => ({
        ...row,
        index,
        state: row.role,
        roleOptions: row.roles.map((value) => ({ value, label: word("Roles", value), selected: value === row.role })),
        roleLabel: t(`${P}.RoleFor`, { name: row.name }),
        roleText: row.primary ? word("Roles", "primary") : "",
        difficulties: DIFFICULTIES.map((value) => ({ value, label: word("Difficulties", value), selected: value === row.difficulty })),
        difficultyLabel: t(`${P}.DifficultyFor`, { name: row.name }),
        dmLabel: t(`${P}.DmFor`, { name: row.name }),
        bulletsLabel: t(`${P}.BulletsFor`, { name: row.name }),
        closerLabel: t(`${P}.CloserFor`, { name: row.name }),
        closers: row.closerOptions.map((o) => ({ ...o, selected: o.id === row.closer })),
        showCloser: rule.strays && row.role === "target",
        showBullets: showBullets && row.role === "target",
        out: row.role === "out",
      })),
      showBullets,
      showCloser: rule.strays,
      clustered: rule.clustered,
      addable: laid.addable,
      allocations: rule.pool
        ? ["default", "defer"].map((value) => ({ value, label: t(`${P}.Allocations.${value}`), selected: value === this.draft.allocation }))
        : [],
      canEmpty: mode === "auto",
      emptyMagazine: this.draft.emptyMagazine,
      emptyLabel: t(`${P}.EmptyMagazine`),
    };
  }

  /**
   * The preview charts every token the attack lists (bystanders too), and those strays may reach.
   * @param {TargetRef[]} targets
   * @returns {TargetRef[]}
   */
  previewTargets(targets) {
    const rows = this.#attack?.lineup.rows;
    if (!rows) return targets;
    const listed = rows.filter((row) => row.role !== "out");
    const names = new Map(rows.map((row) => [row.id, row.name]));
    const strays = MODE_RULES[this.#attack?.mode ?? "single"].strays ? listed.flatMap((row) => (row.closer ? [row.closer] : [])) : [];
    const ids = [...new Set([...listed.map((row) => row.id), ...strays])];
    return ids.map((id) => ({ id, name: names.get(id) ?? findTokenDocument(id)?.name ?? id }));
  }

  /** The RCS has no jams: the preview leaves the jam chance out. @returns {null} */
  jamLabel() {
    return null;
  }

  /**
   * The player's part of the choice for `action`, from the form.
   * @param {Record<string, string>} values
   * @param {string} action
   */
  choiceFields(values, action) {
    this.#absorb(values);
    const attack = this.#workNow();
    if (!attack) throw new FormError("weapon", "VOLLEY.Form.NoWeapon");
    const { mode, lineup: laid, aim, plan, shooter } = attack;
    const rule = MODE_RULES[mode];
    const primary = laid.primary ? [{ id: laid.primary }] : [];
    if (action === "attack") {
      if (plan.blocked) throw plainProblem(say(plan.blocked));
      if (laid.problem) throw plainProblem(say(laid.problem));
      // Each listed token's DM and a burst's bullets, read as the referee's browser will read them, so a
      // slip is refused here by the field's own label, not after sending (#31).
      // An empty DM is no DM (0), as the field's own default says; what is sent is the number read.
      /** @type {Map<string, number>} */
      const dms = new Map();
      laid.rows.forEach((row, index) => {
        if (row.role === "out") return;
        dms.set(row.id, /** @type {number} */ (requireInt(String(row.dm).trim() === "" ? 0 : row.dm, `rows.${index}.dm`, { min: -DM_LIMIT, max: DM_LIMIT })));
        if (mode === "burst" && row.role === "target" && row.bullets !== null) requireInt(row.bullets, `rows.${index}.bullets`, { min: 0, max: 100 });
      });
      const { targets, tokens, bullets } = choiceTargets(laid.rows, mode);
      for (const entry of targets) entry.dm = dms.get(String(entry.id)) ?? 0;
      if (mode === "burst" && bullets) {
        // A burst's split by hand must fire the whole burst, the primary not behind: said by its fields.
        const first = laid.rows.findIndex((row) => row.role === "target");
        try {
          checkBulletSplit(bullets.map(Number), Number(burstSize(shooter.stats)));
        } catch (error) {
          if (error instanceof FormError) throw new FormError(`rows.${Math.max(0, first)}.bullets`, error.key, error.values);
          throw error;
        }
      }
      /** @type {Record<string, unknown>} */
      const fields = { how: aim.how, mode, targets, tokens };
      if (mode === "burst" && bullets) fields.allocation = bullets;
      else if (rule.pool) fields.allocation = this.draft.allocation === "defer" ? "defer" : "default";
      if (mode === "auto" && this.draft.emptyMagazine) fields.empty_magazine = true;
      return fields;
    }
    const selector = weaponSelectors(shooter.stats).includes(rule.selector) ? rule.selector : null;
    if (action === "draw" || action === "ready") return selector ? { targets: primary, selector } : { targets: primary };
    if (action === "select_mode") return { selector: rule.selector };
    if (action === "retarget") return { targets: primary };
    return {};
  }

  /**
   * Fire (blocked, with the reason, while the weapon is not ready or the targets do not fit the mode),
   * then the weapon-handling actions that make sense now.
   * @param {VolleyWeapon} _weapon
   * @param {import("../../registry.js").WeaponReadout} _readout
   * @returns {ActionSpec[]}
   */
  actionsFor(_weapon, _readout) {
    const attack = this.#attack;
    if (!attack) return super.actionsFor(_weapon, _readout);
    const { plan, lineup: laid, shooter, aim } = attack;
    // A selector on a setting the weapon does not have (a hand-edited profile): the rules refuse every
    // action of the weapon, so the dialog offers none and says how to fix it (#31).
    const selectorMissing = weaponSelectors(shooter.stats).includes(shooter.selector)
      ? null
      : t(`${P}.SelectorMissing`, { weapon: shooter.weapon, selector: t(`${P}.Selectors.${shooter.selector}`) });
    const blocked = selectorMissing ?? (plan.blocked ? say(plan.blocked) : laid.problem ? say(laid.problem) : null);
    /** @type {ActionSpec[]} */
    const actions = [
      { action: "attack", label: t("VOLLEY.Dialog.Fire"), icon: "fa-solid fa-crosshairs", primary: true, needsTargets: true, blocked, hint: say(plan.charge) },
    ];
    for (const handling of handlingActions(shooter, aim)) {
      actions.push({
        action: handling.action,
        label: say(handling.label),
        icon: ICONS[handling.action] ?? "fa-solid fa-hand",
        blocked: selectorMissing ?? (handling.blocked ? say(handling.blocked) : null),
        hint: say(handling.hint),
      });
    }
    return actions;
  }

  /**
   * Step one of a two-step attack came back with the pool: open the allocation step at once.
   * @param {import("../../protocol.js").BridgeMessage} reply
   * @param {import("../../registry.js").Choice} choice
   */
  async onPending(reply, choice) {
    const { default: Step } = await import("./allocation-dialog.js");
    await Step.open({
      // The bridge's key of the pending attack (the card's), not the player's own request id (#17).
      pendingId: String(reply.pending_id ?? reply.id ?? ""),
      token: choice.token,
      weapon: choice.weapon,
      pool: reply.pending,
      result: reply.result,
      choice,
      messageId: null,
    });
  }

  // --- the form's life ------------------------------------------------------------------------------

  /** @param {any} context @param {any} options */
  async _onFirstRender(context, options) {
    await super._onFirstRender(context, options);
    this.element.addEventListener("change", (event) => void this.#onChange(event));
  }

  /**
   * A choice that reshapes the body (mode, how, primary, a role, a token added) re-renders it.
   * @param {Event} event
   */
  async #onChange(event) {
    const field = event.target;
    if (!isSelect(field) || field.name === "weapon") return;
    const values = this.#formNow();
    this.#absorb(values);
    if (field.name === "mode") {
      // The mode sets how many targets there may be and who is a bystander: roles start afresh.
      for (const row of this.draft.rows.values()) row.role = null;
    } else if (field.name === "primary") {
      const row = this.draft.rows.get(field.value);
      if (row && row.role !== "target") row.role = "target";
    } else if (field.name === "add") {
      if (field.value && !this.draft.added.includes(field.value)) this.draft.added.push(field.value);
    } else if (!RESHAPING.has(field.name) && !field.name.endsWith(".role")) {
      return;
    }
    await super.refresh(["body", "footer"], { keep: false });
    this.refreshPreview();
  }
}
