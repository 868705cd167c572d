/**
 * The frame every system's attack dialog is built on: an ApplicationV2 with Handlebars parts.
 *
 * Parts, top to bottom: `shooter` (the weapon picker, rounds and jam), `body` (the system's own
 * template: modes, targets, modifiers), `preview` (a bar chart of P(k hits) per target, the jam chance)
 * and `footer` (the bridge's state, what happened last, and the action buttons). A system subclasses
 * `AttackDialog`, names its body template with `AttackDialog.partsWith(...)`, and fills in three
 * methods: `systemContext`, `choiceFields` and `actionsFor`; a system whose choice lives in a model
 * (systems/<id>/choice.js) subclasses `ChoiceAttackDialog` instead, which takes its buttons from the
 * model. A system with fire modes puts a select named `mode` (labelled "Mode") in its body template.
 *
 * What the frame does for every system:
 * - the choice it sends is the player's alone (weapon, mode, targets, shots, modifiers); the referee's
 *   browser builds the rules request from the actor's numbers (foundry/referee.js);
 * - the preview asks as the user types (paced, at most one question in flight), and says "bridge
 *   offline" at once;
 * - Enter in a field never fires: firing is an explicit button;
 * - it works by keyboard alone: the focus goes in when it opens, stays on the control it was on across
 *   re-renders, Escape closes it and the focus goes back to the HUD's Fire (foundry/focus.js);
 * - what a screen reader should hear (the odds once they settle, "asking the bridge…" only when the
 *   bridge is slow, "Sending…"/"Done") goes to Volley's live regions (foundry/live-regions.js), not to the
 *   parts, which are re-rendered;
 * - the dialog follows the token (rounds, jam), the user's targets and the bridge's state while open;
 * - what the user typed survives those refreshes (the values travel with the render that draws them,
 *   so two refreshes in a row, e.g. the answer to Fire and the token's update after a jam, cannot
 *   hand the second one an empty form);
 * - a system's running check of the form (`liveCheck`: GURPS's shots against RoF) is shown as the
 *   user types, in one place, and disables Fire with its reason;
 * - the window never runs past the bottom of the screen: its body scrolls, the buttons stay in view;
 * - its buttons and the module API (scripts/foundry/api.js) send through the same door (`sendChoice`, which
 *   calls `volley.preAttack` first). The API fills the system's choice model (systems/<id>/choice.js,
 *   the one the dialog edits) without rendering anything, so a macro's shot starts from what the dialog
 *   would show and passes the same checks (the running check included).
 *
 * This file is the window: its life cycle, what it follows, the preview's wiring and the buttons. What
 * its parts show of the token and weapon is built in ./attack-views.js; the DOM work on its form (what
 * was typed, refusals marked, the running check beside Fire) is ./attack-form.js.
 */

import { findWeapon } from "../../adapters/identity.js";
import { isShowing } from "../../foundry/app-state.js";
import { sendChoice } from "../../foundry/attack-hooks.js";
import { announcer } from "../../foundry/live-regions.js";
import { assignWeaponMacro, makeWeaponDraggable, weaponDrop } from "../../foundry/hotbar.js";
import { bridgeOnline, onBridgeStatus, sendRelayed } from "../../foundry/bridge.js";
import { arsenalOf } from "../../foundry/documents.js";
import { requestCancel } from "../../foundry/referee.js";
import { WindowFocus } from "../../foundry/focus.js";
import { OddsPanel } from "../../foundry/odds-panel.js";
import { fitToWindow } from "../../fit-window.js";
import { problemText, t } from "../../foundry/words.js";
import { userMessageMode } from "../../foundry/settings.js";
import { FormError } from "../../fields.js";
import { isButton, isInput, isSelect } from "../../foundry/window-dom.js";
import { CANCEL_HELD, choiceTargets, say } from "../../foundry/choice.js";
import { actionViews, bridgeView, problemsView, weaponLabel, weaponView } from "./attack-views.js";
import { controlLabel, formValues, markRefused, refusalText, restoreTyped, showLiveCheck, typedValues } from "./attack-form.js";

const { ApplicationV2, HandlebarsApplicationMixin } = foundry.applications.api;

const TEMPLATES = "modules/volley/templates/attack";

/**
 * @typedef {import("../../profile/types.js").VolleyWeapon} VolleyWeapon
 * @typedef {import("../../profile/weapons.js").Arsenal} Arsenal
 * @typedef {import("../../registry.js").RuleSystemPlugin} RuleSystemPlugin
 * @typedef {import("../../registry.js").WeaponReadout} WeaponReadout
 * @typedef {import("../../registry.js").Choice} Choice
 * @typedef {import("../../registry.js").ChoiceModelView} ChoiceModelView
 * @typedef {{id: string, name: string}} TargetRef
 * @typedef {{action: string, label: string, icon: string, primary?: boolean, needsTargets?: boolean,
 *   blocked?: string | null, hint?: string}} ActionSpec a button: `blocked` says why it cannot be used
 *   now (a jam); `hint`, what it does (its tooltip while it can be used)
 * @typedef {{token: TokenDocument, plugin: RuleSystemPlugin}} DialogSetup
 */

export class AttackDialog extends HandlebarsApplicationMixin(ApplicationV2) {
  /** Every open attack dialog, so the glue can refresh them when a token, the targets or the bridge change. */
  static openDialogs = /** @type {Set<AttackDialog>} */ (new Set());

  static DEFAULT_OPTIONS = {
    tag: "form",
    classes: ["volley", "volley-attack-dialog"],
    window: { icon: "fa-solid fa-crosshairs", resizable: true },
    position: { width: 580, height: /** @type {const} */ ("auto") },
    form: { handler: AttackDialog.#onSubmit, submitOnChange: false, closeOnSubmit: false },
    actions: { volleyAct: AttackDialog.#onAct, volleyHotbar: AttackDialog.#onHotbar },
  };

  /**
   * The parts of a system's dialog, with its own body template.
   * @param {string} bodyTemplate e.g. `modules/volley/templates/systems/gurps/attack-body.hbs`
   */
  static partsWith(bodyTemplate) {
    return {
      shooter: { template: `${TEMPLATES}/shooter.hbs` },
      body: { template: bodyTemplate },
      preview: { template: `${TEMPLATES}/preview.hbs` },
      footer: { template: `${TEMPLATES}/footer.hbs` },
    };
  }

  static PARTS = AttackDialog.partsWith(`${TEMPLATES}/body.hbs`);

  /** @type {string | null} */
  weaponId = null;
  /** What happened last, for the footer. @type {{text: string, error: boolean}} */
  notice = { text: "", error: false };
  sending = false;
  #online = false;
  /** @type {(() => void) | null} */
  #unsubscribe = null;
  /** @type {WindowFocus} */
  #focus;
  /** The last re-render asked for, so the API can wait for the form to settle. @type {Promise<unknown>} */
  #settling = Promise.resolve();
  /**
   * The targets when the API names them (the user's own targets otherwise). @type {TargetRef[] | null}
   */
  fixedTargets = null;

  /** @param {DialogSetup} setup */
  constructor({ token, plugin }) {
    super({ id: `volley-attack-${token.id}` });
    this.token = token;
    this.plugin = plugin;
    // Made as the window opens: the focused element is the control that opened it (the HUD's Fire).
    this.#focus = new WindowFocus({
      fallback: () => document.querySelector(`button.volley-fire[data-token-id="${CSS.escape(String(token.id))}"]`),
    });
    /** The live odds (foundry/odds-panel.js): drawn in the preview part, said once they settle. */
    this.oddsPanel = new OddsPanel(() => this.#oddsChanged());
  }

  get title() {
    return t("VOLLEY.Dialog.Title", { name: this.token.name ?? "" });
  }

  // --- what a system fills in --------------------------------------------------------------------

  /**
   * The body template's `system` context.
   * @param {VolleyWeapon} _weapon
   * @param {Arsenal} _arsenal
   * @param {TargetRef[]} _targets
   * @returns {Promise<Record<string, unknown>>}
   */
  async systemContext(_weapon, _arsenal, _targets) {
    return {};
  }

  /**
   * The system's part of the choice for `action`, read from the form (FormError names a bad field).
   * @param {Record<string, string>} _values
   * @param {string} _action
   * @returns {Record<string, unknown>}
   */
  choiceFields(_values, _action) {
    return {};
  }

  /**
   * The tokens the preview charts, in order: the user's targets, unless the system's attack lists
   * others too (MegaTraveller's bystanders in the danger space) or leaves some out.
   * @param {TargetRef[]} targets
   * @returns {TargetRef[]}
   */
  previewTargets(targets) {
    return targets;
  }

  /**
   * Lines the system adds under the charts from the bridge's odds (d100: the chance each target ends
   * suppressed or prone). Called only while the charts answer the form as it is.
   * @param {unknown} _odds the bridge's `odds` object
   * @param {TargetRef[]} _targets
   * @returns {string[]}
   */
  oddsLines(_odds, _targets) {
    return [];
  }

  /**
   * The action whose odds the preview shows for the form as it is, or null for none: by default the
   * system's first preview action; a system whose modes differ (d100: an attack, overwatch fire, or
   * setting an overwatch order, which rolls nothing) chooses by the form.
   * @returns {string | null}
   */
  previewAction() {
    return this.plugin.previewActions[0] ?? null;
  }

  /**
   * What the preview says of a token the bridge's answer gives no odds for, in the system's words, or
   * null for the frame's "no shots, no odds" (d100: a burst's other token given no extra hits).
   * @param {TargetRef} _target
   * @returns {string | null}
   */
  noShotsText(_target) {
    return null;
  }

  /**
   * What the preview calls the chance of a jam, in the system's own words, or null for a system whose
   * weapons never jam (MegaTraveller): then the preview leaves the jam chance out.
   * @returns {string | null}
   */
  jamLabel() {
    return t("VOLLEY.Dialog.Jam");
  }

  /**
   * The bridge answered an attack with `pending` (a two-step system rolled only the pool): the
   * system may open its allocation step at once for the player who fired.
   * @param {import("../../protocol.js").BridgeMessage} _reply
   * @param {Choice} _choice
   * @returns {Promise<void>}
   */
  async onPending(_reply, _choice) {}

  /**
   * A button's request was answered (not refused) and the form redrawn with what was typed: a system
   * puts back fields that belonged to that one action (d100: the modifier of a suppression test is not
   * carried into the next recovery).
   * @param {string} _action
   */
  afterAction(_action) {}

  /**
   * A button the dialog answers by itself, without the bridge (d100: "the trigger is met", which only
   * opens the step that fires a standing order). True when handled.
   * @param {string} _action
   * @returns {Promise<boolean>}
   */
  async localAction(_action) {
    return false;
  }

  /**
   * The system's running check of the form as it is typed, or null for none: a line kept in view
   * (`tally`, e.g. "Shots 16 / RoF 13") and, when the form cannot be fired as it is, why (`blocked`):
   * Fire is then disabled with that reason and no odds are asked for. Said in one place only.
   * @param {Record<string, string>} _values
   * @returns {{tally: string, blocked: string | null} | null}
   */
  liveCheck(_values) {
    return null;
  }

  /**
   * The buttons for this weapon; the first `primary` one is the Fire button.
   * @param {VolleyWeapon} _weapon
   * @param {WeaponReadout} _readout
   * @returns {ActionSpec[]}
   */
  actionsFor(_weapon, _readout) {
    return [{ action: "attack", label: t("VOLLEY.Dialog.Fire"), icon: "fa-solid fa-crosshairs", primary: true, needsTargets: true }];
  }

  // --- context -------------------------------------------------------------------------------------

  /** The user's targets (or the API's), without the shooter. @returns {TargetRef[]} */
  targets() {
    return choiceTargets(this.token, this.fixedTargets);
  }

  /**
   * @param {Arsenal} arsenal
   * @returns {VolleyWeapon | null}
   */
  #weapon(arsenal) {
    const chosen = findWeapon(arsenal.weapons, this.weaponId) ?? arsenal.weapons.find((w) => w.id === arsenal.current) ?? arsenal.weapons[0] ?? null;
    this.weaponId = chosen?.id ?? null;
    return chosen;
  }

  /** @param {any} options */
  async _prepareContext(options) {
    const base = await super._prepareContext(options);
    const arsenal = arsenalOf(this.token, this.plugin.id);
    const weapon = this.#weapon(arsenal);
    const readout = weapon ? this.plugin.readout(weapon) : null;
    const targets = this.targets();
    this.#online = bridgeOnline();
    return {
      ...base,
      appId: this.id,
      systemName: t(this.plugin.label),
      weapons: arsenal.weapons.map((w) => ({ id: w.id, label: weaponLabel(this.plugin, w), selected: w.id === this.weaponId })),
      noWeapons: t("VOLLEY.Dialog.NoWeapons", { name: this.token.name ?? "" }),
      weapon: weapon && readout ? weaponView(weapon, readout) : null,
      ...problemsView(arsenal.problems),
      targets,
      noTargets: targets.length === 0 ? t("VOLLEY.Dialog.NoTargets") : "",
      system: weapon ? await this.systemContext(weapon, arsenal, targets) : {},
      preview: this.#previewView(weapon ? this.previewTargets(targets) : targets),
      bridge: bridgeView(),
      notice: this.notice,
      actions: weapon && readout ? actionViews(this.token, weapon, this.actionsFor(weapon, readout), targets, this.sending) : [],
    };
  }

  /** @param {TargetRef[]} targets */
  #previewView(targets) {
    const view = this.oddsPanel.view(targets, {
      lines: () => this.oddsLines(this.oddsPanel.odds, targets),
      jamLabel: this.jamLabel(),
      shown: this.previewAction() !== null,
      noShots: (target) => this.noShotsText(target),
    });
    // The key to the hatched bar, under the charts whenever a chart is drawn.
    return { ...view, summaryShown: view.rows.some((row) => row.bars.length > 0) };
  }

  // --- rendering ---------------------------------------------------------------------------------

  /** @param {any} context @param {any} options */
  async _onFirstRender(context, options) {
    await super._onFirstRender(context, options);
    const root = this.element;
    AttackDialog.openDialogs.add(this);
    root.setAttribute("role", "dialog");
    root.setAttribute("aria-label", this.title);
    root.addEventListener("keydown", (event) => {
      // Enter in a field would submit the form; firing is an explicit button.
      if (event.key === "Enter" && isInput(event.target)) event.preventDefault();
    });
    root.addEventListener("change", (event) => this.#onFieldChange(event));
    root.addEventListener("input", (event) => {
      // A field edited: what the footer said of the last button is about another form.
      if (isInput(event.target) || isSelect(event.target)) this.dropNotice();
      if (isInput(event.target)) this.refreshPreview();
    });
    this.#unsubscribe = onBridgeStatus(() => this.#onBridgeChange());
    this.#focus.opened(root, () => this.close());
    this.refreshPreview();
  }

  /** @param {any} context @param {any} options */
  async _preRender(context, options) {
    await super._preRender(context, options);
    this.#focus.remember(this.element);
    // What the user typed, read now, as the render begins: a render waits its turn behind others (v13
    // queues renders), and what was typed meanwhile belongs in the fresh parts too.
    if (options?.volleyKeep && this.element) options.volleyKept = typedValues(/** @type {HTMLFormElement} */ (this.element));
  }

  /** @param {any} context @param {any} options */
  async _onRender(context, options) {
    await super._onRender(context, options);
    const kept = /** @type {Record<string, string> | undefined} */ (options?.volleyKept) ?? null;
    if (kept) restoreTyped(this.element, kept, /** @type {string[] | undefined} */ (options?.parts));
    const hotbar = this.element.querySelector("button.volley-hotbar-button");
    if (isButton(hotbar)) makeWeaponDraggable(hotbar, () => this.#weaponDrop());
    // While a request is out every button is disabled: the focus waits on the window, then goes back.
    this.#focus.restore(this.element, { fallback: ".volley-attack__buttons button" });
    this.applyLiveCheck();
    fitToWindow(this.element);
  }

  /**
   * Show the system's running check (`liveCheck`) and let it hold Fire back; true when it blocks.
   * Fire disabled for another reason (a jam, the bridge away, a request out) stays disabled.
   */
  applyLiveCheck() {
    if (!this.element) return false;
    const check = this.weaponId ? this.liveCheck(formValues(/** @type {HTMLFormElement} */ (this.element))) : null;
    return showLiveCheck(this.element, check, this.sending);
  }

  /** Put the focus in the dialog (it was asked for again while open). */
  focusIn() {
    if (this.element) this.#focus.focusIn(this.element);
  }

  /**
   * Out of the open dialogs the moment a close is asked for. v13 closes a window only after the renders
   * already asked of it (render and close share one queue), then animates it away; Fire pressed on the
   * token meanwhile must open a fresh dialog, not bring this one to the front just before it goes.
   * @param {any} [options]
   */
  close(options) {
    AttackDialog.openDialogs.delete(this);
    this.#focus.leaving(this.element);
    return super.close(options);
  }

  /** @param {any} options */
  _onClose(options) {
    super._onClose(options);
    AttackDialog.openDialogs.delete(this);
    this.oddsPanel.cancel();
    this.#unsubscribe?.();
    this.#focus.closed();
  }

  /**
   * Re-render parts, keeping what the user typed.
   * @param {string[]} parts
   * @param {{keep?: boolean}} [how]
   */
  async refresh(parts, { keep = true } = {}) {
    if (!isShowing(this)) return;
    const rendering = this.render(/** @type {any} */ ({ parts, volleyKeep: keep }));
    this.#settling = rendering;
    await rendering;
  }

  /** Once every re-render asked for so far (a field's change that reshapes the form) has finished. */
  async whenSettled() {
    for (let seen = null; seen !== this.#settling; ) {
      seen = this.#settling;
      await seen;
      // A change handler may ask for its re-render only after its own first await.
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  }

  /**
   * The label the user reads on the form control named `name`: its `<label for>`, the label around it,
   * else its `aria-label`; null when the form has no such control.
   * @param {string} name
   * @returns {string | null}
   */
  controlLabel(name) {
    return this.element ? controlLabel(this.element, name) : null;
  }

  /**
   * Mark the control a refusal names (aria-invalid: outlined, and a screen reader says so), and only
   * it: the mark a fixed field had goes.
   * @param {unknown} error a FormError (its `field`), or nothing to clear every mark
   */
  markRefused(error) {
    if (this.element) markRefused(this.element, error);
  }

  /**
   * A refusal in the user's words, naming the field by the label the user sees on it (#31: "Facing:
   * required", not the form's field name), when the refusal names one of the form's controls.
   * @param {unknown} error
   */
  refusalText(error) {
    return refusalText(this.element, error);
  }

  /** The token or its weapons changed (rounds, a jam): show it, and ask for fresh odds. */
  async tokenChanged() {
    await this.refresh(["shooter", "body", "footer"]);
    this.refreshPreview();
  }

  /** The user targeted or untargeted a token. */
  async targetsChanged() {
    await this.refresh(["body", "preview", "footer"]);
    this.refreshPreview();
  }

  async #onBridgeChange() {
    const online = bridgeOnline();
    const line = this.element?.querySelector(".volley-attack__bridge");
    if (online !== this.#online) {
      this.#online = online;
      await this.refresh(["footer"]);
      this.refreshPreview();
    } else if (line) {
      line.textContent = bridgeView().text;
    }
  }

  /** @param {Event} event */
  async #onFieldChange(event) {
    const field = event.target;
    if (isSelect(field) && field.name === "weapon") {
      this.weaponId = field.value;
      this.oddsPanel.summary = null;
      await this.refresh(["shooter", "body", "preview", "footer"], { keep: false });
    } else if (isInput(field)) {
      // Its `input` asked already (an arrow key sends both at once, a typed field `change` again on
      // leaving it): asking twice would drop the first answer and pace the second.
      return;
    }
    this.refreshPreview();
  }

  // --- the choice, the preview, the buttons --------------------------------------------------------

  /**
   * What the user chose for `action`, as it travels to the referee.
   * @param {string} action
   * @returns {Choice}
   */
  readChoice(action) {
    if (!this.weaponId) throw new FormError("weapon", "VOLLEY.Form.NoWeapon");
    const values = formValues(/** @type {HTMLFormElement} */ (this.element));
    return {
      ...this.choiceFields(values, action),
      system: this.plugin.id,
      token: String(this.token.id),
      weapon: this.weaponId,
      action,
      // Who may read the card is the player's call, as for any roll of theirs.
      rollMode: userMessageMode(),
    };
  }

  /** Cancel the pending attack that holds the weapon, through the referee (#31). */
  async #cancelHeld() {
    if (!this.weaponId) return;
    this.sending = true;
    this.#setNotice({ text: t("VOLLEY.Dialog.Sending"), error: false });
    await this.refresh(["footer"]);
    const reply = await requestCancel({ token: String(this.token.id), weapon: this.weaponId }, sendRelayed);
    this.sending = false;
    this.#setNotice(reply.type === "error" ? { text: problemText(reply), error: true } : { text: t("VOLLEY.Dialog.Cancelled"), error: false });
    await this.refresh(["shooter", "body", "footer"]);
    this.refreshPreview();
  }

  /** Ask for the odds of the form as it is now (paced, one in flight). */
  refreshPreview() {
    if (!isShowing(this)) return;
    this.markRefused(null);
    if (this.applyLiveCheck()) {
      // The running line already shows why: no odds, and no second copy of the reason under the
      // charts; a screen reader hears it where the odds would have been said.
      this.oddsPanel.clear();
      announcer("odds").say(this.element?.querySelector(".volley-attack__tally")?.textContent ?? "");
      return;
    }
    const action = this.previewAction();
    if (!action || this.targets().length === 0) {
      this.oddsPanel.clear();
      return;
    }
    const weapon = arsenalOf(this.token, this.plugin.id).weapons.find((w) => w.id === this.weaponId);
    if (weapon && this.plugin.readout(weapon).jammed) {
      // A jammed weapon fires nothing in any system: say so in the reader's words, ask nobody.
      this.oddsPanel.clear({ message: t("VOLLEY.Dialog.JammedBlocks"), plain: true });
      return;
    }
    /** @type {Choice} */
    let choice;
    try {
      choice = this.readChoice(action);
    } catch (error) {
      // The field by the label the user reads on it ("Modifier against Raider", not "Modifier"), marked.
      this.markRefused(error);
      // A reason the window words itself (`plain`: a slung weapon) is shown as it is.
      const plain = /** @type {{plain?: unknown}} */ (error)?.plain === true;
      this.oddsPanel.clear(plain ? error : { message: this.refusalText(error) });
      return;
    }
    this.oddsPanel.ask(choice, this.element);
  }

  /** The odds, or why there are none, changed: draw them and say them. */
  #oddsChanged() {
    if (!isShowing(this)) return;
    // "Done: see the card" answered the last button; under a new problem it reads as about that. A
    // refusal the button got stays: it is the problem.
    if ((this.oddsPanel.state === "problem" || this.oddsPanel.state === "blocked") && !this.notice.error) this.dropNotice();
    void this.render({ parts: ["preview"] });
    const targets = this.targets();
    this.oddsPanel.say(targets, () => this.oddsLines(this.oddsPanel.odds, targets));
  }

  /**
   * Forget what the footer said about the last button (the form changed, or a problem now shows): the
   * line empties where it is, without redrawing the buttons.
   */
  dropNotice() {
    if (!this.notice.text || this.sending) return;
    this.notice = { text: "", error: false };
    const line = this.element?.querySelector(".volley-attack__notice");
    if (line) {
      line.textContent = "";
      line.classList.remove("volley-attack__notice--error");
    }
  }

  /**
   * The footer's notice, shown and said.
   * @param {{text: string, error: boolean}} notice
   */
  #setNotice(notice) {
    this.notice = notice;
    announcer("dialog").say(notice.text);
  }

  /** What dragging the chosen weapon onto the hotbar carries (hotbar.js). */
  #weaponDrop() {
    const weapon = arsenalOf(this.token, this.plugin.id).weapons.find((w) => w.id === this.weaponId);
    if (!weapon) return null;
    return weaponDrop({
      tokenId: String(this.token.id),
      actorId: this.token.actor?.id ? String(this.token.actor.id) : null,
      weaponId: weapon.id,
      tokenName: this.token.name ?? "",
      weaponName: weapon.name,
      img: this.token.texture?.src ?? null,
    });
  }

  /**
   * The hotbar button clicked (or pressed): the chosen weapon's macro in the first free slot.
   * @this {AttackDialog}
   */
  static async #onHotbar() {
    const drop = this.#weaponDrop();
    if (drop) await assignWeaponMacro(drop);
  }

  /**
   * @this {AttackDialog}
   * @param {Event} _event
   * @param {HTMLFormElement} _form
   * @param {unknown} _data
   */
  static async #onSubmit(_event, _form, _data) {
    // Submitting the form (Enter) does nothing: every action has its own button.
  }

  /**
   * @this {AttackDialog}
   * @param {PointerEvent} _event
   * @param {HTMLElement} target
   */
  static async #onAct(_event, target) {
    const action = target.dataset.volley ?? "";
    if (!action || this.sending) return;
    if (action === CANCEL_HELD) {
      await this.#cancelHeld();
      return;
    }
    if (await this.localAction(action)) return;
    /** @type {Choice} */
    let choice;
    try {
      choice = this.readChoice(action);
    } catch (error) {
      this.markRefused(error);
      this.#setNotice({ text: this.refusalText(error), error: true });
      await this.refresh(["footer"]);
      return;
    }
    this.sending = true;
    this.#setNotice({ text: t("VOLLEY.Dialog.Sending"), error: false });
    await this.refresh(["footer"]);
    const type = this.plugin.previewActions.includes(action) ? "attack" : "action";
    const reply = await sendChoice(type, choice, { token: this.token, source: "dialog" });
    this.sending = false;
    if (reply.type === "error") this.#setNotice({ text: problemText(reply), error: true });
    else if (reply.type === "pending") this.#setNotice({ text: t("VOLLEY.Dialog.Pending"), error: false });
    else this.#setNotice({ text: t("VOLLEY.Dialog.Done"), error: false });
    await this.refresh(["shooter", "body", "footer"]);
    if (reply.type !== "error") this.afterAction(action);
    this.refreshPreview();
    if (reply.type === "pending") await this.onPending(reply, choice);
  }
}

/**
 * The frame for a dialog whose choice lives in the system's choice model (systems/<id>/choice.js, #37):
 * the dialog names its model (`choice`), and its buttons are the model's, in the reader's words.
 */
export class ChoiceAttackDialog extends AttackDialog {
  /**
   * The system's choice model for the weapon and targets as they are now.
   * @param {Record<string, string>} [_values] what the form holds, for a model built afresh each time
   * @returns {ChoiceModelView}
   */
  choice(_values) {
    throw new Error(`${this.constructor.name} names no choice model`);
  }

  /**
   * The model's buttons for the weapon, in the reader's words; the first `primary` one is Fire.
   * @param {VolleyWeapon} _weapon
   * @param {WeaponReadout} readout
   * @returns {ActionSpec[]}
   */
  actionsFor(_weapon, readout) {
    return this.choice()
      .actions(readout)
      .map((spec) => ({
        action: spec.action,
        label: say(spec.label),
        icon: spec.icon,
        primary: spec.primary,
        needsTargets: spec.needsTargets,
        blocked: spec.blocked ? say(spec.blocked) : null,
        hint: spec.hint ? say(spec.hint) : undefined,
      }));
  }
}
