/**
 * The rule systems this module plays. Each line imports a plug-in folder, whose index.js registers
 * itself (see registry.js, and the module README's "Adding a system").
 */

import "./gurps/index.js";
import "./megatraveller/index.js";
import "./d100/index.js";

export { allSystems, defaultRuleSystem, systemPlugin } from "../registry.js";
