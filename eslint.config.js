import { readdirSync } from "node:fs";
import path from "node:path";
import js from "@eslint/js";
import tseslint from "typescript-eslint";

// Each kind of data has one owner under lib/ (docs/architecture.md, "Where does X live"): only the
// owning module imports its `store` (relative `./store`, or `@/lib/<module>/store`); every other file,
// tests included, calls the functions the module's index exports.
const MODULES = readdirSync(path.join(import.meta.dirname, "lib"), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** `no-restricted-imports` forbidding every store but those of `allowed` modules. */
function storeImports(allowed = []) {
  const others = allowed.length > 0 ? `(?!(${allowed.join("|")})/)` : "";
  return [
    "error",
    {
      patterns: [
        {
          regex: `^(@/lib/${others}|(\\.\\./)+)[\\w-]+(/[\\w-]+)*/store$`,
          message: "Another module's store: call the functions its index exports (`@/lib/<module>`).",
        },
      ],
    },
  ];
}

export default tseslint.config(
  {
    ignores: [
      ".next/**",
      "node_modules/**",
      ".data/**",
      "reports/**",
      "test-results/**",
      "playwright-report/**",
      "next-env.d.ts",
      "dist/**",
      ".dependency-cruiser.cjs",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: { attributes: false } }],
      "@typescript-eslint/await-thenable": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-console": "error",
    },
  },
  { rules: { "no-restricted-imports": storeImports() } },
  ...MODULES.map((module) => ({
    files: [`lib/${module}/**`],
    rules: { "no-restricted-imports": storeImports([module]) },
  })),
  {
    files: ["**/*.js", "**/*.mjs"],
    ...tseslint.configs.disableTypeChecked,
  },
);
