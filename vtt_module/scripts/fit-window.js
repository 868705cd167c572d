/**
 * Volley's windows never run past the bottom of the browser window: each is given a maximum height
 * from where it stands, its content scrolls inside it, and its action buttons (kept outside the
 * scrolling part by the styles) stay in view. Foundry places a window by its top edge and grows an
 * "auto" height downwards; a tall dialog (d100 suppressing fire, the profile editor) would otherwise
 * push Fire or Save below the screen at 1400 x 900.
 *
 * The browser window is the one the window is drawn in: on Foundry v14 a window may be popped out into
 * a browser window of its own (foundry/window-dom.js), so its height, and the resizes that matter, are
 * that window's (`element.ownerDocument.defaultView`), not the main window's.
 */

/** Space kept free under a window (px). */
const MARGIN = 8;
/** A window is never squeezed below this (px): on a tiny screen it scrolls with the page instead. */
const SMALLEST = 240;

/** @type {Set<HTMLElement>} */
const fitted = new Set();
/** Browser windows whose resizes are listened to. @type {WeakSet<Window>} */
const listening = new WeakSet();

/**
 * Cap a window's height to the room below its top edge, now and whenever its browser window resizes.
 * @param {HTMLElement | null | undefined} element the application's outer element
 */
export function fitToWindow(element) {
  if (!element) return;
  fitted.add(element);
  fit(element);
  const view = element.ownerDocument?.defaultView;
  if (view && !listening.has(view)) {
    listening.add(view);
    view.addEventListener("resize", () => {
      for (const el of fitted) {
        if (!el.isConnected) fitted.delete(el);
        else if (el.ownerDocument?.defaultView === view) fit(el);
      }
    });
  }
}

/** @param {HTMLElement} element */
function fit(element) {
  const view = element.ownerDocument?.defaultView;
  if (!element.isConnected || !view) return;
  const top = Math.max(0, element.getBoundingClientRect().top);
  element.style.maxHeight = `${Math.max(SMALLEST, Math.floor(view.innerHeight - top - MARGIN))}px`;
  element.classList.add("volley-fitted");
}
