// Type-aware checks tsc does not make: a promise nobody awaits (a query that never runs, or runs
// after its transaction committed) and a promise passed where a plain value is expected.
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "test-results/**", ".node/**", "public/**", "**/*.astro", "**/*.mjs", "**/*.cjs"] },
  {
    files: ["src/**/*.{ts,tsx}", "scripts/**/*.ts", "tests/**/*.ts", "db/**/*.ts"],
    languageOptions: { parser: tseslint.parser, parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    // Inline comments in the code address other tools (react-hooks); this config reads none of them.
    linterOptions: { noInlineConfig: true, reportUnusedDisableDirectives: "off" },
    plugins: { "@typescript-eslint": tseslint.plugin },
    rules: {
      "@typescript-eslint/no-floating-promises": ["error", { checkThenables: true }],
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: false }],
      "@typescript-eslint/await-thenable": "error",
    },
  },
);
