/**
 * The plug-in registry lives below the systems (scripts/registry.js), so the Foundry glue can find a
 * system without importing any; the systems import it from here as before.
 */
export * from "../registry.js";
