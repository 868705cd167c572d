/**
 * Volley's windows by keyboard alone.
 *
 * Foundry's windows are not modal and leave the focus where it was, so a keyboard user who presses
 * Fire on the Token HUD would still be on the HUD, and a part re-rendered under their focus (the
 * footer after Fire, the buttons while a request is out) would drop it on the page. Each Volley window
 * keeps a `WindowFocus` that:
 * - puts the focus on the window's first field when it opens (or when it is asked for again);
 * - remembers the focused field or button before a render, by name or action, and puts the focus back
 *   on it after, once it is usable again (holding it on the window itself meanwhile);
 * - closes the window on Escape (and keeps Foundry's own Escape handling from acting on it too);
 * - gives the focus back to the control that opened the window when it closes.
 *
 * A window Foundry v14 popped out into a browser window of its own has its own document and its own
 * focus: everything here reads the window's own document (`root.ownerDocument`), never the main
 * window's `document`, and tells elements apart without `instanceof` (window-dom.js).
 */

import { documentOf, isHtmlElement } from "./window-dom.js";

const FOCUSABLE = "input:not([type=hidden]), select, textarea, button, summary, a[href], [tabindex]:not([tabindex='-1'])";

/**
 * The element that has the focus, if any (not the page itself), in the document of `near` (a node of
 * the window asked about; the main window's document when none is given).
 * @param {Node | null} [near]
 * @returns {HTMLElement | null}
 */
export function activeControl(near = null) {
  const doc = documentOf(near);
  const active = doc.activeElement;
  return isHtmlElement(active) && active !== doc.body ? active : null;
}

/**
 * @param {Element} element
 * @returns {element is HTMLElement}
 */
function usable(element) {
  return isHtmlElement(element) && !element.matches(":disabled") && element.getClientRects().length > 0;
}

/**
 * A selector that finds the same control after a re-render: its action, name or id.
 * @param {HTMLElement} element
 */
function keyOf(element) {
  const quote = (/** @type {string} */ value) => `"${CSS.escape(value)}"`;
  if (element.dataset.volley) return `[data-volley=${quote(element.dataset.volley)}]`;
  if (element.dataset.action) {
    const weapon = element.dataset.weapon ? `[data-weapon=${quote(element.dataset.weapon)}]` : "";
    return `[data-action=${quote(element.dataset.action)}]${weapon}`;
  }
  const name = element.getAttribute("name");
  if (name) return `[name=${quote(name)}]`;
  if (element.id) return `#${CSS.escape(element.id)}`;
  return null;
}

/**
 * The first usable control of a window's content (an `[autofocus]` one first).
 * @param {HTMLElement} root
 */
export function firstControl(root) {
  const content = root.querySelector(".window-content") ?? root;
  const marked = content.querySelector("[autofocus]");
  if (marked && usable(marked)) return /** @type {HTMLElement} */ (marked);
  return /** @type {HTMLElement | undefined} */ ([...content.querySelectorAll(FOCUSABLE)].find(usable)) ?? null;
}

export class WindowFocus {
  /** The control to remember, as a selector, while a render is under way. @type {string | null} */
  #key = null;
  /** The focus was in the window when this render began (a render never pulls it in from elsewhere). */
  #armed = false;

  /**
   * @param {{opener?: HTMLElement | null, fallback?: () => HTMLElement | null}} [options] `opener`: the
   *   control that opened the window (the focused element when it was made); `fallback`: where the focus
   *   goes on close when the opener is gone (the HUD was drawn again)
   */
  constructor({ opener = activeControl(), fallback = () => null } = {}) {
    this.opener = opener;
    this.fallback = fallback;
  }

  /**
   * The window's first render: it can hold the focus itself, Escape closes it, the focus goes in.
   * @param {HTMLElement} root
   * @param {() => unknown} close
   */
  opened(root, close) {
    root.tabIndex = -1;
    root.addEventListener("keydown", (event) => {
      if (event.key !== "Escape" || event.defaultPrevented) return;
      event.preventDefault();
      event.stopPropagation();
      void close();
    });
    this.focusIn(root);
  }

  /**
   * Focus the window's first control (the window itself if it has none).
   * @param {HTMLElement} root
   */
  focusIn(root) {
    (firstControl(root) ?? root).focus();
  }

  /**
   * Before a render: whether the focus is in this window, and on which control.
   * @param {HTMLElement | null | undefined} root
   */
  remember(root) {
    const active = activeControl(root);
    this.#armed = Boolean(root && active && root.contains(active));
    if (!this.#armed) this.#key = null;
    else if (active !== root) this.#key = keyOf(/** @type {HTMLElement} */ (active)); // on the window itself: still waiting to go back
  }

  /**
   * After a render: if the focus fell off (onto the page or the window itself), put it back on the
   * remembered control; if that one is disabled or gone, on the first usable of `fallback` (the
   * window's buttons); if every one of those is disabled too (a request is out), hold it on the window
   * until a later render makes one usable; with no such buttons at all, on the window's first control.
   * @param {HTMLElement | null | undefined} root
   * @param {{fallback?: string}} [how]
   */
  restore(root, { fallback = "" } = {}) {
    const armed = this.#armed;
    this.#armed = false;
    if (!root || !armed) return;
    const active = activeControl(root);
    if (active && active !== root && active.isConnected) {
      this.#key = null;
      return;
    }
    if (!this.#key) {
      if (!active) root.focus(); // a control with no name or action: at least stay in the window
      return;
    }
    const target = root.querySelector(this.#key);
    const others = fallback ? [...root.querySelectorAll(fallback)] : [];
    const other = others.find(usable);
    if (!(target && usable(target)) && !other && (target || others.length > 0)) {
      root.focus(); // all disabled for now (a request is out): wait on the window, keep the key
      return;
    }
    (target && usable(target) ? target : (other ?? firstControl(root) ?? root)).focus();
    this.#key = null;
  }

  /**
   * A close was asked for: v13 closes a window only after the renders asked before it and then animates
   * it away, so a focus inside it goes back to whatever opened it now, not once the window is gone, and
   * the window turns inert (nothing in it can be pressed any more).
   * @param {HTMLElement | null | undefined} root
   */
  leaving(root) {
    if (!root) return;
    const active = activeControl(root);
    if (active && root.contains(active)) this.#back()?.focus();
    root.setAttribute("inert", "");
  }

  /** The window closed: the focus goes back to whatever opened it, if the focus went with the window. */
  closed() {
    if (activeControl(this.opener)) return;
    this.#back()?.focus();
  }

  /**
   * Where the focus goes back to: the control that opened the window; if it is there but disabled now
   * (Fire, once a two-step attack holds its weapon), the first button of its window that can be used
   * (the waiting attack's Cancel); if it is gone, the fallback.
   * @returns {HTMLElement | null}
   */
  #back() {
    const opener = this.opener;
    if (!opener?.isConnected) return this.fallback();
    if (usable(opener)) return opener;
    // (usable narrows to "not an element" here; the opener is one, only disabled or hidden now)
    const buttons = /** @type {HTMLElement} */ (opener).closest("[role=dialog]")?.querySelectorAll(".volley-attack__buttons button") ?? [];
    return /** @type {HTMLElement | undefined} */ ([...buttons].find(usable)) ?? /** @type {HTMLElement} */ (opener);
  }
}
