// ESLint for the browser code (teenpatti/web/static/js) and its unit tests (tests/js).
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
    files: ["tests/**/*.js", "tests/**/*.mjs", "eslint.config.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.node },
    rules: { eqeqeq: ["error", "always"], "prefer-const": "error" },
  },
];
