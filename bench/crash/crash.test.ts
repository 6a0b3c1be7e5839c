import { access, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { runCrashTest } from "./harness.js";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const workerPath = join(repoRoot, "dist-bench/bench/crash/worker.js");
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

describe("crash test (short run; npm run test:crash does 200 kills)", () => {
  it("keeps every promise after 15 SIGKILLs at random moments", { timeout: 60_000 }, async () => {
    await access(workerPath).catch(() => {
      throw new Error(`${workerPath} is missing; run "npm run build:bench" (npm test does) before this test.`);
    });
    const dataDir = await mkdtemp(join(tmpdir(), "ha-agent-crash-"));
    dirs.push(dataDir);
    const result = await runCrashTest({ workerPath, dataDir, kills: 15, seed: 4 });
    expect(result.violations).toEqual([]);
    expect(result.kills).toBe(15);
    // The run must have exercised the promises, not just started and died.
    expect(result.ackedDurableSteps).toBeGreaterThan(0);
    expect(result.finishedContinuations).toBeGreaterThan(0);
    expect(result.interruptedRecovered).toBeGreaterThan(0);
  });
});
