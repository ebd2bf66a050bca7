// Type-aware checks tsc does not make: a promise nobody awaits (a query that never runs, or runs
// after its transaction committed), a promise passed where a plain value is expected, and the
// rules of React hooks in the islands. No `for…in` and no `__proto__` anywhere: a `for…in` copied
// a key polluting Object.prototype onto every response (Security IV); iterate Object.entries/keys.
import { defineConfig } from "eslint/config";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

export default defineConfig(
  { ignores: ["dist/**", "node_modules/**", "test-results/**", ".node/**", "public/**", "**/*.astro", "**/*.mjs", "**/*.cjs"] },
  {
    files: ["src/**/*.{ts,tsx}", "scripts/**/*.ts", "tests/**/*.ts", "db/**/*.ts"],
    languageOptions: { parser: tseslint.parser, parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    plugins: { "@typescript-eslint": tseslint.plugin },
    rules: {
      "@typescript-eslint/no-floating-promises": ["error", { checkThenables: true }],
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: false }],
      "@typescript-eslint/await-thenable": "error",
      "no-restricted-syntax": [
        "error",
        { selector: "ForInStatement", message: "for…in lê chaves herdadas (poluição de protótipo): use Object.entries/Object.keys." },
      ],
      "no-proto": "error",
    },
  },
  {
    // The islands' hooks: called in the same order every render, effects list what they read.
    files: ["src/components/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: { "react-hooks/rules-of-hooks": "error", "react-hooks/exhaustive-deps": "error" },
  },
);
