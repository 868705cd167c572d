/**
 * Where a table reaches Volley: a Fire control and a Volley-weapons control on the Token HUD and in the
 * actor sheet's header, and the bridge's state at the top of the players list.
 *
 * The HUD's Fire control shows the rounds left in the token's current weapon (and says so in its
 * tooltip); while the bridge is down it says that instead and is disabled. In v13 the Token HUD is an
 * ApplicationV2 and its render hook passes an HTMLElement.
 */

import { BridgeWatch } from "../announcer.js";
import { statusWords } from "../bridge-status.js";
import { openSessionReport } from "../report-link.js";
import { systemPlugin } from "../registry.js";
import { announcer } from "./live-regions.js";
import { askBridgeAddress, bridgeOnline, bridgeStatus } from "./bridge.js";
import { arsenalOf, findTokenDocument } from "./documents.js";
import { accessToken, bridgeAddressTrusted, bridgeUrl, worldRuleSystem } from "./settings.js";
import { language, t } from "./words.js";
import { isHtmlElement } from "./window-dom.js";

/**
 * @typedef {{openAttack: (token: TokenDocument) => unknown, openProfile: (actor: Actor, token?: TokenDocument | null) => unknown}} Openers
 */

/**
 * The token's current weapon as one line: "MP5: 27 / 30", "MP5: jammed", or null without a weapon.
 * @param {TokenDocument} token
 */
export function weaponReadout(token) {
  const plugin = systemPlugin(worldRuleSystem());
  if (!plugin || !token.actor) return null;
  const arsenal = arsenalOf(token, plugin.id);
  const weapon = arsenal.weapons.find((w) => w.id === arsenal.current) ?? arsenal.weapons[0];
  if (!weapon) return null;
  const readout = plugin.readout(weapon);
  return { name: weapon.name, ...readout };
}

/**
 * Bring one HUD Fire control up to date: rounds, jam, the bridge's state.
 * @param {HTMLButtonElement} button
 */
function paintFireControl(button) {
  const token = findTokenDocument(button.dataset.tokenId ?? "");
  const readout = token ? weaponReadout(token) : null;
  const badge = /** @type {HTMLElement | null} */ (button.querySelector(".volley-fire__rounds"));
  const online = bridgeOnline();
  /** @type {string} */
  let tip;
  if (!online) {
    const words = statusWords(bridgeStatus(), Date.now());
    tip = t("VOLLEY.Hud.FireOffline", { status: t(words.key, words.values) });
    if (badge) badge.dataset.rounds = "×";
  } else if (readout) {
    tip = readout.jammed
      ? t("VOLLEY.Hud.FireJammed", { weapon: readout.name })
      : t("VOLLEY.Hud.FireRounds", { weapon: readout.name, loaded: readout.loaded ?? "—", capacity: readout.capacity ?? "—" });
    if (badge) badge.dataset.rounds = readout.jammed ? "!" : readout.loaded === null ? "" : String(readout.loaded);
  } else {
    tip = t("VOLLEY.Hud.FireNoWeapon");
    if (badge) badge.dataset.rounds = "";
  }
  button.dataset.tooltip = tip;
  button.setAttribute("aria-description", tip);
  button.classList.toggle("volley-fire--offline", !online);
  button.classList.toggle("volley-fire--jammed", Boolean(readout?.jammed));
  if (online) button.removeAttribute("aria-disabled");
  else button.setAttribute("aria-disabled", "true");
}

/**
 * The Fire controls this client drew (the Token HUD keeps one or two), so a repaint touches them and
 * not the whole page: a long session's chat log holds thousands of elements, and this runs on every
 * actor or token update. Controls no longer on the page are dropped as they are met.
 * @type {Set<HTMLButtonElement>}
 */
const fireControls = new Set();

/** Repaint every Fire control on screen (the bridge or a token changed). */
export function refreshFireControls() {
  for (const button of fireControls) {
    if (button.isConnected) paintFireControl(button);
    else fireControls.delete(button);
  }
}

/**
 * @param {string} className
 * @param {string} icon
 * @param {string} label
 * @param {() => void} onClick
 */
function hudButton(className, icon, label, onClick) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = `control-icon ${className}`;
  button.setAttribute("aria-label", label);
  button.innerHTML = `<i class="${icon}" inert></i>`;
  button.addEventListener("click", (event) => {
    event.preventDefault();
    event.stopPropagation();
    if (button.getAttribute("aria-disabled") === "true") {
      ui.notifications.warn(button.dataset.tooltip ?? label);
      return;
    }
    onClick();
  });
  return button;
}

/**
 * `renderTokenHUD`: add Fire (with the rounds left) and Volley weapons to the right column.
 * @param {any} hud the TokenHUD application
 * @param {HTMLElement} html
 * @param {Openers} open
 */
export function addHudControls(hud, html, open) {
  const root = isHtmlElement(html) ? html : /** @type {any} */ (html)?.[0];
  const column = root?.querySelector(".col.right");
  const token = /** @type {TokenDocument | undefined} */ (hud?.document ?? hud?.object?.document);
  if (!column || !token?.isOwner || column.querySelector(".volley-fire")) return;
  const fire = hudButton("volley-fire", "fa-solid fa-crosshairs", t("VOLLEY.Hud.Fire"), () => void open.openAttack(token));
  fire.dataset.tokenId = String(token.id);
  // The badge's number is drawn by CSS from data-rounds, not as text: the control is named "Fire" and
  // says the rounds in its description; a number inside it would be read as part of its label.
  const badge = document.createElement("span");
  badge.className = "volley-fire__rounds";
  badge.setAttribute("aria-hidden", "true");
  fire.append(badge);
  const profile = hudButton("volley-profile", "fa-solid fa-person-rifle", t("VOLLEY.Hud.Profile"), () => {
    if (token.actor) void open.openProfile(token.actor, token);
  });
  profile.dataset.tooltip = t("VOLLEY.Hud.Profile");
  column.append(fire, profile);
  fireControls.add(fire);
  paintFireControl(fire);
}

/**
 * The token an actor's sheet acts through: its own token for an unlinked actor, else one on the scene.
 * @param {Actor} actor
 * @returns {TokenDocument | null}
 */
export function tokenOfActor(actor) {
  if (actor.isToken && actor.token) return actor.token;
  const active = actor.getActiveTokens(true, true);
  return /** @type {TokenDocument | undefined} */ (active[0]) ?? null;
}

/**
 * @param {Actor} actor
 * @param {Openers} open
 */
function fireFromSheet(actor, open) {
  const token = tokenOfActor(actor);
  if (!token) {
    ui.notifications.warn(t("VOLLEY.Errors.NoTokenOnScene", { name: actor.name ?? "" }));
    return;
  }
  void open.openAttack(token);
}

/**
 * `getHeaderControlsActorSheetV2`: Fire and Volley weapons in an ApplicationV2 sheet's header menu.
 * @param {any} sheet
 * @param {unknown} controls the hook's array of header controls
 * @param {Openers} open
 */
export function addSheetControls(sheet, controls, open) {
  const actor = /** @type {Actor | undefined} */ (sheet?.document ?? sheet?.actor);
  if (!Array.isArray(controls) || !actor?.isOwner) return;
  const fire = () => fireFromSheet(actor, open);
  const profile = () => void open.openProfile(actor, null);
  controls.push(
    { icon: "fa-solid fa-crosshairs", label: "VOLLEY.Hud.Fire", action: "volleyFire", onClick: fire },
    { icon: "fa-solid fa-person-rifle", label: "VOLLEY.Hud.Profile", action: "volleyProfile", onClick: profile },
  );
  // Foundry v13 calls a control's onClick; a sheet that dispatches header controls by action name
  // finds the same handlers among its actions.
  const actions = sheet?.options?.actions;
  if (actions && typeof actions === "object") {
    actions.volleyFire ??= fire;
    actions.volleyProfile ??= profile;
  }
}

/**
 * `getActorSheetHeaderButtons`: the same for game systems whose sheets are still ApplicationV1.
 * @param {any} sheet
 * @param {unknown} buttons
 * @param {Openers} open
 */
export function addSheetButtons(sheet, buttons, open) {
  const actor = /** @type {Actor | undefined} */ (sheet?.actor ?? sheet?.document);
  if (!Array.isArray(buttons) || !actor?.isOwner) return;
  buttons.unshift(
    { label: t("VOLLEY.Hud.Fire"), class: "volley-fire-sheet", icon: "fa-solid fa-crosshairs", onclick: () => fireFromSheet(actor, open) },
    { label: t("VOLLEY.Hud.Profile"), class: "volley-profile-sheet", icon: "fa-solid fa-person-rifle", onclick: () => void open.openProfile(actor, null) },
  );
}

/**
 * The bridge's state as one line, in every open players list (`renderPlayers`), kept up to date.
 * @param {unknown} _app
 * @param {HTMLElement} html
 */
export function addStatusLine(_app, html) {
  const root = isHtmlElement(html) ? html : /** @type {any} */ (html)?.[0];
  if (!root || root.querySelector(".volley-bridge-status")) return;
  // Not a live region: while the bridge is away it counts down every second. Changes worth hearing
  // are said once through Volley's own region (announceBridge).
  const line = document.createElement("p");
  line.className = "volley-bridge-status";
  root.prepend(line);
  if (game.user.isGM && accessToken()) line.after(reportButton());
  refreshStatusLines();
}

/** The referee's link to the running session's report (the bridge's /report/current). */
function reportButton() {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "volley-report-link";
  button.textContent = t("VOLLEY.Report.Open");
  button.addEventListener("click", (event) => {
    event.preventDefault();
    if (!bridgeAddressTrusted()) {
      // The token goes with the report's request: not to an address the referee has not confirmed.
      void askBridgeAddress();
      return;
    }
    openSessionReport({
      bridgeUrl: bridgeUrl(),
      token: accessToken(),
      lang: language(),
      fetch: (url, init) => globalThis.fetch(url, init),
      open: (url, target) => globalThis.open(url, target),
      urls: URL,
      timers: { setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms) },
    }).catch((/** @type {any} */ error) => {
      const key = `VOLLEY.Report.Failed.${error?.reason ?? "network"}`;
      ui.notifications.error(game.i18n.has(key) ? t(key, { message: String(error?.message ?? "") }) : `Volley: ${error?.message ?? error}`);
    });
  });
  return button;
}

/** The bridge's state as one line: "Volley bridge: connected". */
function bridgeLine() {
  const status = bridgeStatus();
  const words = statusWords(status, Date.now());
  let state = t(words.key, words.values);
  // A bridge that is not this machine: the referee's line always says where it is.
  if (status.address && !["ready", "unconfirmed"].includes(status.state)) state = t("VOLLEY.Bridge.AtAddress", { state, address: status.address });
  // A second tab of the GM who holds the bridge is a follower: it says so instead of looking like a holder.
  return `${t("VOLLEY.Bridge.Label")}: ${status.follower ? t("VOLLEY.Bridge.Follower", { state }) : state}`;
}

const watch = new BridgeWatch();

/**
 * Say it when the bridge goes away, comes back or refuses the token: once per change, not each retry
 * or each second of the countdown, and not the state the page finds at load.
 */
export function announceBridge() {
  if (watch.changed(bridgeStatus().state)) announcer("bridge").say(bridgeLine());
}

/** Rewrite every bridge status line on screen. */
export function refreshStatusLines() {
  const status = bridgeStatus();
  const text = bridgeLine();
  // The referee's own browser waits for them to confirm the bridge's address: the line offers it.
  const confirm = status.state === "unconfirmed" && Boolean(status.address);
  for (const line of document.querySelectorAll(".volley-bridge-status")) {
    if (line.textContent !== text) line.textContent = text;
    line.classList.toggle("volley-bridge-status--online", status.state === "ready");
    line.classList.toggle("volley-bridge-status--offline", status.state !== "ready");
    const button = line.nextElementSibling?.classList.contains("volley-bridge-confirm") ? line.nextElementSibling : null;
    if (confirm && !button) line.after(confirmButton(line.ownerDocument));
    if (!confirm) button?.remove();
  }
}

/**
 * The button that asks the referee to confirm the bridge's address (foundry/bridge.js askBridgeAddress).
 * @param {Document} doc
 */
function confirmButton(doc) {
  const button = doc.createElement("button");
  button.type = "button";
  button.className = "volley-bridge-confirm";
  button.textContent = t("VOLLEY.Bridge.ConfirmButton");
  button.addEventListener("click", (event) => {
    event.preventDefault();
    void askBridgeAddress();
  });
  return button;
}
