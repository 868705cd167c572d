/**
 * Volley's live regions: one for the bridge's state, one for what an open window has to say ("Sending…",
 * "Done", "Saved.") and one for the odds preview (the odds, "asking the bridge…"), so a fresh preview
 * never drowns the answer to Fire. Each is a visually hidden element at the end of the page, made once
 * at `ready` (a live region must be there before its text changes to be read) and never re-rendered,
 * unlike the windows' parts. What is written there goes through an `Announcer` (../announcer.js), so
 * a countdown or a burst of keystrokes is not read word for word.
 *
 * On Foundry v14 a Volley window may be popped out into a browser window of its own, and a screen
 * reader reads the live regions of the window the user is in: what is said is written to the regions
 * of every document Volley draws into (the main window's and each detached window's, window-dom.js),
 * each made there on first use.
 */

import { Announcer } from "../announcer.js";
import { documentsInUse } from "./window-dom.js";

/** @typedef {"bridge" | "dialog" | "odds"} Channel */

/** @type {Map<Channel, Announcer>} */
const announcers = new Map();

/**
 * @param {Channel} channel
 * @param {Document} [document] the document the region is in
 */
function region(channel, document = globalThis.document) {
  const id = `volley-announce-${channel}`;
  let element = document.getElementById(id);
  if (!element) {
    element = document.createElement("div");
    element.id = id;
    element.className = "volley-sr-only volley-announce";
    element.setAttribute("role", "status");
    element.setAttribute("aria-live", "polite");
    element.setAttribute("aria-atomic", "true");
    document.body.append(element);
  }
  return element;
}

/**
 * The announcer of one channel (its region made on first use).
 * @param {Channel} channel
 */
export function announcer(channel) {
  let found = announcers.get(channel);
  if (!found) {
    region(channel);
    found = new Announcer({
      write: (text) => {
        for (const doc of documentsInUse()) {
          const made = !doc.getElementById(`volley-announce-${channel}`);
          const element = region(channel, doc);
          // A region is read only if it was there before its text changed: a new one (a window just
          // popped out) gets the text on that window's next frame.
          if (made && doc.defaultView) doc.defaultView.requestAnimationFrame(() => (element.textContent = text));
          else element.textContent = text;
        }
      },
      timers: { setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms), clearTimeout: (handle) => globalThis.clearTimeout(handle) },
    });
    announcers.set(channel, found);
  }
  return found;
}

/** Make the regions early, so the first thing said is read. */
export function prepareAnnouncers() {
  announcer("bridge");
  announcer("dialog");
  announcer("odds");
}
