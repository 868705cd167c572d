/**
 * The MegaTraveller (RCS) attack choice as a plain model (issue #37): the draft the player sets (mode,
 * how to fire, primary, each listed token's role, difficulty, DM, closer token and share of a burst,
 * the split, emptying the magazine), what it means for the weapon as the token holds it (lineup.js,
 * actions.js), the fields the dialog draws from it, the buttons, and the choice each button sends.
 * The dialog edits it; the module API fills it without a dialog.
 *
 * A choice of how to fire is kept only while the state it was made in lasts (after a fast draw the
 * weapon is ready, and a plain fire is offered again); a change of mode sets the roles afresh; picking
 * a primary makes it a target; a burst's split starts from the default whenever the chosen targets
 * change.
 *
 * Pure: no DOM, no Foundry globals; the scene's tokens, the token's lock and the table rules come in
 * as facts.
 */

import { FormError, requireInt } from "../../fields.js";
import { tableReading } from "../../table-rules/table-rules.js";
import { ChoiceModel } from "../common/choice.js";
import { DM_LIMIT } from "./requests.js";
import { defaultFiringAction, firingPlan, handlingActions } from "./actions.js";
import { choiceTargets, lineup } from "./lineup.js";
import { checkBulletSplit } from "./split.js";
import { BRING_TO_BEAR_DM, DIFFICULTIES, FAST_DRAW_DM, FIRING_ACTIONS, MODE_RULES, READINESS, SELECTOR, burstSize, modeForSelector, weaponKind, weaponModes, weaponSelectors } from "./modes.js";

/**
 * @typedef {import("../../registry.js").ChoiceFacts} ChoiceFacts
 * @typedef {import("../../registry.js").ChoiceField} ChoiceField
 * @typedef {import("../../registry.js").ChoiceMessage} ChoiceMessage
 * @typedef {import("../../registry.js").ChoiceActionSpec} ChoiceActionSpec
 * @typedef {import("../../registry.js").WeaponReadout} WeaponReadout
 * @typedef {import("../../profile/types.js").VolleyWeapon} VolleyWeapon
 * @typedef {import("./modes.js").FireMode} FireMode
 * @typedef {import("./modes.js").FiringAction} FiringAction
 * @typedef {import("./actions.js").Shooter} Shooter
 * @typedef {import("./actions.js").Aim} Aim
 * @typedef {import("./actions.js").FiringPlan} FiringPlan
 * @typedef {import("./lineup.js").Lineup} Lineup
 * @typedef {import("./lineup.js").RowDraft} RowDraft
 * @typedef {import("./lineup.js").Role} Role
 * @typedef {{weaponId: string | null, mode: FireMode | null, how: {value: FiringAction, state: string} | null,
 *   primary: string | null, allocation: string, emptyMagazine: boolean, rows: Map<string, RowDraft>,
 *   added: string[], bulletsFor: string}} Draft
 * @typedef {{weapon: VolleyWeapon, shooter: Shooter, mode: FireMode, lineup: Lineup, aim: Aim,
 *   plan: FiringPlan, howState: string}} Attack everything the draft means for the weapon now
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

/**
 * @param {string | null} weaponId
 * @returns {Draft}
 */
function freshDraft(weaponId) {
  return { weaponId, mode: null, how: null, primary: null, allocation: "default", emptyMagazine: false, rows: new Map(), added: [], bulletsFor: "" };
}

/**
 * A message of actions.js or lineup.js as a choice message: a value `{i18n: key}` is a module word.
 * @param {{key: string, values?: Record<string, unknown>} | null | undefined} words
 * @returns {ChoiceMessage | null}
 */
function message(words) {
  if (!words) return null;
  /** @type {Record<string, unknown>} */
  const values = {};
  for (const [name, value] of Object.entries(words.values ?? {})) {
    const key = typeof value === "object" && value !== null ? /** @type {{i18n?: unknown}} */ (value).i18n : undefined;
    values[name] = typeof key === "string" ? { key } : value;
  }
  return { key: words.key, values };
}

/**
 * A refusal the preview and the notice show as it is (the player's own words, no field name).
 * @param {ChoiceMessage} words
 */
function plainProblem(words) {
  return Object.assign(new Error(words.key), { plain: true, words });
}

export class MegaTravellerChoice extends ChoiceModel {
  /** What the player has set. @type {Draft} */
  draft;

  /** @param {ChoiceFacts} facts */
  constructor(facts) {
    super(facts);
    this.draft = freshDraft(facts.weapon?.id ?? null);
  }

  /** @param {string} field */
  #rule(field) {
    return tableReading("megatraveller", field, /** @type {any} */ (this.facts.tableRules ?? {}));
  }

  /**
   * The shooter as the token holds it now.
   * @param {VolleyWeapon} weapon
   * @returns {Shooter}
   */
  #shooter(weapon) {
    const state = weapon.state ?? {};
    const lockId = this.facts.state?.target;
    const lock = typeof lockId === "string" && lockId ? lockId : null;
    const dex = this.facts.character.dex;
    return {
      weapon: weapon.name || "—",
      stats: weapon.stats ?? {},
      readiness: READINESS.includes(/** @type {any} */ (state.readiness)) ? /** @type {any} */ (state.readiness) : "ready",
      selector: SELECTOR.includes(/** @type {any} */ (state.selector)) ? /** @type {any} */ (state.selector) : "single",
      loaded: typeof state.loaded === "number" ? state.loaded : 0,
      capacity: typeof weapon.stats?.capacity === "number" ? weapon.stats.capacity : null,
      lock,
      lockName: lock ? (this.facts.lockName ?? lock) : "",
      skill: typeof weapon.skill === "number" ? weapon.skill : 0,
      dex: typeof dex === "number" ? dex : 7,
    };
  }

  /**
   * How many targets the splitting DM counts as can be told before the roll (the dialog's reading:
   * every target designated, or under `split_dm_counts: "receiving"` a burst's targets given a bullet;
   * null when the shares come only with the roll).
   * @param {FireMode} mode
   * @param {Lineup} laid
   * @returns {number | null | undefined}
   */
  #splitCounted(mode, laid) {
    if (!MODE_RULES[mode].splitDm || this.#rule("split_dm_counts") !== "receiving") return undefined;
    if (laid.chosen < 2) return undefined;
    if (mode !== "burst") return null;
    const chosen = laid.rows.filter((row) => row.role === "target" && row.bullets !== null);
    return chosen.length === laid.chosen ? chosen.filter((row) => Number(row.bullets) > 0).length : null;
  }

  /** Everything the draft means for the weapon now, or null without a weapon. @returns {Attack | null} */
  work() {
    const weapon = this.facts.weapon;
    if (!weapon) return null;
    if (this.draft.weaponId !== weapon.id) this.draft = freshDraft(weapon.id);
    const draft = this.draft;
    const shooter = this.#shooter(weapon);
    const stats = shooter.stats;
    const mode = draft.mode && weaponModes(stats).includes(draft.mode) ? draft.mode : modeForSelector(stats, shooter.selector);
    draft.mode = mode;
    const spots = this.facts.scene ?? [];
    const me = spots.find((spot) => spot.id === this.facts.token.id) ?? { id: this.facts.token.id, name: "", x: 0, y: 0 };
    // The danger space's shape is a table rule (reading 14): the table's width and reach, else Volley's.
    const space = { halfWidth: Number(this.#rule("danger_space_half_width")), beyond: Number(this.#rule("danger_space_beyond")) };
    const targeted = this.facts.targets.map(({ id, name }) => ({ id, name }));
    const input = { mode, stats, shooter: me, targeted, primary: draft.primary, lock: shooter.lock, scene: spots, drafts: draft.rows, added: draft.added, space };
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
    const fastDrawWeapons = this.#rule("fast_draw_weapons") === "any" ? "any" : "small";
    const how = draft.how && draft.how.state === howState ? draft.how.value : defaultFiringAction(shooter, laid.primary, fastDrawWeapons);
    /** @type {Aim} */
    const aim = { mode, how, primary: laid.primary, primaryName, designated: laid.chosen, counted: this.#splitCounted(mode, laid), fastDrawWeapons };
    return { weapon, shooter, mode, lineup: laid, aim, plan: firingPlan(shooter, aim), howState };
  }

  /**
   * Take what a form shows into the draft (every field; a row's values by its token id).
   * @param {Record<string, string>} values
   */
  assign(values) {
    const draft = this.draft;
    if (draft.weaponId !== (this.facts.weapon?.id ?? null)) return;
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
    this.values = this.formValues();
  }

  /**
   * A choice that reshapes the list (the mode, the primary, a token added) has its effect: a new mode
   * sets the roles afresh, a primary is a target, an added token joins the danger space.
   * @param {string} name
   * @param {string} value
   */
  reshape(name, value) {
    if (name === "mode") {
      for (const row of this.draft.rows.values()) row.role = null;
    } else if (name === "primary") {
      const row = this.draft.rows.get(value);
      if (row && row.role !== "target") row.role = "target";
    } else if (name === "add") {
      if (value && !this.draft.added.includes(value)) this.draft.added.push(value);
    }
    this.values = this.formValues();
  }

  /**
   * Set one field as a user would: checked as the base does, then the form as it stands with this
   * edit taken in, and its reshaping done.
   * @param {string} name
   * @param {unknown} value
   */
  set(name, value) {
    const before = this.formValues();
    super.set(name, value);
    const after = { ...before, [name]: this.values[name] };
    if (name === "empty_magazine") {
      after.empty_magazine_shown = "1";
      if (after.empty_magazine === "off") delete after.empty_magazine;
    }
    this.assign(after);
    this.reshape(name, String(this.values[name] ?? ""));
  }

  /** The fields as the form shows them now, in order. @returns {ChoiceField[]} */
  fields() {
    const attack = this.work();
    if (!attack) return [];
    const { shooter, mode, lineup: laid, aim, howState } = attack;
    const rule = MODE_RULES[mode];
    const kind = weaponKind(shooter.stats.kind);
    const signedDm = (/** @type {number} */ n) => (n >= 0 ? `+${n}` : `−${-n}`);
    const showBullets = mode === "burst" && laid.chosen > 1;
    const word = (/** @type {string} */ group, /** @type {string} */ value) => ({ key: `${P}.${group}.${value}` });
    /** @type {ChoiceField[]} */
    const fields = [
      { name: "mode", label: { key: `${P}.Mode` }, kind: "select", default: mode, options: weaponModes(shooter.stats).map((value) => ({ value, label: word("Modes", value) })) },
      {
        name: "how",
        label: { key: `${P}.HowLabel` },
        kind: "select",
        default: aim.how,
        options: FIRING_ACTIONS.map((value) => ({ value, label: { key: `${P}.How.${value}`, values: { dm: signedDm(value === "fast_draw" ? FAST_DRAW_DM : BRING_TO_BEAR_DM[kind]) } } })),
      },
      { name: "how_state", label: { key: `${P}.HowLabel` }, kind: "hidden", default: howState },
    ];
    const primaries = laid.rows.filter((row) => row.role === "target");
    if (primaries.length) {
      fields.push({ name: "primary", label: { key: `${P}.Primary` }, kind: "select", default: laid.primary ?? primaries[0].id, options: primaries.map((row) => ({ value: row.id, label: { key: row.name } })) });
    }
    for (const [index, row] of laid.rows.entries()) {
      const name = { name: row.name };
      const out = row.role === "out" ? { key: `${P}.Roles.out` } : null;
      fields.push({ name: `rows.${index}.id`, label: { key: `${P}.Token` }, kind: "hidden", default: row.id });
      if (row.primary) fields.push({ name: `rows.${index}.role`, label: { key: `${P}.RoleFor`, values: name }, kind: "hidden", default: "target" });
      else fields.push({ name: `rows.${index}.role`, label: { key: `${P}.RoleFor`, values: name }, kind: "select", default: row.role, options: row.roles.map((value) => ({ value, label: word("Roles", value) })) });
      fields.push(
        { name: `rows.${index}.difficulty`, label: { key: `${P}.DifficultyFor`, values: name }, kind: "select", default: row.difficulty, options: DIFFICULTIES.map((value) => ({ value, label: word("Difficulties", value) })), disabled: out },
        { name: `rows.${index}.dm`, label: { key: `${P}.DmFor`, values: name }, kind: "int", default: String(row.dm), min: -50, max: 50, disabled: out },
      );
      if (showBullets && row.role === "target") fields.push({ name: `rows.${index}.bullets`, label: { key: `${P}.BulletsFor`, values: name }, kind: "int", default: row.bullets === null ? "" : String(row.bullets), min: 0, max: 4 });
      if (rule.strays && row.role === "target") {
        fields.push({
          name: `rows.${index}.closer`,
          label: { key: `${P}.CloserFor`, values: name },
          kind: "select",
          default: row.closer ?? "",
          options: [{ value: "", label: { key: `${P}.Nobody` } }, ...row.closerOptions.map((o) => ({ value: o.id, label: { key: o.name } }))],
        });
      }
    }
    if (rule.clustered && laid.addable.length) {
      fields.push({ name: "add", label: { key: `${P}.AddBystander` }, kind: "select", default: "", options: [{ value: "", label: { key: "—" } }, ...laid.addable.map((o) => ({ value: o.id, label: { key: o.name } }))] });
    }
    if (rule.pool) {
      fields.push({ name: "allocation", label: { key: `${P}.Split` }, kind: "select", default: this.draft.allocation, options: ["default", "defer"].map((value) => ({ value, label: { key: `${P}.Allocations.${value}` } })) });
    }
    if (mode === "auto") {
      fields.push(
        { name: "empty_magazine_shown", label: { key: `${P}.EmptyMagazine` }, kind: "hidden", default: "1" },
        { name: "empty_magazine", label: { key: `${P}.EmptyMagazine` }, kind: "flag", default: this.draft.emptyMagazine ? "on" : "off" },
      );
    }
    return fields;
  }

  /** The values the form shows now, as it submits them (a disabled field or a clear box left out). */
  formValues() {
    /** @type {Record<string, string>} */
    const values = {};
    for (const field of this.fields()) {
      if (field.disabled || (field.kind === "flag" && field.default !== "on")) continue;
      values[field.name] = field.default;
    }
    return values;
  }

  /**
   * The player's part of the choice for `action`, from the draft.
   * @param {string} action
   * @returns {Record<string, unknown>}
   */
  systemRequest(action) {
    const attack = this.work();
    if (!attack) throw new FormError("weapon", "VOLLEY.Form.NoWeapon");
    const { mode, lineup: laid, aim, plan, shooter } = attack;
    const rule = MODE_RULES[mode];
    const primary = laid.primary ? [{ id: laid.primary }] : [];
    if (action === "attack") {
      if (plan.blocked) throw plainProblem(/** @type {ChoiceMessage} */ (message(plan.blocked)));
      if (laid.problem) throw plainProblem(/** @type {ChoiceMessage} */ (message(laid.problem)));
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
   * @param {WeaponReadout} readout
   * @returns {ChoiceActionSpec[]}
   */
  actions(readout) {
    const attack = this.work();
    if (!attack) return super.actions(readout);
    const { plan, lineup: laid, shooter, aim } = attack;
    // A selector on a setting the weapon does not have (a hand-edited profile): the rules refuse every
    // action of the weapon, so the dialog offers none and says how to fix it (#31).
    const selectorMissing = weaponSelectors(shooter.stats).includes(shooter.selector)
      ? null
      : { key: `${P}.SelectorMissing`, values: { weapon: shooter.weapon, selector: { key: `${P}.Selectors.${shooter.selector}` } } };
    const blocked = selectorMissing ?? (plan.blocked ? message(plan.blocked) : laid.problem ? message(laid.problem) : null);
    /** @type {ChoiceActionSpec[]} */
    const actions = [{ action: "attack", label: { key: "VOLLEY.Dialog.Fire" }, icon: "fa-solid fa-crosshairs", primary: true, needsTargets: true, blocked, hint: message(plan.charge) }];
    for (const handling of handlingActions(shooter, aim)) {
      actions.push({
        action: handling.action,
        label: /** @type {ChoiceMessage} */ (message(handling.label)),
        icon: ICONS[handling.action] ?? "fa-solid fa-hand",
        blocked: selectorMissing ?? (handling.blocked ? message(handling.blocked) : null),
        hint: message(handling.hint),
      });
    }
    return actions;
  }
}

/**
 * The MegaTraveller choice for these facts, as the dialog first shows it.
 * @param {ChoiceFacts} facts
 */
export function megatravellerChoice(facts) {
  return new MegaTravellerChoice(facts);
}
