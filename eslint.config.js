// @ts-check
import js from "@eslint/js";
import { dirname, join, resolve, sep } from "node:path";
import tseslint from "typescript-eslint";

/**
 * Where an import from `file` to `target` must enter instead, or undefined when it may go straight there.
 * From their deepest common folder C, a target inside a subfolder S of C is reached only through C/S/index.ts:
 * so a folder's index.ts is its one door, and a subfolder's door only counts inside its parent. Only folders
 * under `root` have doors; what lies outside it (test support, say) is not checked.
 * @param {{ file: string, target: string, root: string }} paths absolute paths
 * @returns {string | undefined}
 */
export function doorFor({ file, target, root }) {
  if (!target.startsWith(root + sep)) return undefined;
  const from = dirname(file).split(sep);
  const to = target.split(sep);
  let common = 0;
  while (common < from.length && common < to.length - 1 && from[common] === to[common]) common++;
  const rest = to.slice(common);
  if (rest.length === 1 || (rest.length === 2 && rest[1] === "index.ts")) return undefined;
  return join(to.slice(0, common + 1).join(sep), "index.ts");
}

/**
 * The source folder whose doors a file keeps: a workspace package's own src/ (packages/NAME/src), else src/.
 * @param {string} file absolute path
 * @param {string} cwd the repository
 */
function sourceRoot(file, cwd) {
  const inPackage = file.slice(cwd.length + 1).match(/^packages\/[^/]+\/src\//);
  return inPackage ? join(cwd, inPackage[0].slice(0, -1)) : join(cwd, "src");
}

/**
 * A rule's visitors for every place a module is named: imports, re-exports, `import()`, and
 * `import("./x.js").T` in a type, so type-only imports count too.
 * @param {(source: any) => void} check called with the string literal naming the module
 * @returns {import("eslint").Rule.RuleListener}
 */
function everySource(check) {
  return {
    ImportDeclaration: (node) => check(node.source),
    ExportNamedDeclaration: (node) => check(node.source),
    ExportAllDeclaration: (node) => check(node.source),
    ImportExpression: (node) => check(node.source),
    /** @param {any} node */
    TSImportType: (node) => check(node.source ?? node.argument?.literal),
  };
}

/** @type {import("eslint").Rule.RuleModule} */
const folderDoors = {
  meta: {
    type: "problem",
    schema: [],
    messages: {
      around: "\"{{specifier}}\" goes around the door of {{folder}}: import it from {{door}} (export it there if it is public), because a folder is entered only through its index.ts.",
    },
  },
  create(context) {
    /** @param {any} source a string literal naming a module */
    const check = (source) => {
      const specifier = source?.value;
      if (typeof specifier !== "string" || !specifier.startsWith(".")) return;
      const target = resolve(dirname(context.filename), specifier.replace(/\.js$/, ".ts"));
      const door = doorFor({ file: context.filename, target, root: sourceRoot(context.filename, context.cwd) });
      if (!door) return;
      const shown = (/** @type {string} */ path) => path.slice(context.cwd.length + 1);
      context.report({ node: source, messageId: "around", data: { specifier, folder: `${shown(dirname(door))}/`, door: shown(door) } });
    };
    return everySource(check);
  },
};

/**
 * Whether `specifier`, imported by `file`, reaches into a workspace package: by its name, or by a path into
 * packages/. The packages (the Home Assistant simulator, the model fakes) are not in the add-on image.
 * @param {{ file: string, specifier: string, cwd: string }} where absolute file and working directory
 */
export function reachesPackage({ file, specifier, cwd }) {
  if (specifier.startsWith("@ha-agent/")) return true;
  if (!specifier.startsWith(".")) return false;
  return resolve(dirname(file), specifier).startsWith(join(cwd, "packages") + sep);
}

/** @type {import("eslint").Rule.RuleModule} */
const packagesApart = {
  meta: {
    type: "problem",
    schema: [],
    messages: {
      apart:
        "\"{{specifier}}\" is a workspace package, which the add-on image does not hold: src/ imports nothing from packages/. Demo mode loads the simulator and the model fakes at run time by a name in a variable (importPackage in src/shared, used by src/demo-home.ts and src/models/demo/gemini-port.ts); a test that needs them lives in test/.",
    },
  },
  create(context) {
    /** @param {any} source a string literal naming a module */
    const check = (source) => {
      const specifier = source?.value;
      if (typeof specifier !== "string" || !reachesPackage({ file: context.filename, specifier, cwd: context.cwd })) return;
      context.report({ node: source, messageId: "apart", data: { specifier } });
    };
    return everySource(check);
  },
};

const local = { rules: { "folder-doors": folderDoors, "packages-apart": packagesApart } };

export default tseslint.config(
  { ignores: ["dist/", "dist-bench/", "node_modules/", "coverage/", "data/", "packages/*/dist/"] },
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
    files: ["src/indexer/**/*.ts", "src/tools/**/*.ts", "src/ha/**/*.ts", "packages/ha-simulator/src/**/*.ts"],
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
    // Product code and the unit tests beside it enter each folder through its door, and stay apart from the
    // workspace packages: src/ is what the add-on image ships.
    files: ["src/**/*.ts"],
    plugins: { local },
    rules: { "local/folder-doors": "error", "local/packages-apart": "error" },
  },
  {
    // Each workspace package keeps doors of its own, inside its src/.
    files: ["packages/*/src/**/*.ts"],
    plugins: { local },
    rules: { "local/folder-doors": "error" },
  },
  {
    // Plain Node scripts that npm runs before anything is built.
    files: ["scripts/**/*.mjs"],
    languageOptions: { globals: { process: "readonly", console: "readonly" } },
  },
  {
    // Command-line entry points and benchmarks print to the terminal on purpose.
    files: ["src/**/cli.ts", "src/**/*-cli.ts", "packages/*/src/**/cli.ts", "packages/*/src/**/*-cli.ts", "bench/**", "scripts/**"],
    rules: { "no-console": "off" },
  },
);
