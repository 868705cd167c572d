/**
 * Picking a direction of fire on the canvas: the user clicks where the sector should point, and sees
 * the sector follow the pointer until then.
 *
 * One-shot and side-effect free: while picking, the canvas's own pointer handling is held back (a click
 * selects no token and starts no drag), nothing is created in the scene; the preview is a drawing laid
 * over the canvas's element (an SVG that lets every pointer event through) and is removed the moment the
 * user clicks, presses Escape or right-clicks. The drawing covers the canvas's element only. Coordinates go through the canvas's own conversions
 * (`canvasCoordinatesFromClient`, `clientCoordinatesFromCanvas`), so panning and zoom are honoured.
 */

import { bearing, sectorOutline } from "../sector.js";
import { isHtmlElement } from "./window-dom.js";

const SVG = "http://www.w3.org/2000/svg";

/** An unlimited sector (no weapon range) is drawn this far, in canvas pixels. */
const UNLIMITED_PIXELS = 6000;

/**
 * @typedef {import("../sector.js").Point} Point
 * @typedef {{origin: Point, arc: number, lengthPixels: number}} PickSetup
 *   `origin`: the shooter's centre in canvas pixels; `arc`: the sector's width in degrees;
 *   `lengthPixels`: how far it reaches (Infinity: no limit)
 */

/** The element the canvas draws into (Foundry: the PIXI application's view). @returns {HTMLElement | null} */
function canvasElement() {
  const view = canvas?.app?.view;
  return isHtmlElement(view) ? view : null;
}

/** Whether there is a canvas to pick on. */
export function canPickOnCanvas() {
  return Boolean(canvasElement() && canvas?.ready !== false && canvas?.scene);
}

/**
 * Lay the drawing exactly over the canvas's element, so the sector is clipped to the map.
 * @param {SVGSVGElement} overlay
 * @param {HTMLElement} view
 */
function coverView(overlay, view) {
  const rect = view.getBoundingClientRect();
  Object.assign(overlay.style, { left: `${rect.left}px`, top: `${rect.top}px`, width: `${rect.width}px`, height: `${rect.height}px` });
  return rect;
}

/**
 * @param {SVGSVGElement} overlay
 * @param {HTMLElement} view
 * @param {SVGPolygonElement} shape
 * @param {PickSetup} setup
 * @param {number} facing
 */
function drawSector(overlay, view, shape, setup, facing) {
  const rect = coverView(overlay, view);
  const outline = sectorOutline(
    { origin: setup.origin, facing, arc: setup.arc, length: Number.isFinite(setup.lengthPixels) ? setup.lengthPixels : UNLIMITED_PIXELS },
    UNLIMITED_PIXELS,
  );
  const points = outline.map((point) => canvas.clientCoordinatesFromCanvas(point));
  shape.setAttribute("points", points.map((p) => `${Math.round(p.x - rect.left)},${Math.round(p.y - rect.top)}`).join(" "));
}

/**
 * Wait for the user to click a direction on the canvas.
 * @param {PickSetup} setup
 * @returns {Promise<number | null>} the facing in degrees (0° east, clockwise), or null if cancelled
 */
export function pickDirection(setup) {
  const view = canvasElement();
  if (!view) return Promise.resolve(null);
  const overlay = /** @type {SVGSVGElement} */ (document.createElementNS(SVG, "svg"));
  overlay.classList.add("volley-sector-preview");
  overlay.setAttribute("aria-hidden", "true");
  const shape = document.createElementNS(SVG, "polygon");
  shape.classList.add("volley-sector-preview__shape");
  overlay.append(shape);
  document.body.append(overlay);
  coverView(overlay, view);
  view.classList.add("volley-picking-sector");

  return new Promise((resolve) => {
    /** @param {MouseEvent} event */
    const facingAt = (event) => bearing(setup.origin, canvas.canvasCoordinatesFromClient({ x: event.clientX, y: event.clientY }));
    /** @param {PointerEvent} event */
    const onMove = (event) => drawSector(overlay, view, shape, setup, facingAt(event));
    /** @param {Event} event */
    const hold = (event) => {
      // The canvas itself must not see this press: no token selected, no drag started.
      event.preventDefault();
      event.stopImmediatePropagation();
    };
    /** @param {MouseEvent} event */
    const onClick = (event) => {
      hold(event);
      finish(facingAt(event));
    };
    /** @param {KeyboardEvent} event */
    const onKey = (event) => {
      if (event.key !== "Escape") return;
      hold(event);
      finish(null);
    };
    /** @param {Event} event */
    const onCancel = (event) => {
      hold(event);
      finish(null);
    };
    /** @param {number | null} facing */
    const finish = (facing) => {
      view.removeEventListener("pointermove", onMove, true);
      view.removeEventListener("pointerdown", hold, true);
      view.removeEventListener("pointerup", hold, true);
      view.removeEventListener("click", onClick, true);
      view.removeEventListener("contextmenu", onCancel, true);
      window.removeEventListener("keydown", onKey, true);
      view.classList.remove("volley-picking-sector");
      overlay.remove();
      resolve(facing);
    };
    view.addEventListener("pointermove", onMove, true);
    view.addEventListener("pointerdown", hold, true);
    view.addEventListener("pointerup", hold, true);
    view.addEventListener("click", onClick, true);
    view.addEventListener("contextmenu", onCancel, true);
    window.addEventListener("keydown", onKey, true);
  });
}
