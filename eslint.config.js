// @ts-check
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/", "dist-bench/", "node_modules/", "coverage/", "data/"] },
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
    // These folders key lookups by user text and Home Assistant data (entity ids, names, attribute and service
    // names). A plain object answers "constructor" or "__proto__" from Object.prototype, and assigning
    // "__proto__" replaces its prototype: use a Map, or dict()/own() from src/shared.
    files: ["src/indexer/**/*.ts", "src/tools/**/*.ts", "src/simulator/**/*.ts", "src/ha/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "BinaryExpression[operator='in'][left.type!='Literal']",
          message: "`key in object` also finds Object.prototype members (\"constructor\" in {} is true): use Object.hasOwn(object, key), own(), or a Map.",
        },
        {
          selector:
            "VariableDeclarator[id.typeAnnotation.typeAnnotation.typeName.name='Record'][id.typeAnnotation.typeAnnotation.typeArguments.params.0.type='TSStringKeyword'][init.type='ObjectExpression']",
          message: "A Record<string, …> object literal inherits Object.prototype: use a Map for a lookup table, or dict() from src/shared for data keyed by names.",
        },
      ],
    },
  },
  {
    // Plain Node scripts that npm runs before anything is built.
    files: ["scripts/**/*.mjs"],
    languageOptions: { globals: { process: "readonly", console: "readonly" } },
  },
  {
    // Command-line entry points and benchmarks print to the terminal on purpose.
    files: ["src/**/cli.ts", "src/**/*-cli.ts", "bench/**", "scripts/**"],
    rules: { "no-console": "off" },
  },
);
