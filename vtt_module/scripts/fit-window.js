/**
 * Volley's windows never run past the bottom of the browser window: each is given a maximum height
 * from where it stands, its content scrolls inside it, and its action buttons (kept outside the
 * scrolling part by the styles) stay in view. Foundry places a window by its top edge and grows an
 * "auto" height downwards; a tall dialog (d100 suppressing fire, the profile editor) would otherwise
 * push Fire or Save below the screen at 1400 x 900.
 */

/** Space kept free under a window (px). */
const MARGIN = 8;
/** A window is never squeezed below this (px): on a tiny screen it scrolls with the page instead. */
const SMALLEST = 240;

/** @type {Set<HTMLElement>} */
const fitted = new Set();
let listening = false;

/**
 * Cap a window's height to the room below its top edge, now and whenever the browser window resizes.
 * @param {HTMLElement | null | undefined} element the application's outer element
 */
export function fitToWindow(element) {
  if (!element) return;
  fitted.add(element);
  fit(element);
  if (!listening && typeof window !== "undefined") {
    listening = true;
    window.addEventListener("resize", () => {
      for (const el of fitted) {
        if (el.isConnected) fit(el);
        else fitted.delete(el);
      }
    });
  }
}

/** @param {HTMLElement} element */
function fit(element) {
  if (!element.isConnected) return;
  const top = Math.max(0, element.getBoundingClientRect().top);
  element.style.maxHeight = `${Math.max(SMALLEST, Math.floor(window.innerHeight - top - MARGIN))}px`;
  element.classList.add("volley-fitted");
}
