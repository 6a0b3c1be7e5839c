import { mkdtemp, mkdir, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
// @ts-expect-error: a plain ESM script without types, run by npm before anything is built.
import { isStale } from "./ensure-built.mjs";

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

async function project() {
  const root = await mkdtemp(join(tmpdir(), "ensure-built-"));
  dirs.push(root);
  await mkdir(join(root, "src", "deep"), { recursive: true });
  await mkdir(join(root, "dist"), { recursive: true });
  await writeFile(join(root, "src", "deep", "a.ts"), "x");
  await writeFile(join(root, "src", "a.test.ts"), "x");
  await writeFile(join(root, "dist", "main.js"), "x");
  return root;
}

const target = { marker: "dist/main.js", inputs: ["src", "tsconfig.json"] };
const at = (path: string, seconds: number) => utimes(path, seconds, seconds);

describe("ensure-built", () => {
  it("is current when the build is newer than every source", async () => {
    const root = await project();
    await at(join(root, "src", "deep", "a.ts"), 1_000);
    await at(join(root, "src", "deep"), 1_000);
    await at(join(root, "src"), 1_000);
    await at(join(root, "dist", "main.js"), 2_000);
    expect(isStale(target, root)).toBe(false);
  });

  it("is stale when a source is newer than the build, or the build is missing", async () => {
    const root = await project();
    for (const p of ["src", "src/deep", "src/a.test.ts"]) await at(join(root, p), 1_000);
    await at(join(root, "dist", "main.js"), 2_000);
    await at(join(root, "src", "deep", "a.ts"), 3_000);
    expect(isStale(target, root)).toBe(true);
    expect(isStale({ ...target, marker: "dist/nothing.js" }, root)).toBe(true);
  });

  it("ignores edited tests, which do not change what is built", async () => {
    const root = await project();
    for (const p of ["src", "src/deep", "src/deep/a.ts"]) await at(join(root, p), 1_000);
    await at(join(root, "dist", "main.js"), 2_000);
    await at(join(root, "src", "a.test.ts"), 3_000);
    expect(isStale(target, root)).toBe(false);
  });
});
