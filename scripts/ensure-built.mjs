#!/usr/bin/env node
// Builds the product (dist/) or the benchmarks (dist-bench/) only when a
// source is newer than the last build, so `npm start`, `npm run sim` and
// `npm run fsck` start at once when nothing changed. The workspace packages
// under packages/ (the simulator and the model fakes, which demo mode, the
// benchmarks and the tests load at run time) are brought up to date first.
// Usage: node scripts/ensure-built.mjs product|bench|packages [--quiet]
import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

const TARGETS = {
  product: { config: "tsconfig.build.json", marker: "dist/web/manifest.json", inputs: ["src", "web", "scripts/bundle-program.mjs", "scripts/build-web.mjs", "tsconfig.json", "tsconfig.build.json", "package-lock.json"], after: ["scripts/bundle-program.mjs", "scripts/build-web.mjs"] },
  bench: { config: "tsconfig.bench.json", marker: "dist-bench/bench/crash/run.js", inputs: ["src", "bench", "test/support", "tsconfig.json", "tsconfig.bench.json", "package-lock.json"] },
};

/** Newest modification time under `path`; tests do not change what is built. */
export function newestInput(path) {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return path.endsWith(".test.ts") ? 0 : stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestInput(join(path, entry)));
  return newest;
}

/** True when the marker is missing or older than any input. */
export function isStale(target, root = process.cwd()) {
  let built;
  try {
    built = statSync(join(root, target.marker)).mtimeMs;
  } catch {
    return true;
  }
  return target.inputs.some((input) => newestInput(join(root, input)) > built);
}

/** The workspace packages of a clone: each is built to its own dist/ when its sources changed. */
export function packageTargets(root = process.cwd()) {
  let names;
  try {
    names = readdirSync(join(root, "packages"));
  } catch {
    return [];
  }
  return names
    .filter((name) => {
      try {
        return statSync(join(root, "packages", name, "tsconfig.build.json")).isFile();
      } catch {
        return false;
      }
    })
    .map((name) => {
      const dir = join("packages", name);
      return { name, config: join(dir, "tsconfig.build.json"), marker: join(dir, "dist", "index.js"), inputs: [join(dir, "src"), join(dir, "tsconfig.build.json"), join(dir, "package.json"), "tsconfig.json"] };
    });
}

function build(target, tsc) {
  const result = spawnSync(process.execPath, [tsc, "-p", target.config], { stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

function main() {
  const [name, flag] = process.argv.slice(2);
  const target = name === "packages" ? undefined : TARGETS[name];
  if (!target && name !== "packages") {
    console.error(`usage: node scripts/ensure-built.mjs ${[...Object.keys(TARGETS), "packages"].join("|")} [--quiet]`);
    process.exit(2);
  }
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  for (const pkg of packageTargets()) {
    if (!isStale(pkg)) continue;
    if (flag !== "--quiet") console.error(`Building packages/${pkg.name} (sources changed since the last build)…`);
    build(pkg, tsc);
  }
  if (!target) return;
  // The benchmarks' compile reads the packages' sources too (tsconfig.json's "ha-agent-source" condition).
  if (name === "bench") target.inputs = [...target.inputs, ...packageTargets().map((pkg) => pkg.inputs[0])];
  if (!isStale(target)) return;
  if (flag !== "--quiet") console.error(`Building ${name === "product" ? "HA Agent" : "the benchmarks"} (sources changed since the last build)…`);
  build(target, tsc);
  // The program is bundled and then the console's page, whose manifest is the marker, so all are fresh.
  for (const step of target.after ?? []) {
    const status = spawnSync(process.execPath, [step], { stdio: "inherit" }).status;
    if (status !== 0) process.exit(status ?? 1);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) main();

export { TARGETS };
