// The sandbox's "Configure Settings": Foundry's settings window, as far as a module's menus go. Foundry
// lists each module's registered menus (ClientSettings#registerMenu) under the module's heading, each a
// button that opens `new menu.type()`; a restricted menu only for a game master. Without it the table
// rules menu was reachable only from the console.

const { ApplicationV2 } = foundry.applications.api;

export class SandboxSettings extends ApplicationV2 {
  static DEFAULT_OPTIONS = {
    id: "sandbox-settings",
    classes: ["sandbox-settings"],
    window: { title: "SANDBOX.Settings", icon: "fa-solid fa-gears" },
    position: { width: 420 },
    actions: { openMenu: SandboxSettings.#openMenu },
  };

  /** The menus a user may open, by module: `[{title, menus: [{id, name, hint, label, icon}]}]`. */
  static menusFor(user) {
    /** @type {Map<string, {title: string, menus: {id: string, name: string, hint: string, label: string, icon: string}[]}>} */
    const byModule = new Map();
    for (const [id, menu] of game.settings.menus) {
      if (menu.restricted && !user.isGM) continue;
      const module = game.modules.get(menu.namespace);
      const title = module?.title ?? `${menu.namespace.charAt(0).toUpperCase()}${menu.namespace.slice(1)}`;
      const group = byModule.get(menu.namespace) ?? { title, menus: [] };
      group.menus.push({
        id,
        name: game.i18n.localize(menu.name ?? ""),
        hint: game.i18n.localize(menu.hint ?? ""),
        label: game.i18n.localize(menu.label ?? menu.name ?? ""),
        icon: menu.icon ?? "",
      });
      byModule.set(menu.namespace, group);
    }
    return [...byModule.values()];
  }

  async _renderContent() {
    const content = this.element.querySelector(".window-content");
    content.replaceChildren();
    const groups = SandboxSettings.menusFor(game.user);
    if (!groups.length) {
      const none = document.createElement("p");
      none.textContent = game.i18n.localize("SANDBOX.NoSettings");
      content.append(none);
    }
    for (const group of groups) {
      const section = document.createElement("section");
      const heading = document.createElement("h2");
      heading.textContent = group.title;
      section.append(heading);
      for (const menu of group.menus) {
        const row = document.createElement("div");
        row.className = "sandbox-settings__menu";
        const name = document.createElement("span");
        name.className = "sandbox-settings__name";
        name.textContent = menu.name;
        const button = document.createElement("button");
        button.type = "button";
        button.dataset.action = "openMenu";
        button.dataset.menu = menu.id;
        button.innerHTML = menu.icon ? `<i class="${menu.icon}" inert></i> ` : "";
        button.append(menu.label);
        const hint = document.createElement("p");
        hint.className = "sandbox-hint";
        hint.textContent = menu.hint;
        row.append(name, button, hint);
        section.append(row);
      }
      content.append(section);
    }
  }

  async _onFirstRender(context, options) {
    await super._onFirstRender(context, options);
    this.element.setAttribute("role", "dialog");
    this.element.setAttribute("aria-label", this.title);
  }

  /** A menu's button: its window, as Foundry's settings window opens it. */
  static async #openMenu(_event, target) {
    const menu = game.settings.menus.get(target.dataset.menu ?? "");
    if (!menu?.type) return;
    await new menu.type().render({ force: true });
  }
}
