import { spawnSync } from "node:child_process";
import { appendFile, mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runFsck } from "./fsck.js";
import { openStore } from "./index.js";
import { useTempDirs } from "../../test/support/store/temp-dir.js";

const tempDir = useTempDirs();
const cli = join(resolve(dirname(fileURLToPath(import.meta.url)), "../.."), "dist/store/fsck-cli.js");

async function damagedDataDir(): Promise<{ dataDir: string; sessionId: string; doneId: string }> {
  const dataDir = await tempDir();
  const store = await openStore({ dataDir });
  const s = await store.sessions.create({ owner: "u" });
  const done = await store.continuations.create("u", s.id, { message: "a" });
  await store.steps.append("u", done.continuation.id, { type: "plan", detail: 1 });
  await store.continuations.update("u", done.continuation.id, { status: "completed", response: { finalMessage: "ok" } });
  const open = await store.continuations.create("u", s.id, { message: "b" });
  await store.continuations.update("u", open.continuation.id, { status: "running" });
  const other = await store.sessions.create({ owner: "u" });
  // Closed, as fsck asks: it refuses a data directory that a running store holds.
  await store.close();
  await appendFile(join(dataDir, "sessions", s.id, "logs", `${done.continuation.id}.log`), '{"seq":2,"ts":');
  await mkdir(join(dataDir, "tmp"), { recursive: true });
  await writeFile(join(dataDir, "tmp", "x.tmp"), "");
  await writeFile(join(dataDir, "sessions", other.id, "session.json"), "{not json");
  return { dataDir, sessionId: s.id, doneId: done.continuation.id };
}

describe("fsck", () => {
  it("reports every problem in plain words without changing anything", async () => {
    const { dataDir, sessionId } = await damagedDataDir();
    const before = await readFile(join(dataDir, "sessions", sessionId, "session.json"), "utf8");
    // Given as a user might type it, with a trailing slash.
    const { findings, report } = await runFsck({ dataDir: `${dataDir}/`, repair: false });
    const text = findings.join("\n");
    expect(text).toMatch(/torn line/);
    expect(text).toMatch(/session\.json is damaged \(not valid JSON/);
    expect(text).toMatch(/was left pending/);
    expect(text).toMatch(/1 leftover temp file/);
    expect(report.quarantined).toEqual([expect.objectContaining({ path: expect.stringMatching(/^sessions\/[0-9A-Z]{26}\/session\.json$/), movedTo: "" })]);
    expect(await readFile(join(dataDir, "sessions", sessionId, "session.json"), "utf8")).toBe(before);
    expect(await readdir(join(dataDir, "tmp"))).toEqual(["x.tmp"]);
  });

  it("repairs what boot recovery would, after which a second check is clean", async () => {
    const { dataDir, sessionId, doneId } = await damagedDataDir();
    await runFsck({ dataDir, repair: true });
    const again = await runFsck({ dataDir, repair: false });
    expect(again.findings.filter((f) => !f.includes("has no session.json"))).toEqual([]);
    const log = await readFile(join(dataDir, "sessions", sessionId, "logs", `${doneId}.log`), "utf8");
    // The step, then the store's final line; the torn tail is gone.
    expect(log.trim().split("\n").map((l) => (JSON.parse(l) as { type: string }).type)).toEqual(["plan", "final"]);
    expect((await readdir(join(dataDir, "quarantine"))).some((f) => f.endsWith("session.json"))).toBe(true);
  });

  it("answers with exit codes 0 clean, 1 problems, 2 bad usage", async () => {
    const clean = await tempDir();
    const run = (args: string[]) => spawnSync(process.execPath, [cli, ...args], { encoding: "utf8" });
    expect(run([]).status).toBe(2);
    const help = run(["--help"]);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^usage: npm run fsck -- --data DIR \[--repair\]/);
    expect(help.stdout).toContain("--repair");
    expect(help.stdout).toContain("Exit codes");
    expect(run(["--data", join(clean, "missing")]).status).toBe(2);
    const ok = run(["--data", clean]);
    expect(ok.stdout).toMatch(/No problems found/);
    expect(ok.status).toBe(0);
    const { dataDir } = await damagedDataDir();
    const bad = run(["--data", dataDir]);
    expect(bad.status).toBe(1);
    expect(bad.stdout).toMatch(/--repair/);
    expect(bad.stdout + bad.stderr).not.toMatch(/\n\s+at /);
  });
});
