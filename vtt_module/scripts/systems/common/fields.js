/** The form readers live below the systems (scripts/fields.js); systems import them from here as before. */
export * from "../../fields.js";
