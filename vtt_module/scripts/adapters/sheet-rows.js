/**
 * Where each game system's own actor sheet draws a weapon Volley reads, and what Volley says on that row:
 * fire this weapon, or why it does not. A referee and the players click weapons in their system's sheet,
 * so each weapon row the adapter reads gets a Volley control there (foundry/sheet-controls.js draws it).
 *
 * Read from the systems' templates at the versions the adapters claim (tests/js/fixtures/sheets/ holds
 * those templates rendered):
 * - GURPS Game Aid 0.18.22 (ApplicationV1 sheets, Foundry 13-14): the classic sheets (full, tabbed,
 *   combat, reduced, editor) draw `templates/actor/sections/ranged.hbs`, one `.rangeddraggable` per
 *   attack whose `data-key` is its path (`system.ranged.00001`); the modern sheets draw
 *   `templates/actor/modern/partials/attack-table.hbs`, one `.ms-attack-row` per attack, its edit and
 *   delete icons carrying the path. The path is the adapter's `source.ref`.
 * - Dark Heresy 2e 1.8.1 (ApplicationV1, Foundry 12) and its fork for Foundry 13-14 (ApplicationV2, the
 *   same markup with `data-action`s): `templates/actor/panel/weapon-panel.hbs`, one `.table-row` per
 *   weapon item with `data-item-type="weapon"` and its `data-item-id`, its buttons in `.table-cell--last`.
 * - Twodsix 7.5.2 (ApplicationV2, Foundry 14): the traveller's inventory
 *   (`templates/actors/parts/actor/actor-items.hbs`) and the NPC, robot and animal sheets draw each
 *   weapon as an element with its `data-item-id` holding the weapon's name as a `.perform-attack` with
 *   `data-label` (the inventory's automatic-fire line repeats the id without the name: not a row).
 *
 * Pure: the selectors are data; `rowControls` maps an actor's arsenal to what each row says.
 */

/**
 * @typedef {object} SheetRows how one kind of sheet draws weapon rows
 * @property {string} sheet which sheets, in words (and the template)
 * @property {string} row a selector for one weapon's row
 * @property {string} [refFrom] a selector inside the row for the element holding the ref (the row itself when absent)
 * @property {string} ref the attribute holding the ref: the adapter's `source.ref` of the weapon
 * @property {string} [name] a selector inside the row that must belong to this row (not to a nested one)
 * @property {{in?: string, after?: string, at?: "start" | "end"}} place where the control goes: inside an
 *   element of the row (at its start or end), or right after one
 * @typedef {import("../profile/weapons.js").Arsenal} Arsenal
 * @typedef {import("../profile/weapons.js").ArsenalProblem} ArsenalProblem
 * @typedef {import("../profile/types.js").VolleyWeapon} VolleyWeapon
 * @typedef {{kind: "fire", weapon: VolleyWeapon} | {kind: "refused", reason: ArsenalProblem} | {kind: "problem", reasons: ArsenalProblem[]}} RowControl
 */

/** The rows of each game system's sheets, by `game.system.id`. */
export const SHEET_ROWS = Object.freeze({
  gurps: Object.freeze([
    Object.freeze({
      sheet: "GGA 0.18 classic sheets (templates/actor/sections/ranged.hbs)",
      row: "#ranged .rangeddraggable[data-key^='system.ranged.']",
      ref: "data-key",
      place: Object.freeze({ in: ".gga-desc-text", at: /** @type {const} */ ("end") }),
    }),
    Object.freeze({
      sheet: "GGA 0.18 modern sheets (templates/actor/modern/partials/attack-table.hbs)",
      row: ".ms-ranged-attacks .ms-attack-row",
      refFrom: ".ms-row-actions [data-key^='system.ranged.']",
      ref: "data-key",
      place: Object.freeze({ in: ".ms-row-actions", at: /** @type {const} */ ("start") }),
    }),
  ]),
  "dark-heresy-2nd": Object.freeze([
    Object.freeze({
      sheet: "DH2e 1.8.1 and its Foundry 13-14 fork (templates/actor/panel/weapon-panel.hbs)",
      row: ".table-row[data-item-type='weapon'][data-item-id]",
      ref: "data-item-id",
      place: Object.freeze({ in: ".table-cell--last", at: /** @type {const} */ ("start") }),
    }),
  ]),
  twodsix: Object.freeze([
    Object.freeze({
      sheet: "Twodsix 7.5 inventory, NPC, robot and animal sheets (actor-items.hbs, npc-sheet.hbs, robot-sheet.hbs, animal-sheet.hbs)",
      row: "[data-item-id]",
      name: ".perform-attack[data-label]",
      ref: "data-item-id",
      place: Object.freeze({ after: ".perform-attack[data-label]" }),
    }),
  ]),
});

/**
 * The sheet rows of a game system (its adapter's id), or none.
 * @param {unknown} gameSystemId
 * @returns {readonly SheetRows[]}
 */
export function sheetRowsOf(gameSystemId) {
  const id = typeof gameSystemId === "string" ? gameSystemId.trim().toLowerCase() : "";
  const key = id === "dark-heresy-2e" ? "dark-heresy-2nd" : id;
  return Object.hasOwn(SHEET_ROWS, key) ? SHEET_ROWS[/** @type {keyof typeof SHEET_ROWS} */ (key)] : [];
}

/**
 * @typedef {{querySelectorAll(selector: string): ArrayLike<RowElement> & Iterable<RowElement>, querySelector(selector: string): RowElement | null,
 *   closest(selector: string): RowElement | null, getAttribute(name: string): string | null}} RowElement
 *   the little of the DOM `findRows` uses (an HTMLElement; a test's parsed fixture)
 */

/**
 * The weapon rows a rendered sheet holds, each with its ref, in the sheet's order.
 * @template {RowElement} E
 * @param {E} root the sheet's element
 * @param {readonly SheetRows[]} specs the game system's (`sheetRowsOf`)
 * @returns {{row: E, ref: string, spec: SheetRows}[]}
 */
export function findRows(root, specs) {
  /** @type {{row: E, ref: string, spec: SheetRows}[]} */
  const rows = [];
  for (const spec of specs) {
    for (const row of /** @type {Iterable<E>} */ (root.querySelectorAll(spec.row))) {
      if (spec.name) {
        // The name must be this row's own: Twodsix's automatic-fire line repeats the id without it.
        const name = row.querySelector(spec.name);
        if (!name || name.closest(spec.row) !== row) continue;
      }
      const holder = spec.refFrom ? row.querySelector(spec.refFrom) : row;
      const ref = holder?.getAttribute(spec.ref);
      if (typeof ref === "string" && ref !== "") rows.push({ row, ref, spec });
    }
  }
  return rows;
}

/**
 * The path in the actor's data a row's ref stands for: a GGA attack's ref is its path; an item's ref is
 * its id (`items.<id>`).
 * @param {string} ref
 */
function pathOf(ref) {
  return ref.startsWith("system.") ? ref : `items.${ref}`;
}

/**
 * What each row says: fire its weapon, the reason Volley does not fire it (a refusal), or the fields to
 * fix. A problem or a refusal belongs to the row whose path is the longest prefix of its field (a GGA
 * attack's `system.ranged.00001.contains.00000` is the nested row, not its parent). Rows with nothing
 * of Volley's (a melee attack GGA lists elsewhere, a profile weapon) are left out.
 * @param {Arsenal} arsenal the actor's arsenal in the world's rule system (profile/weapons.js)
 * @param {string[]} refs the refs of the rows the sheet drew
 * @returns {Map<string, RowControl>}
 */
export function rowControls(arsenal, refs) {
  /** @type {Map<string, RowControl>} */
  const controls = new Map();
  const unique = [...new Set(refs.filter((ref) => typeof ref === "string" && ref !== ""))];
  for (const ref of unique) {
    const weapon = arsenal.weapons.find((w) => w.source?.kind === "adapter" && w.source.ref === ref);
    if (weapon) controls.set(ref, { kind: "fire", weapon });
  }
  const paths = unique.map((ref) => ({ ref, path: pathOf(ref) })).sort((a, b) => b.path.length - a.path.length);
  for (const problem of arsenal.problems) {
    if (problem.notice || typeof problem.field !== "string") continue;
    const owner = paths.find(({ path }) => problem.field === path || problem.field.startsWith(`${path}.`));
    if (!owner || controls.get(owner.ref)?.kind === "fire") continue;
    if (problem.refused) {
      controls.set(owner.ref, { kind: "refused", reason: problem });
      continue;
    }
    const known = controls.get(owner.ref);
    if (known?.kind === "refused") continue;
    controls.set(owner.ref, { kind: "problem", reasons: [...(known?.kind === "problem" ? known.reasons : []), problem] });
  }
  return controls;
}
