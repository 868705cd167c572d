// ESLint for the module's ES modules and their node:test files. Run from the repository root
// (`npm run lint` does): `eslint -c vtt_module/eslint.config.js vtt_module tests/js`, so one config covers the
// module, its sandbox page and the node tests.
import js from "@eslint/js";
import globals from "globals";

/**
 * Foundry's globals, allowed only where Foundry is touched, by folder and kind, never by file name:
 * the glue (everything in scripts/foundry/, and scripts/volley.js, the entry module.json loads, which
 * wires the systems into it) and the ApplicationV2 windows (every *-dialog.js). Everything else stays
 * pure, so node:test can import it; a new file outside those places that reaches for `game` or `Hooks`
 * fails the lint.
 */
const foundryGlobals = {
  game: "readonly",
  Hooks: "readonly",
  ui: "readonly",
  canvas: "readonly",
  foundry: "readonly",
  ChatMessage: "readonly",
  CONFIG: "readonly",
  Macro: "readonly",
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
  { ignores: ["vtt_module/node_modules/**", "vtt_module/sandbox/vendor/**", "vtt_module/scripts/vendor/**"] },
  js.configs.recommended,
  {
    files: ["vtt_module/**/*.js"],
    languageOptions: { ecmaVersion: 2023, sourceType: "module", globals: { ...globals.browser } },
    rules,
  },
  {
    files: ["vtt_module/scripts/volley.js", "vtt_module/scripts/foundry/**/*.js", "vtt_module/scripts/**/*-dialog.js"],
    languageOptions: { globals: foundryGlobals },
  },
  {
    // Foundry v14 pops windows out into browser windows of their own, whose nodes are that window's: an
    // `instanceof` against the main window's DOM classes is false for them (scripts/foundry/window-dom.js
    // asks a node what it is instead).
    files: ["vtt_module/scripts/**/*.js"],
    rules: {
      "no-restricted-syntax": [
        "error",
        { selector: "CallExpression[callee.name='eval']", message: "no eval" },
        {
          selector: "BinaryExpression[operator='instanceof'][right.name=/^(HTML\\w*Element|Element|Node|Document|SVG\\w*Element|Text)$/]",
          message: "instanceof against a DOM class is false for nodes of a popped-out window (v14): use scripts/foundry/window-dom.js",
        },
      ],
    },
  },
  {
    files: ["vtt_module/eslint.config.js", "vtt_module/tools/**/*.mjs"],
    languageOptions: { ecmaVersion: 2023, sourceType: "module", globals: { ...globals.node } },
    rules,
  },
  {
    // The sandbox page (`volley sandbox`): plain browser modules standing in for the Foundry client.
    files: ["vtt_module/sandbox/**/*.js"],
    ignores: ["vtt_module/sandbox/vendor/**"],
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: "module",
      globals: { ...globals.browser, ...foundryGlobals, Handlebars: "readonly", sandbox: "readonly" },
    },
    rules,
  },
  {
    files: ["tests/js/**/*.mjs"],
    languageOptions: { ecmaVersion: 2023, sourceType: "module", globals: { ...globals.node } },
    rules,
  },
];
