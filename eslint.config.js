// @ts-check
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/", "node_modules/", "coverage/", "data/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
      "no-console": ["error", { allow: ["error"] }],
    },
  },
  {
    // Command-line entry points and benchmarks print to the terminal on purpose.
    files: ["src/**/cli.ts", "src/**/*-cli.ts", "src/**/bench/**", "src/**/crash/**", "scripts/**"],
    rules: { "no-console": "off" },
  },
);
