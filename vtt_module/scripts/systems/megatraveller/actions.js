/**
 * What the shooter's next move costs under the RCS, said before anything is asked: which short action
 * a shot takes (fire, fast draw, retarget and fire), what has to happen first when the weapon is not
 * ready ("Ready rifle first: 1 action"), and which weapon-handling actions make sense now (draw,
 * unsling, ready, select fire mode, retarget, reload).
 *
 * RCS: Entering Combat, Readying a Weapon, Mode Selection, Targetting and Firing. Every firing or
 * handling action is one Short Action; a pistol is drawn in one, a slung rifle takes two (unsling,
 * then ready); a target and a selector setting come free with a draw or a ready; fast draw fires at
 * once for DM −2 and cannot move the selector; retarget and fire pays the bring-to-bear DM; firing on a
 * setting the selector is not on moves it at the instant of firing for one difficulty level.
 *
 * The rules engine checks all of it again; this is the dialog's plain-words preview of it. Words are
 * messages (`key` under `VOLLEY.MegaTraveller.`, `values`); a value `{i18n: key}` is a module word
 * the dialog localises first (a mode's, a selector's or a kind's name). Pure: no Foundry globals.
 */

import { BRING_TO_BEAR_DM, FAST_DRAW_DM, FAST_DRAW_WEAPONS, MODE_RULES, SPLIT_DM, burstSize, characteristicDm, weaponKind, weaponModes, weaponSelectors } from "./modes.js";

/**
 * @typedef {import("./modes.js").FireMode} FireMode
 * @typedef {import("./modes.js").FiringAction} FiringAction
 * @typedef {import("./modes.js").Readiness} Readiness
 * @typedef {import("./modes.js").Selector} Selector
 * @typedef {{key: string, values?: Record<string, unknown>}} Words
 * @typedef {{i18n: string}} Word a module word the dialog localises
 * @typedef {object} Shooter what the token holds now
 * @property {string} weapon        the weapon's name
 * @property {Record<string, unknown>} stats
 * @property {Readiness} readiness
 * @property {Selector} selector
 * @property {number} loaded
 * @property {number | null} capacity
 * @property {string | null} lock    the token id locked on, or null
 * @property {string} lockName
 * @property {number} skill
 * @property {number} dex
 * @typedef {object} Aim what the player has picked
 * @property {FireMode} mode
 * @property {FiringAction} how
 * @property {string | null} primary      the primary target's token id
 * @property {string} primaryName
 * @property {number} designated          chosen targets (bystanders not counted)
 * @property {number | null} [counted]    the targets the splitting DM counts, when the table rule
 *   `split_dm_counts: "receiving"` counts only those a burst's split gives a bullet (else `designated`);
 *   null when that rule applies but the shares are only known after the roll (rapid fire)
 * @property {"small" | "any"} [fastDrawWeapons]  the table's Fast Draw reading (`FAST_DRAW_WEAPONS` unless
 *   the table rule `fast_draw_weapons` says otherwise)
 * @typedef {{blocked: Words | null, charge: Words | null, notes: Words[], dms: Words}} FiringPlan
 * @typedef {{action: "draw" | "unsling" | "ready" | "select_mode" | "retarget" | "reload",
 *   label: Words, hint: Words, blocked: Words | null}} HandlingAction
 */

const P = "VOLLEY.MegaTraveller";

/** @param {string} key @param {Record<string, unknown>} [values] @returns {Words} */
const words = (key, values = {}) => ({ key: `${P}.${key}`, values });
/** @param {string} group @param {string} value @returns {Word} */
const word = (group, value) => ({ i18n: `${P}.${group}.${value}` });

/** @param {number} n */
const signed = (n) => (n >= 0 ? `+${n}` : `−${-n}`);

/**
 * The shot the dialog offers first: fast draw for a holstered pistol (it fires at once; another kind is
 * drawn or readied first), retarget and fire when the weapon is locked on someone else, else a plain
 * fire at the locked target.
 * @param {Pick<Shooter, "readiness" | "lock"> & {stats?: Shooter["stats"]}} shooter
 * @param {string | null} primary
 * @param {"small" | "any"} [fastDrawWeapons] the table's Fast Draw reading
 * @returns {FiringAction}
 */
export function defaultFiringAction(shooter, primary, fastDrawWeapons = FAST_DRAW_WEAPONS) {
  const drawable = fastDrawWeapons === "any" || !shooter.stats || weaponKind(shooter.stats.kind) === "pistol";
  if (shooter.readiness === "holstered" && drawable) return "fast_draw";
  if (shooter.readiness === "ready" && shooter.lock && primary && shooter.lock !== primary) return "retarget_and_fire";
  return "fire";
}

/**
 * What must happen before the weapon fires from where it is (RCS: Readying a Weapon), or null.
 * @param {Shooter} shooter
 * @returns {Words | null}
 */
export function notReady(shooter) {
  const weapon = shooter.weapon;
  if (shooter.readiness === "holstered") return words("Charge.NeedDraw", { weapon, dm: signed(FAST_DRAW_DM) });
  if (shooter.readiness === "slung") return words("Charge.NeedUnsling", { weapon });
  if (shooter.readiness === "carried") return words("Charge.NeedReady", { weapon });
  return null;
}

/**
 * Why the magazine cannot feed this mode, or null.
 * @param {Shooter} shooter
 * @param {FireMode} mode
 * @returns {Words | null}
 */
function outOfRounds(shooter, mode) {
  if (shooter.loaded < 1) return words("Charge.Empty", { weapon: shooter.weapon });
  const size = burstSize(shooter.stats);
  if (mode === "burst" && size !== null && shooter.loaded < size) return words("Charge.ShortBurst", { loaded: shooter.loaded, size });
  return null;
}

/**
 * The plan of one shot: what stops it, the short action it costs, and what else the rules will do.
 * @param {Shooter} shooter
 * @param {Aim} aim
 * @returns {FiringPlan}
 */
export function firingPlan(shooter, aim) {
  const rule = MODE_RULES[aim.mode];
  const kind = weaponKind(shooter.stats.kind);
  const target = aim.primaryName;
  const notes = [modeNote(shooter, aim)];
  const flips = rule.selector !== shooter.selector;
  let actionDm = 0;
  /** @type {Words | null} */
  let blocked = null;
  /** @type {Words | null} */
  let charge = null;
  if (!weaponModes(shooter.stats).includes(aim.mode)) {
    blocked = words("Charge.NoMode", { weapon: shooter.weapon, mode: word("Modes", aim.mode) });
  } else if (aim.how === "fast_draw") {
    actionDm = FAST_DRAW_DM;
    // Reading 10: by default Fast Draw draws a holstered pistol only (the engine refuses the rest).
    const small = (aim.fastDrawWeapons ?? FAST_DRAW_WEAPONS) === "small";
    if (shooter.readiness === "slung" || shooter.readiness === "carried") {
      blocked = words(small ? "Charge.FastDrawHolster" : "Charge.FastDrawFrom", { weapon: shooter.weapon, readiness: word("Readinesses", shooter.readiness) });
    } else if (small && shooter.readiness === "ready") {
      blocked = words("Charge.FastDrawReady", { weapon: shooter.weapon });
    } else if (small && kind !== "pistol") {
      blocked = words("Charge.FastDrawKind", { weapon: shooter.weapon, kind: word("Kinds", kind) });
    } else if (flips) {
      blocked = words("Charge.FastDrawSelector", { selector: word("Selectors", shooter.selector), mode: word("Modes", aim.mode) });
    } else {
      const inHand = shooter.readiness === "ready";
      charge = words(inHand ? "Charge.FastDrawInHand" : "Charge.FastDraw", { target, weapon: shooter.weapon, dm: signed(FAST_DRAW_DM) });
    }
  } else {
    blocked = notReady(shooter);
    if (aim.how === "retarget_and_fire") {
      actionDm = BRING_TO_BEAR_DM[kind];
      charge = words("Charge.RetargetAndFire", { target, dm: signed(actionDm), kind: word("Kinds", kind) });
    } else if (shooter.lock && aim.primary && shooter.lock !== aim.primary) {
      blocked ??= words("Charge.LockedElsewhere", { lock: shooter.lockName, target, dm: signed(BRING_TO_BEAR_DM[kind]) });
    } else {
      charge = words(shooter.lock ? "Charge.Fire" : "Charge.FireNoLock", { target });
    }
    if (!blocked && flips) {
      notes.push(words("Charge.SelectorFlip", { selector: word("Selectors", shooter.selector), mode: word("Modes", aim.mode) }));
    }
  }
  blocked ??= outOfRounds(shooter, aim.mode);
  if (!aim.primary) blocked ??= words("Charge.NoTarget");
  return { blocked, charge: blocked ? null : charge, notes, dms: dmLine(shooter, aim, actionDm) };
}

/**
 * The mode in a line: its pool, its difficulty shift and its targets.
 * @param {Shooter} shooter
 * @param {Aim} aim
 */
function modeNote(shooter, aim) {
  const dexDm = characteristicDm(shooter.dex);
  const targets = Number(shooter.stats.auto_targets) || 1;
  return words(`Charge.Mode.${aim.mode}`, { dex: signed(dexDm), size: burstSize(shooter.stats) ?? "—", targets });
}

/**
 * The DMs every target's roll shares: skill, Dex, the action's DM, and the splitting DM of rapid and
 * burst fire (for the targets designated, the rules engine's reading 5; under the table rule that
 * counts only targets given a bullet, for those, or, when the roll decides them, said to come after it).
 * @param {Shooter} shooter
 * @param {Aim} aim
 * @param {number} actionDm
 */
function dmLine(shooter, aim, actionDm) {
  const dexDm = characteristicDm(shooter.dex);
  const splitDm = (/** @type {number} */ count) => (MODE_RULES[aim.mode].splitDm ? (SPLIT_DM[Math.min(SPLIT_DM.length, Math.max(1, count)) - 1] ?? 0) : 0);
  const waits = aim.counted === null;
  const split = waits ? 0 : splitDm(aim.counted ?? aim.designated);
  const total = shooter.skill + dexDm + actionDm + split;
  return words(waits ? "Charge.DmsSplitAfterRoll" : "Charge.Dms", {
    skill: signed(shooter.skill),
    dex: shooter.dex,
    dexDm: signed(dexDm),
    action: actionDm ? signed(actionDm) : "",
    split: split ? signed(split) : "",
    worst: signed(splitDm(aim.designated)),
    total: signed(total),
  });
}

/**
 * The weapon-handling actions that make sense now, each one Short Action (reload: the seed gives it no
 * time). Shown only when they change something: draw while holstered, unsling while slung, ready while
 * carried, select fire mode while in hand and the selector is not on the mode chosen, retarget while
 * ready and locked on someone other than the primary target; reload always, refused while full.
 * @param {Shooter} shooter
 * @param {Aim} aim
 * @returns {HandlingAction[]}
 */
export function handlingActions(shooter, aim) {
  const selector = MODE_RULES[aim.mode].selector;
  const hasSelector = weaponSelectors(shooter.stats).includes(selector);
  const target = aim.primary ? aim.primaryName : "";
  /** @type {HandlingAction[]} */
  const actions = [];
  const free = { target, selector: word("Selectors", hasSelector ? selector : shooter.selector) };
  if (shooter.readiness === "holstered") {
    // Draw a Small Weapon follows the table's Fast Draw reading (reading 10): a pistol, unless "any".
    const kind = weaponKind(shooter.stats.kind);
    const small = (aim.fastDrawWeapons ?? FAST_DRAW_WEAPONS) === "small";
    const blocked = small && kind !== "pistol" ? words("Handling.DrawKind", { weapon: shooter.weapon, kind: word("Kinds", kind) }) : null;
    actions.push({ action: "draw", label: words("Handling.Draw"), hint: words(target ? "Handling.DrawHint" : "Handling.DrawHintNoTarget", free), blocked });
  }
  if (shooter.readiness === "slung") {
    actions.push({ action: "unsling", label: words("Handling.Unsling"), hint: words("Handling.UnslingHint", { weapon: shooter.weapon }), blocked: null });
  }
  if (shooter.readiness === "carried") {
    actions.push({ action: "ready", label: words("Handling.Ready"), hint: words(target ? "Handling.ReadyHint" : "Handling.ReadyHintNoTarget", free), blocked: null });
  }
  if ((shooter.readiness === "carried" || shooter.readiness === "ready") && hasSelector && selector !== shooter.selector) {
    actions.push({
      action: "select_mode",
      label: words("Handling.SelectMode", { selector: word("Selectors", selector) }),
      hint: words("Handling.SelectModeHint", { before: word("Selectors", shooter.selector), after: word("Selectors", selector) }),
      blocked: null,
    });
  }
  if (shooter.readiness === "ready" && shooter.lock && aim.primary && shooter.lock !== aim.primary) {
    actions.push({ action: "retarget", label: words("Handling.Retarget"), hint: words("Handling.RetargetHint", { target }), blocked: null });
  }
  const full = shooter.capacity !== null && shooter.loaded >= shooter.capacity;
  actions.push({
    action: "reload",
    label: words("Handling.Reload"),
    hint: words("Handling.ReloadHint", { capacity: shooter.capacity ?? "—" }),
    blocked: shooter.capacity === null ? words("Handling.NoCapacity") : full ? words("Handling.Full") : null,
  });
  return actions;
}
