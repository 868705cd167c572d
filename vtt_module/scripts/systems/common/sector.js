/** Sector geometry lives below the systems (scripts/sector.js); systems import it from here as before. */
export * from "../../sector.js";
