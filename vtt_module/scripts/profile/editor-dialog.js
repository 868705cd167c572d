/**
 * The Volley profile editor: the actor's numbers for the world's rule system and its weapons, in the
 * book's own notation (GURPS RoF "13" or "3x9", d100 RoF "S/3/10"...), checked field by field as you
 * type, each problem shown beside its field and naming the rule. Opened from the actor sheet's header
 * and from the Token HUD.
 *
 * Only a game master edits by default (the numbers are what every request is built from; a world
 * setting lets players edit their own); anyone who owns the actor can read it. Weapons of other rule
 * systems on the same actor are kept untouched.
 *
 * By keyboard: the focus goes to the first field when it opens and stays on its field or button across
 * the re-render that Add, Remove and Save do; Escape closes it, and the focus goes back to whatever
 * opened it (foundry/focus.js). "Saved." and "Not saved" are said through Volley's live region.
 */

import { isShowing } from "../foundry/app-state.js";
import { announcer } from "../foundry/live-regions.js";
import { WindowFocus } from "../foundry/focus.js";
import { t } from "../foundry/words.js";
import { MODULE_ID } from "../foundry/settings.js";
import { assignWeaponMacro, makeWeaponDraggable, weaponDrop } from "../foundry/hotbar.js";
import { characterFromForm, fieldText, newWeapon, readProfile, storedProfile, weaponFromForm } from "./profile.js";
import { fitToWindow } from "../fit-window.js";
import { isInput } from "../foundry/window-dom.js";

const { ApplicationV2, HandlebarsApplicationMixin } = foundry.applications.api;

/**
 * @typedef {import("./types.js").VolleyWeapon} VolleyWeapon
 * @typedef {import("../registry.js").FieldSpec} FieldSpec
 * @typedef {import("../registry.js").RuleSystemPlugin} RuleSystemPlugin
 * @typedef {import("./profile.js").FieldProblem} FieldProblem
 */

/**
 * A field's problem in the reader's words.
 * @param {FieldProblem["problem"]} problem
 */
function problemWords(problem) {
  return t(problem.key, problem.values ?? {});
}

export class ProfileEditor extends HandlebarsApplicationMixin(ApplicationV2) {
  static DEFAULT_OPTIONS = {
    tag: "form",
    classes: ["volley", "volley-profile"],
    window: { icon: "fa-solid fa-person-rifle", resizable: true },
    position: { width: 680, height: /** @type {const} */ ("auto") },
    form: { handler: ProfileEditor.#onSubmit, submitOnChange: false, closeOnSubmit: false },
    actions: {
      volleyAddWeapon: ProfileEditor.#onAdd,
      volleyRemoveWeapon: ProfileEditor.#onRemove,
      volleySave: ProfileEditor.#onSave,
      volleyHotbarWeapon: ProfileEditor.#onHotbar,
    },
  };

  static PARTS = { form: { template: "modules/volley/templates/profile/editor.hbs" } };

  /** The weapons being edited, in order (ids). @type {string[]} */
  order = [];
  /** Every field's text as last typed. @type {Record<string, string | boolean>} */
  draft = {};
  notice = { text: "", error: false };
  /** Made as the window opens, so it knows the control that opened it. */
  #focus = new WindowFocus();
  /**
   * The editors open now, not closing (foundry/open.js): opening an actor's editor again brings its
   * window forward, where a fresh one drawn in its place (the same id) dropped whatever was typed and
   * not saved yet.
   * @type {Set<ProfileEditor>}
   */
  static openEditors = new Set();

  /**
   * @param {{actor: Actor, plugin: RuleSystemPlugin, editable: boolean}} setup
   */
  constructor({ actor, plugin, editable }) {
    super({ id: ProfileEditor.idFor(actor) });
    this.actor = actor;
    this.plugin = plugin;
    this.editable = editable;
    this.#loadDraft();
  }

  /**
   * The window's id: one editor per actor (a token's own actor for an unlinked token).
   * @param {Actor} actor
   */
  static idFor(actor) {
    return `volley-profile-${actor.isToken ? `${actor.token?.id}-` : ""}${actor.id}`;
  }

  get title() {
    return t("VOLLEY.Profile.Title", { name: this.actor.name ?? "" });
  }

  #stored() {
    return readProfile({ profile: this.actor.getFlag(MODULE_ID, "profile") });
  }

  #loadDraft() {
    const profile = this.#stored();
    const character = profile.character[this.plugin.id] ?? {};
    this.draft = {};
    for (const spec of this.plugin.profile.character) this.draft[`character.${spec.key}`] = fieldText(spec, character[spec.key] ?? spec.default);
    const mine = profile.weapons.filter((weapon) => weapon.system === this.plugin.id);
    this.order = mine.map((weapon) => weapon.id);
    for (const weapon of mine) this.#draftWeapon(weapon);
  }

  /** @param {VolleyWeapon} weapon */
  #draftWeapon(weapon) {
    const prefix = `weapons.${weapon.id}.`;
    this.draft[`${prefix}name`] = weapon.name;
    const skill = this.plugin.profile.skill;
    if (skill) this.draft[`${prefix}skill`] = fieldText(skill, weapon.skill);
    for (const spec of this.plugin.profile.stats) this.draft[`${prefix}stats.${spec.key}`] = fieldText(spec, weapon.stats[spec.key]);
    for (const spec of this.plugin.profile.state) this.draft[`${prefix}state.${spec.key}`] = fieldText(spec, weapon.state[spec.key]);
  }

  /** Take what is in the form into the draft (checkboxes too, which FormData leaves out when clear). */
  #readForm() {
    if (!isShowing(this)) return;
    for (const element of this.element.querySelectorAll("input[name], select[name]")) {
      const field = /** @type {HTMLInputElement | HTMLSelectElement} */ (element);
      this.draft[field.name] = isInput(field) && field.type === "checkbox" ? field.checked : field.value;
    }
  }

  /** Every problem in the draft, by field name. */
  #check() {
    /** @type {Map<string, string>} */
    const problems = new Map();
    for (const { field, problem } of characterFromForm(this.plugin, this.draft, "character.").problems) problems.set(field, problemWords(problem));
    for (const id of this.order) {
      for (const { field, problem } of weaponFromForm(this.plugin, id, this.draft, `weapons.${id}.`).problems) {
        if (!problems.has(field)) problems.set(field, problemWords(problem));
      }
    }
    return problems;
  }

  /**
   * @param {FieldSpec} spec
   * @param {string} name
   * @param {Map<string, string>} problems
   */
  #fieldView(spec, name, problems) {
    const value = this.draft[name];
    const domId = `${this.id}-${name.replace(/[^A-Za-z0-9_-]/g, "-")}`;
    return {
      name,
      domId,
      label: t(spec.label),
      hint: spec.hint ? t(spec.hint) : "",
      kind: spec.kind,
      isInt: spec.kind === "int",
      isText: spec.kind === "text",
      isSelect: spec.kind === "select",
      isFlag: spec.kind === "flag",
      value: typeof value === "string" ? value : "",
      checked: value === true,
      min: spec.min ?? "",
      max: spec.max ?? "",
      options: [
        ...(spec.optional ? [{ value: "", label: "—", selected: !value }] : []),
        ...(spec.options ?? []).map((option) => ({
          value: option,
          label: spec.optionLabel ? t(`${spec.optionLabel}.${option}`) : option,
          selected: value === option,
        })),
      ],
      problem: problems.get(name) ?? "",
    };
  }

  /** @param {any} options */
  async _prepareContext(options) {
    const base = await super._prepareContext(options);
    const problems = this.#check();
    const profile = this.#stored();
    const others = profile.weapons.filter((weapon) => weapon.system !== this.plugin.id).length;
    const skill = this.plugin.profile.skill;
    return {
      ...base,
      appId: this.id,
      editable: this.editable,
      systemName: t(this.plugin.label),
      character: this.plugin.profile.character.map((spec) => this.#fieldView(spec, `character.${spec.key}`, problems)),
      weapons: this.order.map((id) => {
        const prefix = `weapons.${id}.`;
        const name = String(this.draft[`${prefix}name`] ?? "");
        return {
          id,
          legend: name || t("VOLLEY.Dialog.Unnamed"),
          removeLabel: t("VOLLEY.Profile.RemoveWeapon", { name: name || t("VOLLEY.Dialog.Unnamed") }),
          basics: [
            this.#fieldView({ key: "name", kind: "text", label: "VOLLEY.Profile.WeaponName", default: "" }, `${prefix}name`, problems),
            ...(skill ? [this.#fieldView(skill, `${prefix}skill`, problems)] : []),
          ],
          stats: this.plugin.profile.stats.map((spec) => this.#fieldView(spec, `${prefix}stats.${spec.key}`, problems)),
          state: this.plugin.profile.state.map((spec) => this.#fieldView(spec, `${prefix}state.${spec.key}`, problems)),
        };
      }),
      others: others ? t("VOLLEY.Profile.Others", { n: others }) : "",
      readOnly: this.editable ? "" : t("VOLLEY.Profile.ReadOnly"),
      notice: this.notice,
    };
  }

  /** @param {any} context @param {any} options */
  async _onFirstRender(context, options) {
    await super._onFirstRender(context, options);
    this.element.setAttribute("role", "dialog");
    this.element.setAttribute("aria-label", this.title);
    this.element.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && isInput(event.target)) event.preventDefault();
    });
    const check = () => this.#showProblems();
    this.element.addEventListener("input", check);
    this.element.addEventListener("change", check);
    if (!this.editable) this.#disableFields();
    ProfileEditor.openEditors.add(this);
    this.#focus.opened(this.element, () => this.close());
  }

  /** Put the focus in the editor (it was asked for again while open). */
  focusIn() {
    if (this.element) this.#focus.focusIn(this.element);
  }

  /** @param {any} context @param {any} options */
  async _preRender(context, options) {
    await super._preRender(context, options);
    this.#focus.remember(this.element);
  }

  /** @param {any} context @param {any} options */
  async _onRender(context, options) {
    await super._onRender(context, options);
    if (!this.editable) this.#disableFields();
    // A saved weapon can be dragged onto the hotbar (hotbar.js); one not saved yet has nothing to open.
    const saved = new Set(this.#stored().weapons.map((weapon) => weapon.id));
    for (const element of this.element.querySelectorAll("button.volley-hotbar-button[data-weapon]")) {
      const button = /** @type {HTMLButtonElement} */ (element);
      const id = button.dataset.weapon ?? "";
      button.disabled = !saved.has(id);
      if (saved.has(id)) makeWeaponDraggable(button, () => this.#weaponDrop(id));
    }
    this.#focus.restore(this.element, { fallback: ".volley-profile__buttons button" });
    fitToWindow(this.element);
  }

  /**
   * What dragging weapon `id` onto the hotbar carries: this actor's token (a token's own actor), or the
   * actor, found on the scene being viewed when the macro runs.
   * @param {string} id
   */
  #weaponDrop(id) {
    const weapon = this.#stored().weapons.find((w) => w.id === id);
    if (!weapon) return null;
    const token = this.actor.isToken ? this.actor.token : null;
    return weaponDrop({
      tokenId: token?.id ? String(token.id) : null,
      actorId: this.actor.id ? String(this.actor.id) : null,
      weaponId: id,
      tokenName: token?.name ?? this.actor.name ?? "",
      weaponName: weapon.name,
      img: this.actor.img,
    });
  }

  /**
   * The hotbar button clicked (or pressed): the weapon's macro in the first free slot.
   * @this {ProfileEditor}
   * @param {PointerEvent} _event
   * @param {HTMLElement} target
   */
  static async #onHotbar(_event, target) {
    const drop = this.#weaponDrop(target.dataset.weapon ?? "");
    if (drop) await assignWeaponMacro(drop);
  }

  #disableFields() {
    for (const field of this.element.querySelectorAll("input, select")) /** @type {HTMLInputElement} */ (field).disabled = true;
  }

  /**
   * The focus goes back to what opened the editor as soon as a close is asked for (v13 animates it away).
   * @param {any} [options]
   */
  close(options) {
    ProfileEditor.openEditors.delete(this);
    this.#focus.leaving(this.element);
    return super.close(options);
  }

  /** @param {any} options */
  _onClose(options) {
    super._onClose(options);
    ProfileEditor.openEditors.delete(this);
    this.#focus.closed();
  }

  /**
   * The notice under the fields, shown and said.
   * @param {{text: string, error: boolean}} notice
   */
  #setNotice(notice) {
    this.notice = notice;
    if (notice.text) announcer("dialog").say(notice.text);
  }

  /** As you type: every field's problem beside it, without re-rendering (focus stays put). */
  #showProblems() {
    this.#readForm();
    const problems = this.#check();
    for (const element of this.element.querySelectorAll("[data-volley-field]")) {
      const field = /** @type {HTMLElement} */ (element);
      const name = field.dataset.volleyField ?? "";
      const problem = problems.get(name) ?? "";
      const input = field.querySelector("input, select");
      const line = field.querySelector(".volley-field__problem");
      if (line) line.textContent = problem;
      if (input) {
        if (problem) input.setAttribute("aria-invalid", "true");
        else input.removeAttribute("aria-invalid");
      }
      field.classList.toggle("volley-field--invalid", Boolean(problem));
      if (name.endsWith(".name")) {
        const legend = field.closest("fieldset")?.querySelector("legend .volley-profile__weapon-name");
        if (legend) legend.textContent = String(this.draft[name] || t("VOLLEY.Dialog.Unnamed"));
      }
    }
    const summary = this.element.querySelector(".volley-profile__summary");
    if (summary) summary.textContent = problems.size ? t("VOLLEY.Profile.Problems", { n: problems.size }) : "";
  }

  /**
   * Every problem of the form, one line each, named by its weapon and its field as the form labels
   * them ("MP5 · Rounds loaded: must be at most 30"), in the order the fields stand.
   * @returns {string[]}
   */
  #problemLines() {
    const problems = this.#check();
    /** @type {string[]} */
    const lines = [];
    for (const element of this.element.querySelectorAll("[data-volley-field]")) {
      const field = /** @type {HTMLElement} */ (element);
      const problem = problems.get(field.dataset.volleyField ?? "");
      if (!problem) continue;
      const label = field.querySelector("label")?.textContent?.trim() ?? field.dataset.volleyField ?? "";
      const weapon = field.closest("fieldset")?.querySelector("legend .volley-profile__weapon-name")?.textContent?.trim();
      lines.push(`${weapon ? `${weapon} · ` : ""}${label}: ${problem}`);
    }
    return lines;
  }

  /**
   * @this {ProfileEditor}
   */
  static async #onSubmit() {
    // Enter never saves: Save is a button.
  }

  /** @this {ProfileEditor} */
  static async #onAdd() {
    if (!this.editable) return;
    this.#readForm();
    const taken = [...this.order, ...this.#stored().weapons.map((w) => w.id)];
    const weapon = newWeapon(this.plugin, taken, t("VOLLEY.Profile.NewWeapon"));
    this.order.push(weapon.id);
    this.#draftWeapon(weapon);
    this.#setNotice({ text: "", error: false });
    await this.render();
    /** @type {HTMLInputElement | null} */ (this.element.querySelector(`[name="weapons.${weapon.id}.name"]`))?.select();
  }

  /**
   * @this {ProfileEditor}
   * @param {PointerEvent} _event
   * @param {HTMLElement} target
   */
  static async #onRemove(_event, target) {
    if (!this.editable) return;
    this.#readForm();
    const id = target.dataset.weapon;
    this.order = this.order.filter((weaponId) => weaponId !== id);
    await this.render();
  }

  /** @this {ProfileEditor} */
  static async #onSave() {
    if (!this.editable) return;
    this.#readForm();
    const character = characterFromForm(this.plugin, this.draft, "character.");
    const weapons = this.order.map((id) => weaponFromForm(this.plugin, id, this.draft, `weapons.${id}.`));
    const problems = [...character.problems, ...weapons.flatMap((w) => w.problems)];
    if (problems.length > 0) {
      const list = this.#problemLines();
      this.#setNotice({ text: [t("VOLLEY.Profile.NotSaved", { n: list.length || problems.length }), ...list].join("\n"), error: true });
      await this.render();
      /** @type {HTMLElement | null} */ (this.element.querySelector('[aria-invalid="true"]'))?.focus();
      return;
    }
    const stored = this.#stored();
    /** @type {Record<string, unknown>} */
    const numbers = {};
    for (const spec of this.plugin.profile.character) numbers[spec.key] = character.numbers[spec.key] ?? null;
    const profile = storedProfile({
      character: { ...stored.character, [this.plugin.id]: numbers },
      weapons: [...stored.weapons.filter((w) => w.system !== this.plugin.id), ...weapons.map((w) => w.weapon)],
      current: stored.current,
    });
    /** @type {Record<string, unknown>} */
    const changes = {};
    changes[`flags.${MODULE_ID}.profile`] = profile;
    await this.actor.update(changes);
    this.#setNotice({ text: t("VOLLEY.Profile.Saved"), error: false });
    await this.render();
  }
}
