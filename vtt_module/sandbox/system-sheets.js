// Stand-ins for the game systems' own actor sheets, for tests/browser/test_sheet_controls.py: the markup
// their templates render (tests/js/fixtures/sheets/*.html, rendered at the versions the adapters claim),
// drawn the way each system's sheet class draws it, so Volley's render hooks meet what they meet at a
// table.
// - ApplicationV1 (GURPS Game Aid 0.18, Dark Heresy 2e 1.8.1): a `.window-app` frame whose content is a
//   form; Foundry calls `renderActorSheet(app, html, data)` with `html` the jQuery of the inner form
//   (v13 client/appv1/api/application-v1.mjs `_render`: `_callHooks("render", html, data)` after
//   `_renderInner`). jQuery is array-like; this passes `[form]`, which is all the module reads.
// - ApplicationV2 (Twodsix 7.5, the DH2e fork for Foundry 13-14): a HandlebarsApplicationMixin
//   (ActorSheetV2) subclass of the stand-in's, whose render hooks pass the HTMLElement.
// Not Foundry, and not the systems: no system CSS or listeners, a few rules below to make it legible.

const STYLE_ID = "sandbox-system-sheet-style";

function ensureStyle() {
  if (document.getElementById(STYLE_ID)) return;
  const style = document.createElement("style");
  style.id = STYLE_ID;
  style.textContent = `
.sandbox-system-sheet { position: absolute; left: 260px; top: 90px; width: 760px; max-height: 80vh; overflow: auto; z-index: 50;
  background: #fdfbf6; border: 1px solid #555; box-shadow: 0 2px 12px rgba(0,0,0,.35); font: 14px/1.4 system-ui, sans-serif; color: #222; }
.sandbox-system-sheet .window-header { display: flex; justify-content: space-between; padding: .3em .6em; background: #333; color: #fff; }
.sandbox-system-sheet .window-header h1 { margin: 0; font-size: 1em; }
.sandbox-system-sheet .window-content { padding: .5em .8em .9em; }
.sandbox-system-sheet #ranged { display: grid; grid-template-columns: 1.5em minmax(12em, 2fr) repeat(10, auto); gap: .15em .5em; align-items: center; }
.sandbox-system-sheet #ranged .header { font-weight: bold; border-bottom: 1px solid #999; }
.sandbox-system-sheet .gga-desc-text { display: flex; align-items: center; gap: .3em; }
.sandbox-system-sheet .ms-attack-header, .sandbox-system-sheet .ms-attack-row { display: grid; grid-template-columns: 2fr 5em 3em 6em 3em 4em 4em 5em; gap: .5em; align-items: center; }
.sandbox-system-sheet .ms-attack-header { font-weight: bold; border-bottom: 1px solid #999; }
.sandbox-system-sheet .ms-use-button { border: 0; background: none; padding: 0; }
.sandbox-system-sheet .ms-row-actions { display: flex; gap: .3em; align-items: center; }
.sandbox-system-sheet .table-row, .sandbox-system-sheet .table-row--head { display: grid; grid-template-columns: 2em 2fr 1fr 1fr 1fr 9em; gap: .5em; align-items: center;
  border-bottom: 1px solid #ddd; padding: .15em 0; }
.sandbox-system-sheet .table-row--head { font-weight: bold; grid-template-columns: 2fr 1fr 1fr 1fr 9em; }
.sandbox-system-sheet .table-cell--description { grid-column: 1 / -1; font-size: .85em; }
.sandbox-system-sheet .table-cell--last { display: flex; gap: .3em; align-items: center; }
.sandbox-system-sheet .material-icons { font-size: .8em; }
.sandbox-system-sheet .items-weapons { display: grid; grid-template-columns: 1.5em 2fr auto 3em 3em 3em 6em 4em 8em; gap: .4em; align-items: center; }
.sandbox-system-sheet .items-weapons-abilities { display: flex; gap: .6em; font-size: .85em; margin-left: 2em; }
.sandbox-system-sheet ol { list-style: none; margin: 0; padding: 0; }
.sandbox-system-sheet .item.gear { border-bottom: 1px solid #ddd; padding: .15em 0; }
.sandbox-system-sheet .npc-weapons .item { display: inline-flex; align-items: center; gap: .3em; margin-right: 1em; }
.sandbox-system-sheet .item-controls { display: inline-flex; gap: .3em; }
`;
  document.head.append(style);
}

let opened = 0;

/**
 * Draw a system's sheet for `actor` with `html` as its content, the way the system's sheet class does.
 * @param {{actor: any, html: string, application: "V1" | "V2", gameSystem: string, title?: string}} how
 * @returns {Promise<{element: HTMLElement, rerender: () => Promise<void>, close: () => Promise<void>}>}
 */
export async function openSystemSheet({ actor, html, application, gameSystem, title }) {
  ensureStyle();
  opened += 1;
  if (application === "V1") {
    const frame = document.createElement("div");
    frame.id = `system-sheet-v1-${opened}`;
    frame.className = `app window-app sheet actor sandbox-system-sheet ${gameSystem}`;
    frame.setAttribute("role", "dialog");
    frame.setAttribute("aria-label", title ?? actor.name);
    frame.innerHTML = `<header class="window-header"><h1 class="window-title"></h1><a class="header-button close">×</a></header><section class="window-content"></section>`;
    /** @type {HTMLElement} */ (frame.querySelector(".window-title")).textContent = title ?? actor.name;
    document.body.append(frame);
    const app = { actor, document: actor, id: frame.id, rendered: true, options: {}, element: [frame] };
    const render = async () => {
      const form = document.createElement("form");
      form.className = "editable";
      form.innerHTML = html;
      /** @type {HTMLElement} */ (frame.querySelector(".window-content")).replaceChildren(form);
      // What v13's Application#_render passes its render hooks: the inner HTML, as jQuery.
      Hooks.callAll("renderActorSheet", app, [form], { actor, editable: true });
    };
    frame.querySelector(".close")?.addEventListener("click", () => frame.remove());
    await render();
    return { element: frame, rerender: render, close: async () => frame.remove() };
  }
  const { ActorSheetV2 } = foundry.applications.sheets;
  class SystemSheetV2 extends ActorSheetV2 {
    static DEFAULT_OPTIONS = { classes: ["sheet", "actor", "sandbox-system-sheet", gameSystem], position: { width: 760 } };
    static PARTS = { body: { template: "sandbox/templates/system-sheet.hbs" } };

    get title() {
      return title ?? actor.name;
    }

    async _prepareContext() {
      return { html, gameSystem };
    }
  }
  const sheet = new SystemSheetV2({ document: actor });
  await sheet.render({ force: true });
  const element = /** @type {HTMLElement} */ (sheet.element);
  element.setAttribute("role", "dialog");
  element.setAttribute("aria-label", title ?? actor.name);
  return { element, rerender: async () => void (await sheet.render()), close: async () => void (await sheet.close()) };
}
