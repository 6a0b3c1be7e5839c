import { execFile } from "node:child_process";
import { access } from "node:fs/promises";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const script = join(resolve(import.meta.dirname, "..", ".."), "dist-bench", "bench", "crash-agent", "run.js");

describe("agent crash test (short run; npm run test:crash-agent does 60 kills)", () => {
  it("never repeats an action or a journaled model call across 6 SIGKILLs, and finishes every turn", async () => {
    await access(script).catch(() => {
      throw new Error(`${script} is missing; run "npm run build:bench" (npm test does) before this test.`);
    });
    const { code, out } = await new Promise<{ code: number; out: string }>((done) =>
      execFile(process.execPath, [script, "--kills", "6", "--seed", "5"], { encoding: "utf8", timeout: 120_000 }, (err, stdout, stderr) =>
        done({ code: err ? 1 : 0, out: stdout + stderr }),
      ),
    );
    expect(out).toContain("1 passed, 0 failed");
    expect(code, out).toBe(0);
  }, 150_000);
});
