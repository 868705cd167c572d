/**
 * DOM checks that hold in every browser window Foundry draws into.
 *
 * Foundry v14 can pop any ApplicationV2 out into a browser window of its own (the Detach header
 * control; foundryvtt/foundryvtt#13128 and #13132, `ApplicationV2#detachWindow`, `_onDetach(from, to)`),
 * while the module's code keeps running in the main window. A node of the detached window belongs to
 * that window: `node instanceof HTMLInputElement` compares it with the main window's class and is false
 * (the bug PopOut! users met in pf2e, foundryvtt/pf2e#22434), and `document` is the main window's, not
 * the one the user is typing in. So Volley asks a node what it is (its `nodeType` and `localName`) and
 * finds its document and window through the node itself (`ownerDocument`, `defaultView`).
 *
 * Pure apart from the DOM nodes handed in.
 */

const HTML = "http://www.w3.org/1999/xhtml";

/**
 * Whether `value` is an HTML element, of any window.
 * @param {unknown} value
 * @returns {value is HTMLElement}
 */
export function isHtmlElement(value) {
  const node = /** @type {{nodeType?: unknown, namespaceURI?: unknown} | null} */ (value);
  return typeof value === "object" && value !== null && node?.nodeType === 1 && node.namespaceURI === HTML;
}

/**
 * @param {unknown} value
 * @param {string} name
 */
function isTag(value, name) {
  return isHtmlElement(value) && value.localName === name;
}

/**
 * @param {unknown} value
 * @returns {value is HTMLInputElement}
 */
export function isInput(value) {
  return isTag(value, "input");
}

/**
 * @param {unknown} value
 * @returns {value is HTMLSelectElement}
 */
export function isSelect(value) {
  return isTag(value, "select");
}

/**
 * @param {unknown} value
 * @returns {value is HTMLTextAreaElement}
 */
export function isTextArea(value) {
  return isTag(value, "textarea");
}

/**
 * @param {unknown} value
 * @returns {value is HTMLButtonElement}
 */
export function isButton(value) {
  return isTag(value, "button");
}

/**
 * @param {unknown} value
 * @returns {value is HTMLFormElement}
 */
export function isForm(value) {
  return isTag(value, "form");
}

/**
 * @param {unknown} value
 * @returns {value is HTMLDetailsElement}
 */
export function isDetails(value) {
  return isTag(value, "details");
}

/**
 * The document a node is drawn in (the main window's when there is no node).
 * @param {Node | null | undefined} node
 * @returns {Document}
 */
export function documentOf(node) {
  return node?.ownerDocument ?? document;
}

/**
 * The browser window a node is drawn in.
 * @param {Node | null | undefined} node
 * @returns {Window}
 */
export function windowOf(node) {
  return documentOf(node).defaultView ?? window;
}

/**
 * Every document Volley may draw into: the main window's and, on v14, each detached window's
 * (`foundry.applications.detached.windows`: id -> {window, applications}).
 * @returns {Document[]}
 */
export function documentsInUse() {
  /** @type {Document[]} */
  const documents = [document];
  const detached = /** @type {{windows?: Map<string, {window?: Window}>} | undefined} */ (/** @type {any} */ (globalThis.foundry)?.applications?.detached);
  for (const descriptor of detached?.windows?.values() ?? []) {
    try {
      const doc = descriptor.window?.closed ? null : descriptor.window?.document;
      if (doc && !documents.includes(doc)) documents.push(doc);
    } catch {
      // a window that is going away
    }
  }
  return documents;
}
