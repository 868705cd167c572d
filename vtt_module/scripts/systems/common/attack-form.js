/**
 * The attack dialog's form as the user sees it (systems/common/attack-dialog.js is the window around
 * it): reading what was typed, putting it back into the parts drawn afresh, naming a control by the
 * label the user reads, marking the control a refusal names, and showing the system's running check
 * beside Fire. Plain DOM work on the form's element; nothing here asks the bridge or renders.
 */

import { problemText, t } from "../../foundry/words.js";
import { isInput } from "../../foundry/window-dom.js";

/**
 * @param {HTMLFormElement} form
 * @returns {Record<string, string>}
 */
export function formValues(form) {
  /** @type {Record<string, string>} */
  const values = {};
  for (const [key, value] of new FormData(form).entries()) values[key] = String(value);
  return values;
}

/**
 * The form as typed, checkboxes as "on" or "off" (FormData leaves a clear one out).
 * @param {HTMLFormElement} form
 */
export function typedValues(form) {
  /** @type {Record<string, string>} */
  const values = formValues(form);
  for (const box of form.querySelectorAll('input[type="checkbox"][name]')) {
    const input = /** @type {HTMLInputElement} */ (box);
    values[input.name] = input.checked ? "on" : "off";
  }
  return values;
}

/**
 * Put what was typed back into the fields of the parts drawn afresh (all of them when `parts` is not
 * given); the weapon picker keeps what the render chose.
 * @param {HTMLElement} root
 * @param {Record<string, string>} kept
 * @param {string[] | undefined} parts
 */
export function restoreTyped(root, kept, parts) {
  // Only the parts drawn afresh take the kept values: a field outside them still shows what was typed.
  const fields = parts ? parts.map((part) => `[data-application-part="${part}"] :is(input[name], select[name])`).join(", ") : "input[name], select[name]";
  for (const field of root.querySelectorAll(fields)) {
    const input = /** @type {HTMLInputElement | HTMLSelectElement} */ (field);
    if (input.name === "weapon" || !(input.name in kept)) continue;
    if (isInput(input) && input.type === "checkbox") input.checked = kept[input.name] === "on";
    else input.value = kept[input.name] ?? input.value;
  }
}

/**
 * Show the system's running check in its line and let it hold Fire back; true when it blocks. Fire
 * disabled for another reason (a jam, the bridge away, a request out) stays disabled.
 * @param {HTMLElement} root
 * @param {{tally: string, blocked: string | null} | null} check
 * @param {boolean} sending whether a request is out (Fire stays disabled when the check lets it go)
 */
export function showLiveCheck(root, check, sending) {
  const line = /** @type {HTMLElement | null} */ (root.querySelector(".volley-attack__tally"));
  if (line) {
    line.textContent = check ? (check.blocked ? `${check.tally}: ${check.blocked}` : check.tally) : "";
    line.hidden = !check;
    line.classList.toggle("volley-attack__tally--blocked", Boolean(check?.blocked));
  }
  const fire = /** @type {HTMLButtonElement | null} */ (root.querySelector(".volley-attack__button--primary"));
  if (fire) {
    const held = fire.dataset.volleyHeld === "true";
    if (check?.blocked) {
      if (!fire.disabled || held) {
        fire.disabled = true;
        fire.dataset.volleyHeld = "true";
        fire.title = check.blocked;
        fire.dataset.tooltip = check.blocked;
      }
    } else if (held) {
      fire.disabled = sending;
      delete fire.dataset.volleyHeld;
      fire.title = fire.dataset.volleyHint ?? "";
      fire.dataset.tooltip = fire.dataset.volleyHint ?? "";
    }
  }
  return Boolean(check?.blocked);
}

/**
 * The label the user reads on the form control named `name`: its `<label for>`, the label around it,
 * else its `aria-label`; null when the form has no such control.
 * @param {HTMLElement | null} root
 * @param {string} name
 * @returns {string | null}
 */
export function controlLabel(root, name) {
  const control = root?.querySelector(`[name="${CSS.escape(name)}"]`);
  if (!root || !control) return null;
  const label = control.id ? root.querySelector(`label[for="${CSS.escape(control.id)}"]`) : control.closest("label");
  const text = (label?.textContent || control.getAttribute("aria-label") || "").replace(/\s+/g, " ").trim();
  return text || null;
}

/**
 * Mark the control a refusal names (aria-invalid: outlined, and a screen reader says so), and only it:
 * the mark a fixed field had goes.
 * @param {HTMLElement} root
 * @param {unknown} error a FormError (its `field`), or nothing to clear every mark
 */
export function markRefused(root, error) {
  const field = typeof error === "object" && error !== null ? /** @type {{field?: unknown}} */ (error).field : null;
  for (const marked of root.querySelectorAll("[data-volley-refused]")) {
    marked.removeAttribute("aria-invalid");
    marked.removeAttribute("data-volley-refused");
  }
  const control = typeof field === "string" && field ? root.querySelector(`[name="${CSS.escape(field)}"]`) : null;
  if (control && !(isInput(control) && control.type === "hidden")) {
    control.setAttribute("aria-invalid", "true");
    control.setAttribute("data-volley-refused", "");
  }
}

/**
 * A refusal in the user's words, naming the field by the label the user sees on it (#31: "Facing:
 * required", not the form's field name), when the refusal names one of the form's controls.
 * @param {HTMLElement | null} root
 * @param {unknown} error
 */
export function refusalText(root, error) {
  const e = /** @type {{field?: unknown, key?: unknown, values?: unknown}} */ (typeof error === "object" && error !== null ? error : {});
  const label = typeof e.field === "string" && typeof e.key === "string" ? controlLabel(root, e.field) : null;
  if (label && typeof e.key === "string") {
    const values = typeof e.values === "object" && e.values !== null ? /** @type {Record<string, unknown>} */ (e.values) : {};
    return `${label}: ${t(e.key, values)}`;
  }
  return problemText(error);
}
