/**
 * From the attack dialog's form to a GURPS request: a rapid-fire attack, a reload, or an attempt to
 * clear a jam (the only system with a form so far).
 *
 * The shooter's weapon and skills are kept on its token under `flags.volley` (`skill`, `armoury`, `weapon.name`,
 * `weapon.rof`, `weapon.rcl`, `weapon.loaded`, `weapon.capacity`, `weapon.malf`, `weapon.jammed`,
 * `weapon.malfunction`), so the dialog opens pre-filled and the bridge's updates land where the next
 * attack reads them. The form lets the user adjust skill and weapon, then split shots over the
 * targets with a modifier (range, size, cover...) and an optional dodge per target.
 *
 * Pure: the form arrives as a plain record of strings (`Object.fromEntries(new FormData(form))`).
 * A bad field raises FormError naming it, and the dialog shows that instead of a preview.
 */

import { isPlainObject } from "./protocol.js";

/** What a fresh token's weapon looks like before anyone has filled it in. */
export const DEFAULT_GURPS_WEAPON = Object.freeze({
  name: "",
  rof: 1,
  rcl: 2,
  loaded: 0,
  capacity: 0,
  malf: 17,
  jammed: false,
});

/** The weapon skill the dialog offers when the token has none recorded (the referee edits it). */
export const DEFAULT_SKILL = 12;

/** The Armoury skill offered for clearing a jam when the token has none recorded. */
export const DEFAULT_ARMOURY = 10;

export class FormError extends Error {
  /** @param {string} field @param {string} message */
  constructor(field, message) {
    super(`${field}: ${message}`);
    this.name = "FormError";
    this.field = field;
  }
}

/**
 * @typedef {{id: string, name: string}} TokenRef
 * @typedef {{name: string, rof: number | string, rcl: number, loaded: number, capacity: number,
 *   malf: number, jammed: boolean, malfunction?: unknown}} GurpsWeaponState
 * @typedef {{
 *   shooter: TokenRef & {skill: number, armoury: number, weapon: GurpsWeaponState},
 *   targets: (TokenRef & {shots: number, modifier: number, dodge: number | null})[]
 * }} AttackFormView
 */

/**
 * The shooter's GURPS state as stored in its `flags.volley`, with defaults for what is missing.
 * @param {unknown} flags the token's `flags.volley` object
 * @returns {{skill: number, armoury: number, weapon: GurpsWeaponState}}
 */
export function shooterState(flags) {
  const f = isPlainObject(flags) ? flags : {};
  const w = isPlainObject(f.weapon) ? f.weapon : {};
  /** @param {unknown} v @param {number} d */
  const int = (v, d) => (typeof v === "number" && Number.isInteger(v) ? v : d);
  const rof = typeof w.rof === "string" && w.rof ? w.rof : int(w.rof, DEFAULT_GURPS_WEAPON.rof);
  return {
    skill: int(f.skill, DEFAULT_SKILL),
    armoury: int(f.armoury, DEFAULT_ARMOURY),
    weapon: {
      name: typeof w.name === "string" ? w.name : DEFAULT_GURPS_WEAPON.name,
      rof,
      rcl: int(w.rcl, DEFAULT_GURPS_WEAPON.rcl),
      loaded: int(w.loaded, DEFAULT_GURPS_WEAPON.loaded),
      capacity: int(w.capacity, DEFAULT_GURPS_WEAPON.capacity),
      malf: int(w.malf, DEFAULT_GURPS_WEAPON.malf),
      jammed: w.jammed === true,
      ...(w.malfunction ? { malfunction: w.malfunction } : {}),
    },
  };
}

/**
 * What the dialog template shows: the shooter's state and one row per target, with all the shots
 * the weapon allows going to the first target by default (at most RoF and at most the rounds loaded).
 * @param {TokenRef} shooter
 * @param {unknown} flags the shooter's `flags.volley`
 * @param {TokenRef[]} targets
 * @returns {AttackFormView}
 */
export function attackFormView(shooter, flags, targets) {
  const state = shooterState(flags);
  const rof = typeof state.weapon.rof === "number" ? state.weapon.rof : parseInt(state.weapon.rof, 10) || 1;
  const first = Math.max(1, Math.min(rof, state.weapon.loaded || rof));
  return {
    shooter: { ...shooter, ...state },
    targets: targets.map((t, i) => ({ id: t.id, name: t.name, shots: i === 0 ? first : 0, modifier: 0, dodge: null })),
  };
}

/**
 * @param {Record<string, unknown>} values
 * @param {string} field
 * @param {{min?: number, optional?: boolean}} [rule]
 * @returns {number | null}
 */
function intField(values, field, { min = Number.MIN_SAFE_INTEGER, optional = false } = {}) {
  const raw = String(values[field] ?? "").trim();
  if (raw === "") {
    if (optional) return null;
    throw new FormError(field, "required");
  }
  if (!/^[-+]?\d+$/.test(raw)) throw new FormError(field, `not a whole number: ${raw}`);
  const n = Number(raw);
  if (n < min) throw new FormError(field, `must be at least ${min}`);
  return n;
}

/**
 * @param {Record<string, unknown>} values
 * @param {string} field
 * @param {{min?: number}} [rule]
 */
function requiredInt(values, field, rule) {
  return /** @type {number} */ (intField(values, field, rule));
}

/**
 * Build the GURPS attack request from the dialog's form. Targets with 0 shots are left out.
 * @param {AttackFormView} view the view the dialog was rendered from (ids and names)
 * @param {Record<string, unknown>} values the form's fields as strings
 * @returns {Record<string, unknown>}
 */
export function gurpsAttackRequest(view, values) {
  const skill = requiredInt(values, "skill");
  const rofText = String(values["weapon.rof"] ?? "").trim();
  if (!/^\d+(x\d+)?$/i.test(rofText)) throw new FormError("weapon.rof", `expected a number or NxM, not ${rofText || "nothing"}`);
  const rof = /^\d+$/.test(rofText) ? Number(rofText) : rofText.toLowerCase();
  const capacity = intField(values, "weapon.capacity", { min: 1, optional: true });
  /** @type {Record<string, unknown>} */
  const weapon = {
    name: String(values["weapon.name"] ?? view.shooter.weapon.name).slice(0, 80),
    rof,
    rcl: requiredInt(values, "weapon.rcl", { min: 1 }),
    loaded: requiredInt(values, "weapon.loaded", { min: 0 }),
    malf: requiredInt(values, "weapon.malf", { min: 3 }),
    jammed: view.shooter.weapon.jammed,
  };
  if (capacity !== null) weapon.capacity = capacity;
  if (view.shooter.weapon.malfunction) weapon.malfunction = view.shooter.weapon.malfunction;

  const targets = [];
  let shots = 0;
  for (const [i, target] of view.targets.entries()) {
    const n = requiredInt(values, `targets.${i}.shots`, { min: 0 });
    if (n === 0) continue;
    shots += n;
    /** @type {Record<string, unknown>} */
    const entry = {
      id: target.id,
      name: target.name,
      modifier: requiredInt(values, `targets.${i}.modifier`),
      shots: n,
    };
    const dodge = intField(values, `targets.${i}.dodge`, { min: 0, optional: true });
    if (dodge !== null) entry.dodge = dodge;
    targets.push(entry);
  }
  if (targets.length === 0) throw new FormError("targets", "give at least one target a shot");
  return {
    system: "gurps",
    action: "attack",
    attacker: { id: view.shooter.id, name: view.shooter.name, skill },
    weapon,
    shots,
    targets,
  };
}

/**
 * The GURPS reload request for the same form: fill the weapon to its capacity (no dice). The rules
 * leave a jam as it is, so the weapon's jam state travels along.
 * @param {AttackFormView} view
 * @param {Record<string, unknown>} values
 * @returns {Record<string, unknown>}
 */
export function gurpsReloadRequest(view, values) {
  const capacity = intField(values, "weapon.capacity", { min: 1, optional: true });
  if (capacity === null) throw new FormError("weapon.capacity", "required to reload");
  /** @type {Record<string, unknown>} */
  const weapon = {
    name: String(values["weapon.name"] ?? view.shooter.weapon.name).slice(0, 80),
    loaded: requiredInt(values, "weapon.loaded", { min: 0 }),
    capacity,
    malf: requiredInt(values, "weapon.malf", { min: 3 }),
    jammed: view.shooter.weapon.jammed,
  };
  if (view.shooter.weapon.malfunction) weapon.malfunction = view.shooter.weapon.malfunction;
  return { system: "gurps", action: "reload", attacker: { id: view.shooter.id, name: view.shooter.name }, weapon };
}

/**
 * One attempt to clear the weapon's jam (GURPS `unjam`, B407): Armoury, or IQ-based weapon skill for
 * a misfire or a stoppage, plus a modifier. The rules say which malfunctions allow which skill.
 * @param {AttackFormView} view
 * @param {Record<string, unknown>} values
 * @returns {Record<string, unknown>}
 */
export function gurpsUnjamRequest(view, values) {
  const using = String(values["unjam.using"] ?? "armoury");
  if (using !== "armoury" && using !== "weapon") throw new FormError("unjam.using", `armoury or weapon, not ${using}`);
  const capacity = intField(values, "weapon.capacity", { min: 1, optional: true });
  /** @type {Record<string, unknown>} */
  const weapon = {
    name: String(values["weapon.name"] ?? view.shooter.weapon.name).slice(0, 80),
    loaded: requiredInt(values, "weapon.loaded", { min: 0 }),
    malf: requiredInt(values, "weapon.malf", { min: 3 }),
    jammed: view.shooter.weapon.jammed,
  };
  if (capacity !== null) weapon.capacity = capacity;
  if (view.shooter.weapon.malfunction) weapon.malfunction = view.shooter.weapon.malfunction;
  return {
    system: "gurps",
    action: "unjam",
    attacker: { id: view.shooter.id, name: view.shooter.name },
    weapon,
    skill: requiredInt(values, "unjam.skill"),
    using,
    modifier: requiredInt(values, "unjam.modifier"),
  };
}
