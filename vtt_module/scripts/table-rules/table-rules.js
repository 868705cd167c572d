/**
 * Table rules: the readings the referee chose instead of Volley's, and the one place they reach a
 * request.
 *
 * The world setting `tableRules` is `{<system>: {<field>: value}}`, keyed by the request's own field
 * names (the module's own readings by the names in readings.js). The referee's browser builds every
 * request and odds preview through `withTableRules`, whoever asked for it, so a macro's
 * `game.settings.set("volley", "tableRules", {megatraveller: {split_dm_counts: "receiving"}})` does
 * exactly what the Table rules menu does. The bridge checks the merged fields like any other.
 *
 * Pure: no Foundry globals, so node tests drive it.
 */

import { DEFAULT_ACTIONS, READINGS } from "./readings.js";

/**
 * A table rule the setting gets wrong: the path into the setting (`tableRules.megatraveller.
 * split_dm_counts`), the rule as a message key and its values. The same shape as a dialog's FormError,
 * so the relay hands it to the requester the same way and the menu shows it beside its field.
 */
export class TableRuleError extends Error {
  /**
   * @param {string} field
   * @param {string} key
   * @param {Record<string, unknown>} [values]
   */
  constructor(field, key, values = {}) {
    super(`${field}: ${key.split(".").at(-1)} ${JSON.stringify(values)}`);
    this.name = "TableRuleError";
    this.field = field;
    this.key = key;
    this.values = values;
  }
}


/**
 * @typedef {import("./readings.js").Reading} Reading
 * @typedef {Record<string, Record<string, unknown>>} TableRules
 */

/** @param {unknown} value @returns {value is Record<string, unknown>} */
function isObject(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The readings a system declares (none for a system without any).
 * @param {string} system
 * @returns {Reading[]}
 */
export function readingsOf(system) {
  return READINGS[system] ?? [];
}

/**
 * @param {Reading} reading
 * @param {number} value
 * @param {string} path
 */
function checkWhole(reading, value, path) {
  if (typeof value !== "number" || !Number.isInteger(value)) throw new TableRuleError(path, "VOLLEY.TableRules.Errors.WholeNumber", { value: String(value) });
  if (reading.minimum !== undefined && value < reading.minimum) throw new TableRuleError(path, "VOLLEY.Form.AtLeast", { min: reading.minimum });
  if (reading.maximum !== undefined && value > reading.maximum) throw new TableRuleError(path, "VOLLEY.Form.AtMost", { max: reading.maximum });
}

/**
 * Check one reading's value against its declaration; a bad one is a TableRuleError naming its path.
 * @param {Reading} reading
 * @param {unknown} value
 * @param {string} path e.g. `tableRules.megatraveller.split_dm_counts`
 */
export function checkReading(reading, value, path) {
  switch (reading.kind) {
    case "choice":
      // A whole number in range is also a choice where the choices are numbers (GURPS's dodge step).
      if ((reading.choices ?? []).includes(/** @type {any} */ (value))) return;
      if (typeof value === "number" && (reading.choices ?? []).some((choice) => typeof choice === "number")) return checkWhole(reading, value, path);
      throw new TableRuleError(path, "VOLLEY.TableRules.Errors.OneOf", { value: String(value), choices: (reading.choices ?? []).join(", ") });
    case "integer":
      return checkWhole(reading, /** @type {number} */ (value), path);
    case "boolean":
      if (typeof value !== "boolean") throw new TableRuleError(path, "VOLLEY.TableRules.Errors.OnOrOff", { value: String(value) });
      return;
    case "bands": {
      if (!isObject(value)) throw new TableRuleError(path, "VOLLEY.TableRules.Errors.Bands", { choices: (reading.members ?? []).join(", ") });
      for (const [band, modifier] of Object.entries(value)) {
        if (!(reading.members ?? []).includes(band)) throw new TableRuleError(`${path}.${band}`, "VOLLEY.TableRules.Errors.Unknown", { name: band });
        checkWhole(reading, /** @type {number} */ (modifier), `${path}.${band}`);
      }
      return;
    }
    default:
      throw new TableRuleError(path, "VOLLEY.TableRules.Errors.Unknown", { name: reading.field });
  }
}

/**
 * Check a whole `tableRules` value: an object of known systems, each an object of known readings
 * with values their declarations allow. Throws a TableRuleError naming the first bad path.
 * @param {unknown} rules
 * @returns {TableRules}
 */
export function checkTableRules(rules) {
  if (rules === null || rules === undefined || rules === "") return {};
  if (!isObject(rules)) throw new TableRuleError("tableRules", "VOLLEY.TableRules.Errors.NotObject");
  for (const [system, chosen] of Object.entries(rules)) {
    const path = `tableRules.${system}`;
    if (!(system in READINGS)) throw new TableRuleError(path, "VOLLEY.TableRules.Errors.UnknownSystem", { name: system });
    if (!isObject(chosen)) throw new TableRuleError(path, "VOLLEY.TableRules.Errors.NotObject");
    for (const [field, value] of Object.entries(chosen)) {
      const reading = readingsOf(system).find((r) => r.field === field);
      if (!reading) throw new TableRuleError(`${path}.${field}`, "VOLLEY.TableRules.Errors.Unknown", { name: field });
      checkReading(reading, value, `${path}.${field}`);
    }
  }
  return /** @type {TableRules} */ (rules);
}

/**
 * Whether a value is Volley's own reading (absent counts as the default; a band table matches when
 * every band it names has Volley's modifier).
 * @param {Reading} reading
 * @param {unknown} value
 */
export function isDefault(reading, value) {
  if (value === undefined || value === null) return true;
  if (reading.kind === "bands") {
    if (!isObject(value)) return false;
    return Object.entries(value).every(([band, modifier]) => reading.default[band] === modifier);
  }
  return value === reading.default;
}

/** @param {Record<string, unknown>} request */
const targetsOf = (request) => (Array.isArray(request.targets) ? request.targets.filter((t) => typeof t === "object" && t !== null) : []);
/** @param {Record<string, unknown>} request */
const modeOf = (request) => (typeof request.mode === "string" ? request.mode : "single");
/** @param {Record<string, unknown>} request */
const automatic = (request) => modeOf(request) === "auto" || modeOf(request) === "controlled";

/**
 * Whether a reading could change what a request comes to, by the mode it fires in and the targets it
 * has (#35: a card lists a table's reading only where it could have changed that attack, so a burst
 * does not say "exceptional success beats the target number by 0"). The request carries a reading only
 * then; a reading not named here plays in every request of its actions. `volley roll` still lists what
 * a hand-built request sets.
 * @type {Record<string, Record<string, (request: Record<string, unknown>) => boolean>>}
 */
export const IN_PLAY = {
  gurps: {
    // B375: the step is the margin a dodge takes off; only a target that dodges has one.
    dodge_step: (request) => targetsOf(request).some((t) => /** @type {any} */ (t).dodge !== undefined && /** @type {any} */ (t).dodge !== null),
  },
  megatraveller: {
    // Reading 2: only a single-fire hit is exceptional.
    exceptional_margin: (request) => modeOf(request) === "single",
    // Reading 5: rapid and burst fire split a DM between two targets or more (bystanders never count).
    split_dm_counts: (request) =>
      (modeOf(request) === "rapid" || modeOf(request) === "burst") && targetsOf(request).filter((t) => !(/** @type {any} */ (t).bystander)).length >= 2,
    // Reading 14: only automatic and controlled fire have a danger space.
    danger_space_half_width: automatic,
    danger_space_beyond: automatic,
  },
};

/**
 * The request field where the module's own readings the table changed are reported (rules/table_rules.py
 * MODULE_READINGS): the rules ignore it, the card, `volley show` and the report list it.
 */
export const MODULE_READINGS = "module_readings";

/**
 * The request as the table plays it: each of the system's rules readings the table set, for an
 * action that carries it, merged in; the module's own readings the table changed (the danger space it
 * drew, when its overwatch order ends), for an action they shape, reported under `module_readings`;
 * each only where it could change the request's outcome (`IN_PLAY`). A field the request already carries is left as it is (a
 * hand-built request speaks for itself); a table value equal to Volley's is not sent at all, so a
 * table that keeps every reading sends the same requests as before. The setting is checked first:
 * an unknown system, field or a bad value throws a TableRuleError naming it, and nothing is sent.
 * @template {Record<string, unknown>} R
 * @param {string} system
 * @param {R} request
 * @param {unknown} tableRules the world setting's value
 * @returns {R}
 */
export function withTableRules(system, request, tableRules) {
  const rules = checkTableRules(tableRules);
  const chosen = rules[system];
  if (!chosen) return request;
  const action = typeof request.action === "string" ? request.action : (DEFAULT_ACTIONS[/** @type {keyof typeof DEFAULT_ACTIONS} */ (system)] ?? "");
  /** @type {Record<string, unknown>} */
  const merged = { ...request };
  /** @type {Record<string, unknown>} */
  const reported = {};
  for (const reading of readingsOf(system)) {
    if (!reading.actions.includes(action)) continue;
    const value = chosen[reading.field];
    if (isDefault(reading, value)) continue;
    if (IN_PLAY[system]?.[reading.field]?.(request) === false) continue;
    if (reading.owner === "module") reported[reading.field] = value;
    else if (!(reading.field in request)) merged[reading.field] = reading.kind === "bands" ? { ...reading.default, .../** @type {object} */ (value) } : value;
  }
  if (Object.keys(reported).length > 0 && !(MODULE_READINGS in request)) merged[MODULE_READINGS] = reported;
  return /** @type {R} */ (merged);
}

/**
 * A reading's value at this table: the table's choice, or Volley's default. For the module's own
 * readings (the danger space, when overwatch ends); an unusable stored value falls back to the default.
 * @param {string} system
 * @param {string} field
 * @param {unknown} tableRules
 */
export function tableReading(system, field, tableRules) {
  const reading = readingsOf(system).find((r) => r.field === field);
  if (!reading) throw new Error(`volley: ${system} declares no table rule ${field}`);
  const chosen = isObject(tableRules) && isObject(tableRules[system]) ? tableRules[system][field] : undefined;
  if (chosen === undefined) return reading.default;
  try {
    checkReading(reading, chosen, `tableRules.${system}.${field}`);
  } catch {
    return reading.default;
  }
  return reading.kind === "bands" ? { ...reading.default, .../** @type {object} */ (chosen) } : chosen;
}

/**
 * The readings a table changed for a system, in declaration order (for the menu's summary and the
 * card's note on the module's own readings).
 * @param {string} system
 * @param {unknown} tableRules
 * @param {"rules" | "module" | null} [owner] only this owner's readings
 * @returns {{reading: Reading, value: unknown}[]}
 */
export function changedReadings(system, tableRules, owner = null) {
  const chosen = isObject(tableRules) && isObject(tableRules[system]) ? tableRules[system] : {};
  return readingsOf(system)
    .filter((reading) => (owner === null || reading.owner === owner) && !isDefault(reading, chosen[reading.field]))
    .map((reading) => ({ reading, value: chosen[reading.field] }));
}

/**
 * Keep only what differs from Volley's readings (what the menu saves, so "reset" is an empty object
 * and a later change of Volley's default reaches tables that never chose otherwise).
 * @param {TableRules} rules
 * @returns {TableRules}
 */
export function onlyChanges(rules) {
  /** @type {TableRules} */
  const out = {};
  for (const [system, chosen] of Object.entries(rules)) {
    for (const [field, value] of Object.entries(chosen ?? {})) {
      const reading = readingsOf(system).find((r) => r.field === field);
      if (!reading || isDefault(reading, value)) continue;
      let kept = value;
      if (reading.kind === "bands" && isObject(value)) kept = Object.fromEntries(Object.entries(value).filter(([band, modifier]) => reading.default[band] !== modifier));
      (out[system] ??= {})[field] = kept;
    }
  }
  return out;
}

/**
 * The old world setting `overwatchEndsOnTurn` (before table rules) as a table rule: a table that
 * turned it off keeps it off. Returns the table rules to store, or null when nothing moves.
 * @param {unknown} tableRules the current value
 * @param {unknown} oldSetting the old setting's stored value (undefined when never set)
 * @returns {TableRules | null}
 */
export function migrateOverwatchSetting(tableRules, oldSetting) {
  if (oldSetting !== false) return null;
  const rules = isObject(tableRules) ? /** @type {TableRules} */ (structuredClone(tableRules)) : {};
  if (isObject(rules.d100) && "overwatch_ends_on_turn" in rules.d100) return null;
  (rules.d100 ??= {}).overwatch_ends_on_turn = false;
  return rules;
}
