import { spawnSync } from "node:child_process";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { MAIN, runProgram, type Program } from "../support/program.js";

const FSCK = join(dirname(MAIN), "store", "fsck-cli.js");

describe("one HA Agent per data directory", () => {
  let dataDir: string;
  const running: Program[] = [];
  const start = () => {
    const program = runProgram({ DATA_DIR: dataDir, MCP_PORT: "0", STATUS_PORT: "0" });
    running.push(program);
    return program;
  };
  const fsck = (...args: string[]) => spawnSync(process.execPath, [FSCK, "--data", dataDir, ...args], { encoding: "utf8" });

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "ha-agent-one-per-dir-"));
  });
  afterEach(async () => {
    for (const p of running.splice(0)) {
      if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill("SIGKILL");
      await p.exited;
    }
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it("stops a second instance with exit 2 and one line naming the first; fsck refuses while the first runs", async () => {
    const first = start();
    await first.waitFor(/HA Agent is ready/);
    const second = start();
    const { code } = await second.exited;
    expect(code).toBe(2);
    const err = second.stderr().trim();
    expect(err.split("\n"), err).toHaveLength(1);
    expect(err).toMatch(new RegExp(`^Another HA Agent \\(pid ${first.child.pid}\\b.*running since \\d{4}-\\d\\d-\\d\\dT`));
    expect(err).toMatch(/DATA_DIR/);
    expect(second.stdout()).not.toMatch(/MCP endpoint/);

    for (const args of [[], ["--repair"]]) {
      const checked = fsck(...args);
      expect(checked.status, checked.stdout + checked.stderr).toBe(3);
      expect(checked.stderr).toMatch(new RegExp(`fsck did not run: .*pid ${first.child.pid}.*Stop HA Agent before running fsck`));
    }

    // The first one still runs, and releases the directory when it stops.
    expect(first.child.exitCode).toBeNull();
    first.child.kill("SIGTERM");
    expect((await first.exited).code).toBe(0);
    expect(await readdir(dataDir)).not.toContain("ha-agent.lock");
    expect(fsck().status).toBe(0);
  }, 60_000);

  it("starts after an instance on the same directory was killed with SIGKILL", async () => {
    const killed = start();
    await killed.waitFor(/HA Agent is ready/);
    killed.child.kill("SIGKILL");
    await killed.exited;
    expect(await readdir(dataDir)).toContain("ha-agent.lock");

    const next = start();
    await next.waitFor(/HA Agent is ready/);
    next.child.kill("SIGTERM");
    expect((await next.exited).code).toBe(0);
  }, 60_000);
});
