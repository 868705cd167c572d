/**
 * What the d100 attack dialog's body shows (./attack-dialog.js draws it): the weapon's numbers in a
 * line, the sector's fields, a standing order and the modes to set or fire one, each row of the targets
 * table (range and band from the map, WP and statuses, a burst's share), why the table is empty, and the
 * weapon's upkeep. Built afresh for every render from the choice model (./choice.js), the token and the
 * map; the window's behaviour stays in the dialog.
 */

import { distanceBetween } from "../../sector.js";
import { arsenalOf, findTokenDocument, tokenCentre } from "../../foundry/documents.js";
import { canPickOnCanvas } from "../../foundry/sector-picker.js";
import { decimalSeparator, hasWord, t } from "../../foundry/words.js";
import {
  BANDS,
  bandOf,
  DIALOG_MODES,
  maxOverwatchShots,
  overwatchModes,
  rofPositions,
  SECONDARY_REACH_METRES,
  SECTOR_MAX_DEGREES,
  sectorLength,
  SUPPRESSION_TEST_BANDS,
  weaponRange,
} from "./modes.js";

/**
 * @typedef {import("../../profile/types.js").VolleyWeapon} VolleyWeapon
 * @typedef {import("../../profile/weapons.js").Arsenal} Arsenal
 * @typedef {import("../../registry.js").RuleSystemPlugin} RuleSystemPlugin
 * @typedef {import("../common/attack-dialog.js").TargetRef} TargetRef
 * @typedef {import("./modes.js").DialogMode} DialogMode
 * @typedef {import("./choice.js").D100Choice} D100Choice
 */

/**
 * The weapon's numbers, in a line: class, RoF, range, reliability, braced.
 * @param {VolleyWeapon} weapon
 */
export function statsLine(weapon) {
  const stats = weapon.stats;
  const classKey = `VOLLEY.D100.Classes.${String(stats.class ?? "rifle")}`;
  const parts = [
    hasWord(classKey) ? t(classKey) : String(stats.class ?? ""),
    t("VOLLEY.D100.Dialog.Rof", { rof: String(stats.rof ?? "—") }),
  ];
  if (stats.range !== undefined && stats.range !== null) parts.push(t("VOLLEY.D100.Dialog.Rng", { range: String(stats.range) }));
  if (stats.reliability !== undefined && stats.reliability !== null && stats.reliability !== 0) {
    const named = `VOLLEY.D100.ReliabilityNames.${String(stats.reliability).toLowerCase().replace(/\s+/g, "_")}`;
    parts.push(t("VOLLEY.D100.Dialog.Reliability", { value: hasWord(named) ? t(named) : String(stats.reliability) }));
  }
  if (stats.class === "heavy") parts.push(t(weapon.state.braced === true ? "VOLLEY.D100.Dialog.Braced" : "VOLLEY.D100.Dialog.NotBraced"));
  return parts.join(" · ");
}

/**
 * The sector's fields: its facing and width as picked or typed, its reach, what was picked.
 * @param {D100Choice} model
 * @param {VolleyWeapon} weapon
 * @param {Arsenal} arsenal
 * @param {DialogMode} mode
 */
export function sectorView(model, weapon, arsenal, mode) {
  const reach = sectorLength(weapon, arsenal.character);
  const picked = model.sector;
  return {
    canPick: canPickOnCanvas(),
    facing: picked ? picked.facing : "",
    arc: picked?.arc ?? SECTOR_MAX_DEGREES,
    max: SECTOR_MAX_DEGREES,
    reach: Number.isFinite(reach) ? t("VOLLEY.D100.Dialog.Reach", { metres: reach }) : t("VOLLEY.D100.Dialog.ReachUnknown"),
    picked: picked ? t("VOLLEY.D100.Dialog.Picked", { facing: Math.round(picked.facing), arc: picked.arc, n: model.sectorList?.length ?? 0 }) : "",
    hint: mode === "overwatch" ? t("VOLLEY.D100.Dialog.PickOrderHint") : t("VOLLEY.D100.Dialog.PickHint"),
  };
}

/**
 * The standing order, in a line.
 * @param {Record<string, unknown>} order
 */
export function orderView(order) {
  const mode = typeof order.mode === "string" ? order.mode : "single";
  return t("VOLLEY.D100.Dialog.OrderStanding", {
    mode: t(`VOLLEY.D100.Modes.${mode}`),
    facing: Math.round(Number(order.facing) || 0),
    arc: Number(order.arc) || SECTOR_MAX_DEGREES,
    trigger: typeof order.trigger === "string" && order.trigger ? order.trigger : "—",
  });
}

/**
 * Setting an overwatch order: its modes, and who is inside its sector now.
 * @param {D100Choice} model
 * @param {VolleyWeapon} weapon
 */
export function settingView(model, weapon) {
  const inside = model.sector ? model.inSector(model.sector) : [];
  const names = inside.map((id) => findTokenDocument(id)?.name ?? id);
  return {
    modes: overwatchModes(weapon).map((id, index) => ({ id, label: t(`VOLLEY.D100.Modes.${id}`), selected: index === 0 })),
    inside: model.sector ? t("VOLLEY.D100.Dialog.InSectorNow", { n: names.length, names: names.join(", ") || "—" }) : "",
  };
}

/**
 * Firing a standing order: the order's mode or another, and how many single shots it allows.
 * @param {D100Choice} model
 * @param {VolleyWeapon} weapon
 * @param {Record<string, unknown> | null} order
 * @param {number | null} bs
 */
export function firingView(model, weapon, order, bs) {
  const orderMode = typeof order?.mode === "string" ? order.mode : "single";
  const rof = rofPositions(weapon.stats.rof);
  const chosen = model.fireMode ?? "order";
  return {
    modes: [
      { id: "order", label: t("VOLLEY.D100.Dialog.OrderMode", { mode: t(`VOLLEY.D100.Modes.${orderMode}`) }), selected: chosen === "order" },
      ...overwatchModes(weapon).map((id) => ({ id, label: t(`VOLLEY.D100.Modes.${id}`), selected: chosen === id })),
    ],
    shots: bs !== null && rof && model.overwatchFireMode() === "single" ? t("VOLLEY.D100.Dialog.SingleShots", { n: maxOverwatchShots(bs, rof.highest) }) : "",
  };
}

/**
 * One row of the targets table.
 * @param {D100Choice} model
 * @param {TokenDocument} token the shooter's
 * @param {RuleSystemPlugin} plugin
 * @param {TargetRef} row
 * @param {{weapon: VolleyWeapon, character: Record<string, unknown>, primary: TargetRef | null, burst: boolean, mode: DialogMode | null}} how
 */
export function rowView(model, token, plugin, row, { weapon, character, primary, burst, mode }) {
  const doc = findTokenDocument(row.id);
  const theirs = doc ? arsenalOf(doc, plugin.id).character : {};
  const statuses = new Set([...(doc?.actor?.statuses ?? [])].map(String));
  const shooterAt = tokenCentre(token);
  const at = doc && doc.parent === token.parent ? tokenCentre(doc) : null;
  const distance = shooterAt && at ? distanceBetween(shooterAt, at) : null;
  const band = distance === null ? null : bandOf(distance, weaponRange(weapon, character));
  const isPrimary = row.id === primary?.id;
  const included = !model.excluded.has(row.id);
  const single = mode === "single";
  const primaryAt = primary ? findTokenDocument(primary.id) : null;
  const primaryCentre = primaryAt && primaryAt.parent === token.parent ? tokenCentre(primaryAt) : null;
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

/**
 * Why the targets table is empty, when it is.
 * @param {D100Choice} model
 * @param {DialogMode | null} mode
 * @param {TargetRef[]} rows
 * @param {boolean} waiting an order stands and its trigger has not been declared met
 */
export function rowsHint(model, mode, rows, waiting) {
  if (mode === "overwatch" || waiting) return "";
  if (rows.length === 0) {
    if (mode === "overwatch_fire") return t("VOLLEY.D100.Dialog.NobodyInOrderSector");
    if (mode && DIALOG_MODES[mode].sector && model.sectorList) return t("VOLLEY.D100.Dialog.NobodyInSector");
    return t("VOLLEY.Dialog.NoTargets");
  }
  return "";
}

/**
 * The weapon's upkeep: a jam and the skills to clear it, spoiled rounds.
 * @param {VolleyWeapon} weapon
 * @param {Record<string, unknown>} character
 */
export function upkeepView(weapon, character) {
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
