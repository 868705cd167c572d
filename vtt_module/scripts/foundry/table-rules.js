/**
 * The world setting `tableRules` and the "Table rules" menu that edits it (game master only).
 *
 * The setting holds only the readings a table changed, `{<system>: {<field>: value}}` with the
 * request's own field names (table-rules/readings.js, written from the rules engine's declaration).
 * The browser holding the bridge merges it into every request and preview it builds (referee.js,
 * through `withTableRules`); the module's own readings (MegaTraveller's danger space, d100 overwatch
 * ending at the shooter's turn) are read from it with `tableRuleValue`.
 *
 * The menu shows every reading of every system: its name, Volley's reading and the other one (one
 * line each), a control, and "Reset to Volley's readings". Save checks the values against the
 * declaration, then asks the bridge (an odds preview of a small request carrying them) when this
 * browser holds it, and shows any refusal beside its field; nothing is saved until both agree.
 */

import { newRequestId, rulesMessage } from "../protocol.js";
import { MODULE_READINGS, checkTableRules, isDefault, migrateOverwatchSetting, onlyChanges, readingsOf, tableReading, withTableRules } from "../table-rules/table-rules.js";
import { READINGS } from "../table-rules/readings.js";
import { announcer } from "./live-regions.js";
import { problemText, t } from "./words.js";
import { isHtmlElement, isInput } from "./window-dom.js";

const { ApplicationV2, HandlebarsApplicationMixin } = foundry.applications.api;

const MODULE_ID = "volley";
export const TABLE_RULES_SETTING = "tableRules";
export const TABLE_RULES_TEMPLATE = "modules/volley/templates/table-rules.hbs";

/**
 * Requests per system the bridge can preview, to check the table's values with the rules' own
 * validation: between them every reading is in play (table-rules.js IN_PLAY: MegaTraveller's
 * exceptional margin rides single fire, its splitting DM a burst at two targets, its danger space
 * automatic fire).
 * @type {Record<string, {request: Record<string, unknown>, actions: string[]}[]>}
 */
const PROBES = {
  gurps: [{ actions: ["attack"], request: { system: "gurps", action: "attack", attacker: { id: "probe", skill: 12 }, weapon: { rof: 3, rcl: 2, loaded: 3 }, shots: 3, targets: [{ id: "t1", dodge: 8 }] } }],
  megatraveller: [
    { actions: ["fire", "retarget_and_fire"], request: { system: "megatraveller", action: "fire", mode: "single", attacker: { id: "probe", skill: 1, dex: 7 }, weapon: { kind: "pistol", loaded: 6 }, targets: [{ id: "t1" }] } },
    { actions: ["fire"], request: { system: "megatraveller", action: "fire", mode: "burst", attacker: { id: "probe", skill: 1, dex: 7, selector: "burst" }, weapon: { kind: "rifle", burst: 3, loaded: 9 }, targets: [{ id: "t1" }, { id: "t2" }] } },
    { actions: ["fire"], request: { system: "megatraveller", action: "fire", mode: "auto", attacker: { id: "probe", skill: 1, dex: 7, selector: "auto" }, weapon: { kind: "rifle", auto: true, auto_targets: 2, loaded: 30 }, targets: [{ id: "t1" }] } },
    { actions: ["fast_draw"], request: { system: "megatraveller", action: "fast_draw", mode: "single", attacker: { id: "probe", skill: 1, dex: 7, readiness: "holstered" }, weapon: { kind: "pistol", loaded: 6 }, targets: [{ id: "t1" }] } },
  ],
  d100: [{ actions: ["attack"], request: { system: "d100", action: "attack", mode: "single", attacker: { id: "probe", bs: 40 }, weapon: { rof: "S/-/-", loaded: 6, range: 30 }, targets: [{ id: "t1", band: "long" }] } }],
};

/**
 * Register the setting and its menu (in `init`).
 * @param {{onChange?: () => void}} [callbacks]
 */
export function registerTableRules({ onChange } = {}) {
  game.settings.register(MODULE_ID, TABLE_RULES_SETTING, {
    name: "VOLLEY.Settings.TableRules.Name",
    hint: "VOLLEY.Settings.TableRules.Hint",
    scope: "world",
    config: false,
    type: Object,
    default: {},
    onChange: (value) => {
      for (const menu of TableRulesMenu.open) if (!menu.dirty) void menu.render();
      // A macro's bad value is said at once to the game masters: until it is fixed, every request of
      // that system is refused (naming the same path) rather than sent without the table's rules.
      try {
        checkTableRules(value);
      } catch (error) {
        if (game.user.isGM) ui.notifications.error(`Volley: ${problemText(error)}`);
      }
      onChange?.();
    },
  });
  game.settings.registerMenu(MODULE_ID, TABLE_RULES_SETTING, {
    name: "VOLLEY.Settings.TableRules.Name",
    label: "VOLLEY.Settings.TableRules.Label",
    hint: "VOLLEY.Settings.TableRules.Hint",
    icon: "fa-solid fa-scale-balanced",
    type: TableRulesMenu,
    restricted: true,
  });
}

/** The table rules as stored (an empty object when none were chosen). */
export function tableRules() {
  const value = game.settings.get(MODULE_ID, TABLE_RULES_SETTING);
  return typeof value === "object" && value !== null ? /** @type {Record<string, Record<string, unknown>>} */ (value) : {};
}

/**
 * One reading's value at this table (the module's own readings read it here).
 * @param {string} system
 * @param {string} field
 */
export function tableRuleValue(system, field) {
  return tableReading(system, field, tableRules());
}

/**
 * A request as this table plays it (referee.js, for every request and preview).
 * @template {Record<string, unknown>} R
 * @param {string} system
 * @param {R} request
 * @returns {R}
 */
export function asTablePlays(system, request) {
  return withTableRules(system, request, tableRules());
}

/**
 * The old world setting `overwatchEndsOnTurn` moves into the table rules once, by the active game
 * master's browser (in `ready`): a table that had turned it off keeps it off.
 * @param {unknown} oldValue the old setting's value
 */
export async function migrateOldSettings(oldValue) {
  if (!game.user.isGM || game.users.activeGM?.id !== game.user.id) return;
  const moved = migrateOverwatchSetting(tableRules(), oldValue);
  if (!moved) return;
  await game.settings.set(MODULE_ID, TABLE_RULES_SETTING, moved);
  // Moved: the old setting goes back to its default, so a later reset in the menu is not undone by it.
  await game.settings.set(MODULE_ID, "overwatchEndsOnTurn", true);
}

/**
 * The form's name for a reading's control (a band's control adds `.<band>`).
 * @param {string} system @param {string} field
 */
const controlName = (system, field) => `${system}.${field}`;

/**
 * The words for one choice of a reading.
 * @param {string} system @param {import("../table-rules/readings.js").Reading} reading @param {unknown} choice
 */
function choiceWords(system, reading, choice) {
  const key = `VOLLEY.TableRules.Readings.${system}.${reading.field}.Choices.${String(choice)}`;
  const words = game.i18n.has(key) ? game.i18n.localize(key) : String(choice);
  return choice === reading.default ? t("VOLLEY.TableRules.VolleyChoice", { choice: words }) : words;
}

export class TableRulesMenu extends HandlebarsApplicationMixin(ApplicationV2) {
  static DEFAULT_OPTIONS = {
    tag: "form",
    classes: ["volley", "volley-table-rules"],
    window: { title: "VOLLEY.TableRules.Title", icon: "fa-solid fa-scale-balanced", resizable: true },
    position: { width: 640, height: /** @type {const} */ ("auto") },
    form: { handler: TableRulesMenu.#onSubmit, submitOnChange: false, closeOnSubmit: false },
    actions: { volleyResetTableRules: TableRulesMenu.#onReset, volleySaveTableRules: TableRulesMenu.#onSave },
  };

  static PARTS = { form: { template: TABLE_RULES_TEMPLATE } };

  /** Menus open in this browser. @type {Set<TableRulesMenu>} */
  static open = new Set();

  /** The values shown, not yet saved. @type {Record<string, Record<string, unknown>>} */
  draft = structuredClone(tableRules());
  /** The form was edited since it was last saved or loaded. */
  dirty = false;
  notice = { text: "", error: false };
  /** A refusal beside its field: the path (`megatraveller.split_dm_counts`) and the words. */
  problem = { path: "", text: "" };

  get title() {
    return t("VOLLEY.TableRules.Title");
  }

  /** @param {any} options */
  async _prepareContext(options) {
    const context = await super._prepareContext(options);
    if (!this.dirty) this.draft = structuredClone(tableRules());
    const gm = Boolean(game.user.isGM);
    const systems = Object.keys(READINGS).map((system) => ({
      id: system,
      title: game.i18n.localize(`VOLLEY.Systems.${system}`),
      readings: readingsOf(system).map((reading) => this.#readingView(system, reading)),
    }));
    return { ...context, gm, systems, notice: this.notice };
  }

  /**
   * @param {string} system
   * @param {import("../table-rules/readings.js").Reading} reading
   */
  #readingView(system, reading) {
    const base = `VOLLEY.TableRules.Readings.${system}.${reading.field}`;
    const chosen = this.draft[system]?.[reading.field];
    const value = chosen === undefined ? reading.default : chosen;
    const name = controlName(system, reading.field);
    const problem = this.problem.path === name || this.problem.path.startsWith(`${name}.`) ? this.problem.text : "";
    // The control the refusal is about is marked (a band's own field, or the whole reading's).
    const invalid = (/** @type {string} */ control) => Boolean(problem) && (this.problem.path === control || this.problem.path === name);
    /** @type {{value: string, label: string, selected: boolean}[]} */
    let options = [];
    if (reading.kind === "choice") {
      const choices = [...(reading.choices ?? [])];
      if (!choices.includes(/** @type {any} */ (value))) choices.push(/** @type {any} */ (value));
      options = choices.map((choice) => ({ value: String(choice), label: choiceWords(system, reading, choice), selected: choice === value }));
    }
    const bands = reading.kind === "bands"
      ? (reading.members ?? []).map((band) => ({
          name: `${name}.${band}`,
          label: game.i18n.localize(`VOLLEY.Msg.${system}.band.${band}`),
          value: /** @type {Record<string, number>} */ ({ ...reading.default, .../** @type {object} */ (value) })[band],
          volley: reading.default[band],
          invalid: invalid(`${name}.${band}`),
        }))
      : [];
    return {
      field: reading.field,
      name,
      kind: reading.kind,
      isChoice: reading.kind === "choice",
      isInteger: reading.kind === "integer",
      isBoolean: reading.kind === "boolean",
      isBands: reading.kind === "bands",
      label: game.i18n.localize(`${base}.Name`),
      volley: game.i18n.localize(`${base}.Volley`),
      other: game.i18n.localize(`${base}.Other`),
      value,
      checked: value === true,
      minimum: reading.minimum,
      maximum: reading.maximum,
      options,
      bands,
      changed: !isDefault(reading, chosen),
      problem,
      invalid: invalid(name),
    };
  }

  /** @param {any} context @param {any} options */
  async _onFirstRender(context, options) {
    await super._onFirstRender(context, options);
    TableRulesMenu.open.add(this);
    this.element.setAttribute("role", "dialog");
    this.element.setAttribute("aria-label", this.title);
    this.element.addEventListener("keydown", (event) => {
      // Enter in a field never saves: Save is a button, after the bridge has had its say.
      if (event.key === "Enter" && isInput(event.target)) event.preventDefault();
    });
    this.element.addEventListener("input", () => (this.dirty = true));
    this.element.addEventListener("change", () => (this.dirty = true));
  }

  /** @param {any} options */
  _onClose(options) {
    super._onClose(options);
    TableRulesMenu.open.delete(this);
  }

  /** Read every control into `draft` (kept as typed where a number does not parse, so it is refused). */
  #readForm() {
    const form = /** @type {HTMLFormElement} */ (this.element);
    /** @type {Record<string, Record<string, unknown>>} */
    const draft = {};
    for (const [system, readings] of Object.entries(READINGS)) {
      for (const reading of readings) {
        const name = controlName(system, reading.field);
        /** @type {unknown} */
        let value;
        if (reading.kind === "bands") {
          /** @type {Record<string, unknown>} */
          const bands = {};
          for (const band of reading.members ?? []) bands[band] = numberOf(form.querySelector(`[name="${name}.${band}"]`));
          value = bands;
        } else {
          const control = /** @type {HTMLInputElement | HTMLSelectElement | null} */ (form.querySelector(`[name="${name}"]`));
          if (!control) continue;
          if (reading.kind === "boolean") value = /** @type {HTMLInputElement} */ (control).checked;
          else if (reading.kind === "integer") value = numberOf(control);
          else value = (reading.choices ?? []).find((choice) => String(choice) === control.value) ?? numberOf(control);
        }
        (draft[system] ??= {})[reading.field] = value;
      }
    }
    this.draft = draft;
  }

  /**
   * Say a refusal beside its field and in the notice line.
   * @param {string} path a `tableRules.<system>.<field>` path (or one inside a request)
   * @param {string} reason
   */
  async #refuse(path, reason) {
    const field = path.replace(/^tableRules\./, "");
    this.problem = { path: field, text: reason };
    this.notice = { text: t("VOLLEY.TableRules.Refused", { field: this.#labelOf(field), reason }), error: true };
    announcer("dialog").say(this.notice.text);
    await this.render();
    // The field is marked (aria-invalid, beside it the reason) and the focus goes to it.
    const control = this.element?.querySelector(`[name="${CSS.escape(field)}"], [name^="${CSS.escape(field)}."]`);
    if (isHtmlElement(control)) control.focus();
  }

  /**
   * A refused field as the menu shows it: its system's heading and the field's own label ("MegaTraveller
   * · Exceptional success margin", "d100 (Dark Heresy family) · Range modifiers: point blank"), never the
   * setting's path; the path only when the menu has no such field.
   * @param {string} field `<system>.<field>[.<band>]`
   */
  #labelOf(field) {
    const [system, reading, band] = field.split(".");
    const found = readingsOf(system ?? "").find((r) => r.field === reading);
    if (!system || !found) return field;
    const label = game.i18n.localize(`VOLLEY.TableRules.Readings.${system}.${found.field}.Name`);
    const bandWords = band && found.kind === "bands" ? game.i18n.localize(`VOLLEY.Msg.${system}.band.${band}`) : "";
    return `${game.i18n.localize(`VOLLEY.Systems.${system}`)} · ${label}${bandWords ? `: ${bandWords}` : ""}`;
  }

  /** @this {TableRulesMenu} */
  static async #onSubmit() {
    // Enter never saves: Save is a button.
  }

  /** @this {TableRulesMenu} */
  static async #onReset() {
    if (!game.user.isGM) return;
    this.draft = {};
    this.dirty = true;
    this.problem = { path: "", text: "" };
    this.notice = { text: t("VOLLEY.TableRules.ResetDone"), error: false };
    await this.render();
  }

  /** @this {TableRulesMenu} */
  static async #onSave() {
    if (!game.user.isGM) {
      ui.notifications.error(t("VOLLEY.TableRules.GmOnly"));
      return;
    }
    this.#readForm();
    let changes;
    try {
      changes = onlyChanges(checkTableRules(this.draft));
    } catch (error) {
      const problem = /** @type {import("../table-rules/table-rules.js").TableRuleError} */ (error);
      await this.#refuse(problem.field ?? "tableRules", t(problem.key ?? "", problem.values ?? {}));
      return;
    }
    this.notice = { text: t("VOLLEY.TableRules.Checking"), error: false };
    const answer = await askBridge(changes);
    if (answer !== "accepted" && answer !== "unchecked") {
      await this.#refuse(answer.path, answer.reason);
      return;
    }
    await game.settings.set(MODULE_ID, TABLE_RULES_SETTING, changes);
    this.dirty = false;
    this.problem = { path: "", text: "" };
    const saved = t("VOLLEY.TableRules.Saved");
    this.notice = { text: answer === "unchecked" ? `${saved} ${t("VOLLEY.TableRules.NotChecked")}` : saved, error: false };
    announcer("dialog").say(saved);
    await this.render();
  }
}

/** @param {Element | null} control */
function numberOf(control) {
  const text = /** @type {HTMLInputElement | null} */ (control)?.value?.trim() ?? "";
  if (text === "") return text;
  const number = Number(text);
  return Number.isFinite(number) ? number : text;
}

/**
 * The bridge's word on the table's rules values: an odds preview of a small request per action that
 * carries them. "accepted"; "unchecked" when this browser does not hold a connected bridge (the
 * declaration's own limits, already checked, are then all there is); otherwise the first refusal, its
 * path turned back into the setting's.
 * @param {Record<string, Record<string, unknown>>} changes
 * @returns {Promise<"accepted" | "unchecked" | {path: string, reason: string}>}
 */
async function askBridge(changes) {
  const connection = /** @type {any} */ (game.modules.get(MODULE_ID))?.api?.connection?.();
  if (!connection) return "unchecked";
  for (const [system, chosen] of Object.entries(changes)) {
    for (const probe of PROBES[system] ?? []) {
      const request = withTableRules(system, probe.request, { [system]: chosen });
      if (Object.keys(request).length === Object.keys(probe.request).length) continue;
      try {
        await connection.request(rulesMessage("odds", newRequestId(), request));
      } catch (error) {
        const refusal = /** @type {{path?: string | null, code?: string}} */ (error);
        if (!refusal?.path) return "unchecked";
        // A module reading is refused inside the request's module_readings: its field is the next step.
        const steps = refusal.path.replace(/^\$\.request\.?/, "").split(/[.[]/);
        const inRequest = steps[0] === MODULE_READINGS && steps[1] ? steps[1] : steps[0];
        return { path: `tableRules.${system}.${inRequest}`, reason: problemText({ ...refusal, path: undefined, field: undefined }) };
      }
    }
  }
  return "accepted";
}
