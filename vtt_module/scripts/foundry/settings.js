/**
 * The module's settings: where the bridge is and how long to wait for it (world), the access token
 * (this browser only, so it never reaches players' clients), and the rule system the world plays.
 */

import { DEFAULT_BRIDGE_URL } from "../protocol.js";
import { allSystems, defaultRuleSystem } from "../registry.js";
import { messageMode } from "../table/roll-mode.js";
import { tableRules, tableRuleValue } from "./table-rules.js";

export const MODULE_ID = "volley";

/**
 * @param {{onConnectionChange: () => void, onRuleSystemChange: () => void}} callbacks
 */
export function registerSettings({ onConnectionChange, onRuleSystemChange }) {
  game.settings.register(MODULE_ID, "bridgeUrl", {
    name: "VOLLEY.Settings.BridgeUrl.Name",
    hint: "VOLLEY.Settings.BridgeUrl.Hint",
    scope: "world",
    config: true,
    type: String,
    default: DEFAULT_BRIDGE_URL,
    onChange: onConnectionChange,
  });
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

export function bridgeUrl() {
  return String(game.settings.get(MODULE_ID, "bridgeUrl") || DEFAULT_BRIDGE_URL);
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
 * `core.rollMode` on v13; in v14's names either way (table/roll-mode.js `messageMode`).
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
