/**
 * The module's settings: where the bridge is and the access token (this browser only), how long to
 * wait for the bridge (world), and the rule system the world plays.
 *
 * The bridge's address is the referee's browser's own (client scope, issue #32): the browser that holds
 * the bridge sends its access token (the bridge's credential, and the key of the undo seal and the card
 * veil) to that address, so no one but the referee at that browser may choose it. It is loopback
 * (`ws://127.0.0.1:8765/ws`) unless changed here; an address off this machine is used only once the
 * referee has confirmed it in this browser (`bridgeAddressConfirmed`), and the status line shows it.
 * It used to be a world setting, which any user with world-setting rights (assistant GMs by default)
 * could point elsewhere: `bridgeUrl` stays registered, hidden, only to be taken over once per browser
 * (`migrateBridgeAddress`), and changing it does nothing.
 */

import { isLoopbackAddress } from "../connection.js";
import { DEFAULT_BRIDGE_URL } from "../protocol.js";
import { allSystems, defaultRuleSystem } from "../registry.js";
import { messageMode } from "../chat-card/roll-mode.js";
import { tableRules, tableRuleValue } from "./table-rules.js";

export const MODULE_ID = "volley";

/**
 * @param {{onConnectionChange: () => void, onRuleSystemChange: () => void}} callbacks
 */
export function registerSettings({ onConnectionChange, onRuleSystemChange }) {
  game.settings.register(MODULE_ID, "bridgeAddress", {
    name: "VOLLEY.Settings.BridgeAddress.Name",
    hint: "VOLLEY.Settings.BridgeAddress.Hint",
    scope: "client",
    config: true,
    type: String,
    default: "",
    onChange: onConnectionChange,
  });
  // The address this browser's referee confirmed as theirs, when it is not this machine.
  game.settings.register(MODULE_ID, "bridgeAddressConfirmed", { scope: "client", config: false, type: String, default: "" });
  // The world setting the address used to be: read once per browser (migrateBridgeAddress), never used.
  game.settings.register(MODULE_ID, "bridgeUrl", { scope: "world", config: false, type: String, default: DEFAULT_BRIDGE_URL });
  game.settings.register(MODULE_ID, "bridgeAddressMigrated", { scope: "client", config: false, type: Boolean, default: false });
  game.settings.register(MODULE_ID, "token", {
    name: "VOLLEY.Settings.Token.Name",
    hint: "VOLLEY.Settings.Token.Hint",
    scope: "client",
    config: true,
    type: String,
    default: "",
    onChange: onConnectionChange,
  });
  game.settings.register(MODULE_ID, "timeout", {
    name: "VOLLEY.Settings.Timeout.Name",
    hint: "VOLLEY.Settings.Timeout.Hint",
    scope: "world",
    config: true,
    type: Number,
    default: 15,
    onChange: onConnectionChange,
  });
  /** @type {Record<string, string>} */
  const choices = { "": "VOLLEY.Settings.RuleSystem.None" };
  for (const plugin of allSystems()) choices[plugin.id] = plugin.label;
  game.settings.register(MODULE_ID, "ruleSystem", {
    name: "VOLLEY.Settings.RuleSystem.Name",
    hint: "VOLLEY.Settings.RuleSystem.Hint",
    scope: "world",
    config: true,
    type: String,
    choices,
    default: defaultRuleSystem(game.system?.id),
    onChange: onRuleSystemChange,
  });
  // Before table rules: now the d100 table rule overwatch_ends_on_turn (foundry/table-rules.js moves a
  // table's "off" into it once); kept registered, hidden, so that value can be read.
  game.settings.register(MODULE_ID, "overwatchEndsOnTurn", {
    name: "VOLLEY.Settings.OverwatchEnds.Name",
    hint: "VOLLEY.Settings.OverwatchEnds.Hint",
    scope: "world",
    config: false,
    type: Boolean,
    default: true,
  });
}

/**
 * Whether a standing overwatch order ends by itself when a combat's turn comes back to its shooter
 * (the seed's reading, on by default); off, it stands until fired or lifted by hand, as outside combat.
 */
export function overwatchEndsOnTurn() {
  const chosen = tableRules().d100?.overwatch_ends_on_turn;
  // Not moved into the table rules yet (the game master's browser does it when ready): the old setting.
  if (chosen === undefined && game.settings.get(MODULE_ID, "overwatchEndsOnTurn") === false) return false;
  return tableRuleValue("d100", "overwatch_ends_on_turn") !== false;
}

/** The rule system the world plays ("" until the referee picks one). */
export function worldRuleSystem() {
  return String(game.settings.get(MODULE_ID, "ruleSystem") ?? "");
}

/** This browser's access token, trimmed. */
export function accessToken() {
  return String(game.settings.get(MODULE_ID, "token") ?? "").trim();
}

/** The bridge's address as this browser knows it (its own setting; loopback when unset). */
export function bridgeUrl() {
  return String(game.settings.get(MODULE_ID, "bridgeAddress") || "").trim() || DEFAULT_BRIDGE_URL;
}

/**
 * Whether this browser may send the access token to its bridge address: a loopback address always;
 * any other once the referee has confirmed that very address in this browser.
 */
export function bridgeAddressTrusted() {
  const url = bridgeUrl();
  return isLoopbackAddress(url) || String(game.settings.get(MODULE_ID, "bridgeAddressConfirmed") ?? "") === url;
}

/** The referee confirms, in this browser, that the bridge is at its address (not this machine). */
export async function confirmBridgeAddress() {
  await game.settings.set(MODULE_ID, "bridgeAddressConfirmed", bridgeUrl());
}

/**
 * Take over the old world setting `bridgeUrl`, once per browser, as this browser's own address: a
 * table that had moved its bridge keeps working. It was set by someone with world-setting rights, not
 * necessarily this referee, so an address off this machine still waits for this referee's confirmation.
 * Only a GM's browser holds the bridge, so only a GM's takes it over.
 */
export async function migrateBridgeAddress() {
  if (!game.user.isGM || game.settings.get(MODULE_ID, "bridgeAddressMigrated") === true) return;
  const old = String(game.settings.get(MODULE_ID, "bridgeUrl") ?? "").trim();
  const own = String(game.settings.get(MODULE_ID, "bridgeAddress") ?? "").trim();
  if (!own && old && old !== DEFAULT_BRIDGE_URL) await game.settings.set(MODULE_ID, "bridgeAddress", old);
  await game.settings.set(MODULE_ID, "bridgeAddressMigrated", true);
}

/** Seconds to wait for the bridge's answer. */
export function requestTimeoutMs() {
  return Number(game.settings.get(MODULE_ID, "timeout") || 15) * 1000;
}

/** The Foundry generation this client runs (13 or 14, `game.release.generation`; 13 when unknown). */
export function foundryGeneration() {
  return Number(game.release?.generation ?? 13) || 13;
}

/**
 * Who this user's rolls are for, as chosen in the chat controls: core's `core.messageMode` on Foundry
 * v14 (`core.rollMode` there is a deprecated alias that warns on every read: JohanFalt/Foundry_WoD20#1395),
 * `core.rollMode` on v13; in v14's names either way (chat-card/roll-mode.js `messageMode`).
 * @returns {"public" | "gm" | "blind" | "self"}
 */
export function userMessageMode() {
  const setting = foundryGeneration() >= 14 ? "messageMode" : "rollMode";
  try {
    return messageMode(game.settings.get("core", /** @type {any} */ (setting)));
  } catch {
    return "public"; // core's own setting missing (a stripped-down client): core's default
  }
}
