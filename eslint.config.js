// ESLint for the browser code (teenpatti/web/static) and the JavaScript of the tests.
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: [".venv/**", "node_modules/**", "build/**", "dist/**", "data/**"] },
  js.configs.recommended,
  {
    files: ["teenpatti/web/static/js/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.browser },
    rules: {
      eqeqeq: ["error", "always"],
      "no-var": "error",
      "prefer-const": "error",
      "no-unused-vars": ["error", { args: "after-used", caughtErrors: "none" }],
    },
  },
  {
    // the service worker: the server writes the list of files to keep in place of __SHELL__
    files: ["teenpatti/web/static/sw.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "script",
      globals: { ...globals.serviceworker, __SHELL__: "readonly" },
    },
    rules: { eqeqeq: ["error", "always"], "no-var": "error", "prefer-const": "error" },
  },
  {
    files: ["tests/**/*.js", "tests/**/*.mjs", "eslint.config.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.node },
    rules: { eqeqeq: ["error", "always"], "prefer-const": "error" },
  },
];
