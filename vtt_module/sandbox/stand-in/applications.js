// Foundry v13's application framework, as much of it as the module uses: ApplicationV2 with
// DEFAULT_OPTIONS merged down the class chain, actions on [data-action], a form tag with its submit
// handler, HandlebarsApplicationMixin with PARTS rendered (and re-rendered one by one) from
// templates, the render life cycle (prepare context, pre-render, first render, render, close) and its hooks; an ActorSheetV2 whose header
// controls come from the getHeaderControlsActorSheetV2 hook.
//
// v14 (generations.js): every window may be detached into a browser window of its own and attached
// again (types main client/applications/api/application.d.mts: the Detach and Attach header controls,
// `detachWindow`, `attachWindow`, `_onDetach(from, to)`, `_onAttach(from, to)`; foundryvtt/foundryvtt
// #13132 and #13128: the detached window gets the main window's styles, and the `foundry`, `game` and `ui`
// globals stay the main window's). A detached window's nodes are that window's: made by its document,
// so `instanceof` against the main window's classes is false for them (foundryvtt/pf2e#22434), and
// its focus is that document's `activeElement`.

import { Hooks } from "./hooks.js";
import { findStatus } from "./generations.js";
import { isPlainObject } from "./utils.js";

const hb = globalThis.Handlebars.create();
const templates = new Map();

export function registerHelpers(i18n) {
  hb.registerHelper("localize", (key, options) => {
    const hash = options?.hash ?? {};
    return Object.keys(hash).length ? i18n.format(key, hash) : i18n.localize(key);
  });
}

export async function getTemplate(path) {
  if (!templates.has(path)) {
    const response = await fetch(`/${path}`);
    if (!response.ok) throw new Error(`template ${path}: HTTP ${response.status}`);
    const source = await response.text();
    templates.set(path, hb.compile(source));
    hb.registerPartial(path, source);
  }
  return templates.get(path);
}

export async function loadTemplates(paths) {
  return Promise.all((Array.isArray(paths) ? paths : Object.values(paths)).map(getTemplate));
}

export async function renderTemplate(path, data) {
  return (await getTemplate(path))(data);
}

function mergeOptions(target, source) {
  for (const [key, value] of Object.entries(source ?? {})) {
    if (key === "classes") target.classes = [...new Set([...(target.classes ?? []), ...value])];
    else if (isPlainObject(value) && !(value instanceof Function)) target[key] = mergeOptions(isPlainObject(target[key]) ? { ...target[key] } : {}, value);
    else target[key] = value;
  }
  return target;
}

let nextAppId = 1;
let topZ = 100;

/** Whether a value is an element, in any window (`instanceof` is per window). */
function isElement(value) {
  return typeof value === "object" && value !== null && value.nodeType === 1;
}

/**
 * v14 `foundry.applications.detached` (types main client/applications/detached/window-manager.d.mts),
 * as much as the stand-in uses: `windows` (id -> {window, applications}), `openWindow`, `checkEmpty`.
 * The window gets the main page's style sheets, language and theme, and a `#windows` layer.
 */
export const detachedWindows = {
  windows: new Map(),
  async openWindow({ id = `detached-${nextAppId++}`, position = {} } = {}) {
    const width = Math.round(position.width ?? 520);
    const height = Math.round(position.height ?? 640);
    const win = window.open("about:blank", id, `popup,width=${width},height=${height}`);
    if (!win) throw new Error("the detached window was blocked");
    const doc = win.document;
    doc.open();
    doc.write("<!doctype html><html><head><meta charset=\"utf-8\"><title></title></head><body><div id=\"windows\"></div></body></html>");
    doc.close();
    doc.documentElement.lang = document.documentElement.lang;
    doc.body.className = `${document.body.className} sandbox-detached`;
    for (const sheet of document.querySelectorAll('link[rel="stylesheet"]')) {
      const link = doc.createElement("link");
      link.rel = "stylesheet";
      link.href = /** @type {HTMLLinkElement} */ (sheet).href;
      doc.head.append(link);
    }
    win.id = id;
    const descriptor = { window: win, applications: new Map() };
    this.windows.set(id, descriptor);
    win.addEventListener("pagehide", () => this._onWindowClosed(win));
    return win;
  },
  /** The window closed: its applications close with it. */
  _onWindowClosed(win) {
    const descriptor = this.windows.get(win.id);
    if (!descriptor) return;
    this.windows.delete(win.id);
    for (const app of descriptor.applications.values()) void app.close({ animate: false });
  },
  /** Close a detached window that holds no application any more. */
  checkEmpty(win) {
    const descriptor = win ? this.windows.get(win.id) : null;
    if (!descriptor || descriptor.applications.size) return;
    this.windows.delete(win.id);
    win.close();
  },
};

const generation = () => Number(globalThis.game?.release?.generation ?? 13);

/** v13 `_awaitTransition`: the element's CSS transition ending, or `timeout` ms, whichever comes first. */
function transitionEnd(element, timeout) {
  return new Promise((resolve) => {
    const done = (event) => {
      if (event && event.target !== element) return; // a control's own transition bubbling up
      clearTimeout(timer);
      element.removeEventListener("transitionend", done);
      resolve();
    };
    const timer = setTimeout(done, timeout);
    element.addEventListener("transitionend", done);
  });
}

export class ApplicationV2 {
  static DEFAULT_OPTIONS = {
    id: null,
    classes: [],
    tag: "div",
    window: { title: "", icon: "", resizable: false, controls: [] },
    position: {},
    actions: {},
    form: null,
  };

  constructor(options = {}) {
    const chain = [];
    for (let cls = this.constructor; cls && cls !== Object; cls = Object.getPrototypeOf(cls)) chain.unshift(cls);
    const merged = {};
    for (const cls of chain) if (Object.hasOwn(cls, "DEFAULT_OPTIONS")) mergeOptions(merged, cls.DEFAULT_OPTIONS);
    this.options = mergeOptions(merged, options);
    this.id = this.options.id ?? `app-${nextAppId++}`;
    this.element = null;
  }

  /** The document the window is drawn in: the main page's, or its detached window's (v14). */
  #host = document;

  /** v14: the detached window this application is drawn in, if any. */
  get window() {
    const win = this.#host === document ? null : this.#host.defaultView;
    return { windowId: win?.id ?? null, detached: Boolean(win) };
  }

  /** v14: whether the window is drawn in a browser window of its own. */
  get isDetached() {
    return this.#host !== document;
  }

  /** v13 ApplicationV2.RENDER_STATES: the life cycle's states (client/applications/api/application.mjs). */
  static RENDER_STATES = Object.freeze({ ERROR: -3, CLOSING: -2, CLOSED: -1, NONE: 0, RENDERING: 1, RENDERED: 2 });

  #state = ApplicationV2.RENDER_STATES.NONE;

  /** v13: the current render state. */
  get state() {
    return this.#state;
  }

  /** v13: true only in the RENDERED state, so false while any render is under way and while closing. */
  get rendered() {
    return this.#state === ApplicationV2.RENDER_STATES.RENDERED;
  }

  get title() {
    return game.i18n.localize(this.options.window?.title ?? "");
  }

  get form() {
    return this.element?.tagName === "FORM" ? this.element : null;
  }

  async _prepareContext(_options) {
    return {};
  }

  async _preRender(_context, _options) {}

  async _onFirstRender(_context, _options) {}

  async _onRender(_context, _options) {}

  async _preClose(_options) {}

  _onClose(_options) {}

  /**
   * Controls in the window header (the getHeaderControls hooks may add to them). v14's
   * DEFAULT_OPTIONS add Detach (visible while attached) and Attach (visible while detached).
   */
  _getHeaderControls() {
    const controls = [...(this.options.window?.controls ?? [])];
    if (generation() >= 14) {
      controls.unshift(
        { icon: "fa-solid fa-arrow-up-right-from-square", label: "APPLICATION.ACTIONS.Detach", action: "detach", visible: () => !this.isDetached },
        { icon: "fa-solid fa-arrow-down-to-square", label: "APPLICATION.ACTIONS.Attach", action: "attach", visible: () => this.isDetached },
      );
    }
    for (let cls = this.constructor; cls && cls !== Object; cls = Object.getPrototypeOf(cls)) {
      if (cls.name) Hooks.callAll(`getHeaderControls${cls.name}`, this, controls);
    }
    return controls;
  }

  /**
   * v13 runs render and close through one semaphore: each waits for the one asked before it, so a
   * close waits for a render under way, and a render asked after a close finds the window closed.
   */
  #queue = Promise.resolve();

  #enqueue(step) {
    const next = this.#queue.then(step);
    this.#queue = next.catch(() => {});
    return next;
  }

  render(options = {}) {
    const opts = typeof options === "boolean" ? { force: options } : { ...options };
    return this.#enqueue(() => this.#render(opts));
  }

  /**
   * v13 ApplicationV2#render: a first render (the state NONE, or CLOSED after a close) only when
   * forced; the context and pre-render steps first, then the state RENDERING while the frame and the
   * parts are drawn, the frame put in the page once its content is there, then RENDERED and the
   * post-render steps. A render that fails takes the window out of the page (state ERROR).
   */
  async #render(opts) {
    const states = ApplicationV2.RENDER_STATES;
    const first = this.#state <= states.NONE;
    if (first && !opts.force) return this;
    const context = await this._prepareContext(opts);
    await this._preRender(context, opts);
    this.#state = states.RENDERING;
    if (first) this.element = this.#frame();
    try {
      this.element.querySelector(".window-title").textContent = this.title;
      await this._renderContent(context, opts);
    } catch (error) {
      this.element?.remove();
      this.element = null;
      this.#state = states.ERROR;
      throw error;
    }
    if (first) this.#insert();
    this.#state = states.RENDERED;
    if (first) await this._onFirstRender(context, opts);
    await this._onRender(context, opts);
    for (let cls = this.constructor; cls && cls !== Object; cls = Object.getPrototypeOf(cls)) {
      if (cls.name) Hooks.callAll(`render${cls.name}`, this, this.element, context, opts);
    }
    return this;
  }

  /** ApplicationV2 itself renders nothing; HandlebarsApplicationMixin fills the parts. */
  async _renderContent(_context, _options) {}

  #frame() {
    const document = this.#host;
    const element = document.createElement(this.options.tag ?? "div");
    element.id = this.id;
    element.className = ["application", "sandbox-window", ...(this.options.classes ?? [])].join(" ");
    // v13's window frame: the title, a "Toggle Controls" button and Close in the header; the header
    // controls in a menu that button opens (`menu.controls-dropdown`, one `li.header-control` per
    // control, each a button dispatched by its `action` through the application's actions, as
    // ApplicationV2#_renderHeaderControl and #_onClickAction do; types client/applications/api/
    // application.d.mts `HeaderControlsEntry`: icon, label, action, visible, ownership; no onClick).
    const header = document.createElement("header");
    header.className = "window-header";
    const icon = this.options.window?.icon ? `<i class="window-icon ${this.options.window.icon}" inert></i>` : "";
    header.innerHTML = `${icon}<h1 class="window-title"></h1>`;
    const menu = document.createElement("menu");
    menu.className = "controls-dropdown";
    menu.hidden = true;
    for (const control of this._getHeaderControls()) {
      const visible = typeof control.visible === "function" ? control.visible.call(this) : (control.visible ?? true);
      if (!visible) continue;
      if (control.ownership !== undefined && this.document && !this.document.testUserPermission(game.user, control.ownership)) continue;
      const li = document.createElement("li");
      li.className = "header-control";
      li.dataset.action = control.action;
      const button = document.createElement("button");
      button.type = "button";
      button.className = "control";
      button.innerHTML = `<i class="control-icon fa-fw ${control.icon}" inert></i><span class="control-label"></span>`;
      button.querySelector(".control-label").textContent = game.i18n.localize(control.label);
      button.addEventListener("click", (event) => {
        event.stopPropagation();
        void this.toggleControls(false);
        const action = this.options.actions?.[control.action] ?? BUILT_IN_ACTIONS[control.action];
        const handler = typeof action === "function" ? action : action?.handler;
        if (handler) void handler.call(this, event, li);
        else console.warn(`sandbox: no action "${control.action}" on ${this.constructor.name} for its header control`);
      });
      li.append(button);
      menu.append(li);
    }
    if (menu.children.length) {
      const toggle = document.createElement("button");
      toggle.type = "button";
      toggle.className = "header-control icon fa-solid fa-ellipsis-vertical";
      toggle.dataset.action = "toggleControls";
      toggle.setAttribute("aria-label", game.i18n.localize("APPLICATION.TOOLS.ToggleControls"));
      toggle.setAttribute("aria-expanded", "false");
      toggle.textContent = "⋮";
      toggle.addEventListener("click", (event) => {
        event.stopPropagation();
        void this.toggleControls();
      });
      header.append(toggle);
    }
    const close = document.createElement("button");
    close.type = "button";
    close.className = "header-control sandbox-close";
    close.setAttribute("aria-label", game.i18n.localize("Close"));
    close.textContent = "×";
    close.addEventListener("click", () => void this.close());
    header.append(close);
    const content = document.createElement("section");
    content.className = "window-content";
    element.append(header, menu, content);
    element.addEventListener("click", (event) => {
      const target = isElement(event.target) ? event.target.closest("[data-action]") : null;
      if (!target || !element.contains(target) || target.closest(".window-header")) return;
      const action = this.options.actions?.[target.dataset.action];
      const handler = typeof action === "function" ? action : action?.handler;
      if (!handler) return;
      event.preventDefault();
      void handler.call(this, event, target);
    });
    if (element.tagName === "FORM") {
      element.addEventListener("submit", async (event) => {
        event.preventDefault();
        const config = this.options.form ?? {};
        if (config.handler) await config.handler.call(this, event, element, { object: Object.fromEntries(new FormData(element)) });
        if (config.closeOnSubmit) await this.close();
      });
    }
    element.addEventListener("pointerdown", () => this.bringToFront());
    const width = this.options.position?.width;
    if (typeof width === "number") element.style.width = `${width}px`;
    return element;
  }

  /**
   * v13 `_insertElement`, after the first render's content is drawn: an element of the same id already
   * in the page (the window of that id still closing) is replaced, else the window is added.
   */
  #insert() {
    const document = this.#host;
    const existing = document.getElementById(this.element.id);
    if (existing) {
      existing.replaceWith(this.element);
      this.bringToFront();
      return;
    }
    const windows = document.getElementById("windows");
    // Like Foundry, a new window does not land exactly on top of the last one.
    const open = windows.children.length;
    if (open) {
      this.element.style.marginLeft = `${open * 28}px`;
      this.element.style.marginTop = `${open * 28}px`;
    }
    windows.append(this.element);
    this.bringToFront();
  }

  /** v13 ApplicationV2#toggleControls(expanded): show or hide the header's controls menu. */
  async toggleControls(expanded) {
    const menu = this.element?.querySelector(":scope > .controls-dropdown");
    if (!menu) return;
    const open = expanded ?? menu.hidden;
    menu.hidden = !open;
    this.element.querySelector('[data-action="toggleControls"]')?.setAttribute("aria-expanded", String(open));
  }

  bringToFront() {
    if (this.element) this.element.style.zIndex = String(++topZ);
  }

  close(options = {}) {
    return this.#enqueue(() => this.#close(options));
  }

  /**
   * v13 ApplicationV2#close: `_preClose` (awaited), then the state CLOSING while the window animates
   * away (it is still in the page: Foundry waits for the transition, at most a second), then the
   * element goes, the state is CLOSED and `_onClose` runs.
   */
  async #close(options) {
    const states = ApplicationV2.RENDER_STATES;
    if (!this.element) {
      this.#state = states.CLOSED;
      return this;
    }
    await this._preClose(options);
    await this.toggleControls(false);
    this.#state = states.CLOSING;
    const element = this.element;
    element.classList.add("minimizing");
    if (options.animate !== false) await transitionEnd(element, 1000);
    element.remove();
    this.element = null;
    this.#state = states.CLOSED;
    this.#leaveHost();
    this._onClose(options);
    Hooks.callAll(`close${this.constructor.name}`, this);
    return this;
  }

  /** A closed window leaves its detached browser window, which closes when it holds nothing more. */
  #leaveHost() {
    if (this.#host === document) return;
    const win = this.#host.defaultView;
    this.#host = document;
    const descriptor = win ? detachedWindows.windows.get(win.id) : null;
    descriptor?.applications.delete(this.id);
    if (win) detachedWindows.checkEmpty(win);
  }

  /** v14 `detachWindow(options)`: draw this window in a browser window of its own. */
  async detachWindow(options = {}) {
    if (generation() < 14) throw new Error("ApplicationV2#detachWindow is v14's");
    if (this.isDetached) return this;
    const rect = this.element?.getBoundingClientRect();
    const win = await detachedWindows.openWindow({ position: { width: rect?.width, height: rect?.height } });
    return this.#enqueue(() => this.#rehost(win.document, { ...options, force: true }));
  }

  /** v14 `attachWindow(options)`: back into the main window. */
  async attachWindow(options = {}) {
    if (!this.isDetached) return this;
    return this.#enqueue(() => this.#rehost(document, { ...options, force: true }));
  }

  /**
   * Move the window to another document: the frame there is drawn anew (its nodes that document's),
   * then `_onDetach` or `_onAttach`, as v14 calls them after the move.
   */
  async #rehost(to, opts) {
    const from = this.#host;
    const fromWindow = from === document ? null : from.defaultView;
    this.element?.remove();
    this.element = null;
    this.#state = ApplicationV2.RENDER_STATES.NONE;
    if (fromWindow) detachedWindows.windows.get(fromWindow.id)?.applications.delete(this.id);
    this.#host = to;
    if (to !== document) detachedWindows.windows.get(to.defaultView.id)?.applications.set(this.id, this);
    await this.#render(opts);
    if (to === document) this._onAttach(from, to);
    else this._onDetach(from, to);
    if (fromWindow) detachedWindows.checkEmpty(fromWindow);
    return this;
  }

  /** v14: after the window moved into a detached browser window. */
  _onDetach(_from, _to) {}

  /** v14: after the window came back to the main window. */
  _onAttach(_from, _to) {}
}

/** v14's own header actions (ApplicationV2.DEFAULT_OPTIONS.actions: attach, detach). */
const BUILT_IN_ACTIONS = {
  detach() {
    return this.detachWindow();
  },
  attach() {
    return this.attachWindow();
  },
};

export function HandlebarsApplicationMixin(Base) {
  return class HandlebarsApplication extends Base {
    static PARTS = {};

    async _preparePartContext(_partId, context, _options) {
      return context;
    }

    async _renderContent(context, options) {
      const parts = this.constructor.PARTS ?? {};
      const wanted = options.parts ?? Object.keys(parts);
      const content = this.element.querySelector(".window-content");
      for (const [partId, part] of Object.entries(parts)) {
        if (!wanted.includes(partId)) continue;
        const partContext = await this._preparePartContext(partId, context, options);
        const holder = this.element.ownerDocument.createElement("div");
        holder.innerHTML = (await getTemplate(part.template))(partContext).trim();
        const fresh = holder.firstElementChild;
        if (!fresh || holder.children.length !== 1) throw new Error(`part ${partId} (${part.template}) must have one root element`);
        fresh.dataset.applicationPart = partId;
        const old = content.querySelector(`:scope > [data-application-part="${partId}"]`);
        if (old) old.replaceWith(fresh);
        else {
          // Keep the parts in their declared order.
          const later = Object.keys(parts).slice(Object.keys(parts).indexOf(partId) + 1);
          const next = later.map((id) => content.querySelector(`:scope > [data-application-part="${id}"]`)).find(Boolean);
          content.insertBefore(fresh, next ?? null);
        }
      }
    }
  };
}

/** A stand-in character sheet: the actor's name, and whatever the header controls hook adds. */
export class ActorSheetV2 extends HandlebarsApplicationMixin(ApplicationV2) {
  static DEFAULT_OPTIONS = { classes: ["sheet", "actor", "sandbox-sheet"], position: { width: 380 }, window: { icon: "fa-solid fa-user" } };
  static PARTS = { body: { template: "sandbox/templates/actor-sheet.hbs" } };

  constructor({ document }) {
    super({ id: `sheet-${document.token?.id ?? document.id}` });
    this.document = document;
  }

  get actor() {
    return this.document;
  }

  get title() {
    return this.document.name;
  }

  async _prepareContext() {
    return {
      name: this.document.name,
      note: game.i18n.localize("SANDBOX.SheetNote"),
      statuses: [...this.document.statuses].map((id) => game.i18n.localize(findStatus(CONFIG.statusEffects, id)?.name ?? id)),
    };
  }
}

/**
 * Foundry's DialogV2, as much as the module uses: `DialogV2.confirm({window, content, rejectClose})`
 * resolves true (Yes), false (No), or null when the window is closed otherwise (types 13
 * client/applications/api/dialog.d.mts; unchanged in types main).
 */
export class DialogV2 extends ApplicationV2 {
  static DEFAULT_OPTIONS = { classes: ["dialog", "sandbox-dialog"], tag: "div", position: { width: 420 } };

  #settle;

  constructor({ content = "", settle, ...options } = {}) {
    super(options);
    this.content = content;
    this.#settle = settle ?? (() => {});
  }

  static confirm({ window: win = {}, content = "" } = {}) {
    return new Promise((resolve) => {
      const dialog = new DialogV2({ window: win, content, settle: resolve });
      void dialog.render({ force: true });
    });
  }

  async _renderContent() {
    const section = this.element.querySelector(".window-content");
    const doc = this.element.ownerDocument;
    section.innerHTML = this.content;
    this.element.setAttribute("role", "dialog");
    this.element.setAttribute("aria-label", this.title);
    const buttons = doc.createElement("footer");
    buttons.className = "form-footer";
    for (const [answer, label] of [
      [true, "Yes"],
      [false, "No"],
    ]) {
      const button = doc.createElement("button");
      button.type = "button";
      button.textContent = game.i18n.localize(label);
      button.addEventListener("click", () => {
        this.#settle(answer);
        void this.close();
      });
      buttons.append(button);
    }
    section.append(buttons);
  }

  _onClose() {
    this.#settle(null); // a second answer after Yes or No changes nothing
  }
}
