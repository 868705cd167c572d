// Foundry's macros and hotbar, as much as the module uses: `Macro.create` (a script macro, kept in
// `game.macros`), `macro.execute()`, `User#assignHotbarMacro(macro, slot)`, and a hotbar of ten slots
// that takes drops: a drop's JSON text goes to the `hotbarDrop` hook (Hooks.call: a false from a
// listener means it was handled), as v13's Hotbar#_onDrop does. Clicking a slot runs its macro.
// TEST STAND-IN, NOT FOUNDRY: macros live in this page only (not synced to other clients).

import { Collection } from "./documents.js";
import { Hooks } from "./hooks.js";

const SLOTS = 10;
const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor;
let nextMacro = 1;

export const macros = new Collection();

export class Macro {
  constructor(data) {
    this.id = `macro${String(nextMacro++).padStart(11, "0")}`;
    this.name = String(data.name ?? "");
    this.type = data.type ?? "script";
    this.img = data.img ?? "icons/svg/dice-target.svg";
    this.command = String(data.command ?? "");
    this.flags = structuredClone(data.flags ?? {});
    this.author = globalThis.game?.user?.id ?? null;
  }

  get isOwner() {
    return true;
  }

  get documentName() {
    return "Macro";
  }

  static async create(data) {
    const macro = new Macro(data);
    macros.set(macro.id, macro);
    return macro;
  }

  /** A script macro runs as Foundry runs it: an async function of (speaker, actor, token, character, scope). */
  async execute(scope = {}) {
    if (this.type !== "script") return undefined;
    const run = new AsyncFunction("speaker", "actor", "token", "character", "scope", this.command);
    return run.call(this, null, null, null, null, scope);
  }
}

/**
 * The hotbar: ten slots under the table, each a button (its macro's name, or "empty").
 * @param {{user: object, i18n: object}} setup
 */
export function installHotbar({ user, i18n }) {
  user.hotbar = {};
  const nav = document.createElement("nav");
  nav.id = "hotbar";
  nav.className = "sandbox-hotbar";
  const list = document.createElement("ol");
  nav.append(list);
  const hotbar = {
    element: nav,
    slots: () => [...list.querySelectorAll("li")],
    render() {
      nav.setAttribute("aria-label", i18n.localize("SANDBOX.Hotbar"));
      list.replaceChildren();
      for (let slot = 1; slot <= SLOTS; slot += 1) {
        const macro = macros.get(user.hotbar[slot]);
        const item = document.createElement("li");
        item.className = "sandbox-hotbar__slot";
        item.dataset.slot = String(slot);
        const button = document.createElement("button");
        button.type = "button";
        button.textContent = macro ? macro.name : String(slot);
        button.setAttribute("aria-label", i18n.format(macro ? "SANDBOX.HotbarSlot" : "SANDBOX.HotbarEmpty", { slot, name: macro?.name ?? "" }));
        if (macro) button.addEventListener("click", () => void macro.execute());
        else button.disabled = true;
        item.append(button);
        item.addEventListener("dragover", (event) => event.preventDefault());
        item.addEventListener("drop", (event) => {
          event.preventDefault();
          let data = null;
          try {
            data = JSON.parse(event.dataTransfer?.getData("text/plain") ?? "");
          } catch {
            return;
          }
          Hooks.call("hotbarDrop", hotbar, data, slot);
        });
        list.append(item);
      }
    },
  };
  user.assignHotbarMacro = async (macro, slot) => {
    let where = slot === undefined || slot === null ? null : Number(slot);
    if (where === null) {
      for (let n = 1; n <= SLOTS && where === null; n += 1) if (!user.hotbar[n]) where = n;
      if (where === null) throw new Error("every hotbar slot is taken");
    }
    if (!Number.isInteger(where) || where < 1 || where > 50) throw new Error(`hotbar slot ${slot} is not 1 to 50`);
    if (macro === null) delete user.hotbar[where];
    else user.hotbar[where] = macro.id;
    hotbar.render();
    return user;
  };
  hotbar.render();
  (document.querySelector(".sandbox-main") ?? document.body).append(nav);
  return hotbar;
}
