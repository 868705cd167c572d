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
import { AttackDialog, ChoiceAttackDialog } from "../common/attack-dialog.js";
import { formValues } from "../common/attack-form.js";
import { findTokenDocument } from "../../foundry/documents.js";
import { choiceFacts, say as sayMessage } from "../../foundry/choice.js";
import { t } from "../../foundry/words.js";
import { BRING_TO_BEAR_DM, DIFFICULTIES, FAST_DRAW_DM, FIRING_ACTIONS, MODE_RULES, characteristicDm, burstSize, weaponKind, weaponModes } from "./modes.js";
import { megatravellerChoice } from "./choice.js";
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

/** Fields whose change reshapes the body (who is listed, what is offered, what it costs). */
const RESHAPING = new Set(["mode", "how", "primary", "add"]);

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

export default class MegaTravellerAttackDialog extends ChoiceAttackDialog {
  static PARTS = AttackDialog.partsWith("modules/volley/templates/systems/megatraveller/attack-body.hbs");

  /** Wider than the frame's default: the tokens' table has more columns. */
  static DEFAULT_OPTIONS = {
    ...AttackDialog.DEFAULT_OPTIONS,
    classes: [...AttackDialog.DEFAULT_OPTIONS.classes, "volley-mt-dialog"],
    position: { ...AttackDialog.DEFAULT_OPTIONS.position, width: 680 },
  };

  /** The choice the player sets (./choice.js): the dialog draws it and writes each edit into it. */
  #model = megatravellerChoice({ system: "megatraveller", token: { id: "", name: "" }, weapon: null, character: {}, targets: [], previewActions: [] });

  /** The attack as last drawn (the preview reads it). @type {Attack | null} */
  #attack = null;

  /** What the player has set (kept across renders). */
  get draft() {
    return this.#model.draft;
  }

  /** The model on the token, its weapon, targets and scene as they are now. */
  choice() {
    this.#model.facts = choiceFacts(this.token, this.plugin, this.weaponId, this.targets());
    return this.#model;
  }

  /**
   * Take what the form shows into the model (every field; a row's values by its token id).
   * @param {Record<string, string>} values
   */
  #absorb(values) {
    this.choice().assign(values);
  }

  /** The form as it is now, when it is on screen. */
  #formNow() {
    return isForm(this.element) ? formValues(this.element) : {};
  }

  /**
   * Re-render parts from the model (what the user typed is in it already).
   * @param {string[]} parts
   */
  async refresh(parts) {
    if (isShowing(this)) this.#absorb(this.#formNow());
    await super.refresh(parts, { keep: false });
  }

  /** The attack for the weapon picked now, from the documents and the model. */
  #workNow() {
    this.#attack = this.choice().work();
    return this.#attack;
  }

  // --- what the frame asks of a system --------------------------------------------------------------

  /**
   * @param {VolleyWeapon} _weapon
   * @param {Arsenal} _arsenal
   * @param {TargetRef[]} _targets
   */
  async systemContext(_weapon, _arsenal, _targets) {
    const attack = this.#workNow();
    if (!attack) return {};
    const { shooter, mode, lineup: laid, aim, plan, howState } = attack;
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
   * The player's part of the choice for `action`, from the form (through the model).
   * @param {Record<string, string>} values
   * @param {string} action
   */
  choiceFields(values, action) {
    const model = this.choice();
    model.assign(values);
    try {
      return model.systemRequest(action);
    } catch (error) {
      // A reason the window words itself (the weapon not ready, targets the mode cannot take), as it is.
      const words = /** @type {{words?: import("../../registry.js").ChoiceMessage}} */ (error)?.words;
      if (words) throw Object.assign(new Error(sayMessage(words)), { plain: true });
      throw error;
    }
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
    // The mode sets how many targets there may be and who is a bystander (roles start afresh); a primary
    // is a target; a token added joins the danger space (the model's reshaping).
    if (!RESHAPING.has(field.name) && !field.name.endsWith(".role")) return;
    this.#model.reshape(field.name, field.value);
    await super.refresh(["body", "footer"], { keep: false });
    this.refreshPreview();
  }
}
