// ESLint for the module's ES modules and their node:test files. Run from the repository root
// (`npm run lint` does): `eslint -c vtt_module/eslint.config.js vtt_module tests/js tests/browser/harness`, so one config
// covers both folders.
import js from "@eslint/js";
import globals from "globals";

/** Foundry's globals, allowed only in the glue module: everything else must stay pure. */
const foundryGlobals = {
  game: "readonly",
  Hooks: "readonly",
  ui: "readonly",
  canvas: "readonly",
  foundry: "readonly",
  ChatMessage: "readonly",
  CONFIG: "readonly",
};

const rules = {
  "no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" }],
  eqeqeq: ["error", "always"],
  "no-var": "error",
  "prefer-const": "error",
  "no-implicit-globals": "error",
  "no-restricted-syntax": ["error", { selector: "CallExpression[callee.name='eval']", message: "no eval" }],
};

export default [
  { ignores: ["vtt_module/node_modules/**"] },
  js.configs.recommended,
  {
    files: ["vtt_module/**/*.js"],
    languageOptions: { ecmaVersion: 2023, sourceType: "module", globals: { ...globals.browser } },
    rules,
  },
  { files: ["vtt_module/scripts/volley.js"], languageOptions: { globals: foundryGlobals } },
  {
    files: ["vtt_module/eslint.config.js", "vtt_module/tools/**/*.mjs"],
    languageOptions: { ecmaVersion: 2023, sourceType: "module", globals: { ...globals.node } },
    rules,
  },
  {
    // The browser tests' harness page: plain browser modules standing in for Foundry.
    files: ["tests/browser/harness/**/*.js"],
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: "module",
      globals: { ...globals.browser, ...foundryGlobals, Handlebars: "readonly", harness: "readonly" },
    },
    rules,
  },
  {
    files: ["tests/js/**/*.mjs"],
    languageOptions: { ecmaVersion: 2023, sourceType: "module", globals: { ...globals.node } },
    rules,
  },
];
