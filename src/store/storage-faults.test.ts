import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { faultyFs } from "../../test/support/store/faulty-fs.js";
import { DataDirError } from "./data-dir.js";
import { openStore } from "./store.js";

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});
const temp = async () => {
  const d = await mkdtemp(join(tmpdir(), "store-faults-"));
  dirs.push(d);
  return d;
};

describe("storage faults", () => {
  it("opens a read-only data directory degraded, refuses writes with the reason, and names no path", async () => {
    const dir = await temp();
    const faulty = faultyFs();
    faulty.failWrites("EROFS");
    const store = await openStore({ dataDir: join(dir, "data"), fs: faulty.fs, settingNames: { dataDir: "DATA_DIR", maxSessions: "MAX_SESSIONS_PER_PRINCIPAL" } });
    expect(store.unwritable).toMatch(/DATA_DIR.*read-only/);
    const err = await store.sessions.create({ owner: "u" }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "store_unavailable" });
    expect((err as Error).message).not.toContain(dir);
    expect((err as Error).message).not.toContain("/data");
    await store.close();
  });

  it("leaves no empty session folder behind when a create fails, and says what to do without a path", async () => {
    const dir = await temp();
    const faulty = faultyFs();
    const store = await openStore({ dataDir: dir, fs: faulty.fs });
    faulty.failWrites("ENOSPC");
    const err = await store.sessions.create({ owner: "u" }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "storage_error", message: expect.stringContaining("disk is full") });
    expect((err as Error).message).not.toContain(dir);
    expect(await readdir(join(dir, "sessions"))).toEqual([]);
    faulty.failWrites(undefined);
    await store.close();
  });

  it("refuses a data directory that is a file, or on /proc, with one line that names the setting", async () => {
    const dir = await temp();
    const file = join(dir, "a-file");
    await writeFile(file, "x");
    await expect(openStore({ dataDir: file })).rejects.toThrow(DataDirError);
    await expect(openStore({ dataDir: join(file, "below") })).rejects.toThrow(/DATA_DIR .* is inside .*a-file, which is a file/);
    // Recursive mkdir never returns on /proc; the check must answer before trying it.
    const proc = await openStore({ dataDir: "/proc/ha-agent-test" }).catch((e: unknown) => e);
    expect(proc).toBeInstanceOf(DataDirError);
    expect((proc as Error).message).toMatch(/DATA_DIR \(\/proc\/ha-agent-test\) is on the kernel's proc file system/);
  });

  it("caps active sessions per owner with a message that names the option", async () => {
    const store = await openStore({ dataDir: await temp(), maxSessionsPerOwner: 2, settingNames: { dataDir: "DATA_DIR", maxSessions: "MAX_SESSIONS_PER_PRINCIPAL" } });
    const first = await store.sessions.create({ owner: "u" });
    await store.sessions.create({ owner: "u" });
    await expect(store.sessions.create({ owner: "u" })).rejects.toMatchObject({ code: "too_many_sessions", message: expect.stringContaining("MAX_SESSIONS_PER_PRINCIPAL") });
    // Another owner is not affected, and ending one frees a place.
    await store.sessions.create({ owner: "someone-else" });
    await store.sessions.end("u", first.id);
    await store.sessions.create({ owner: "u" });
    await store.close();
  });

  it("quarantines a session file too large to be one of ours instead of loading it at boot", async () => {
    const dir = await temp();
    let store = await openStore({ dataDir: dir });
    const s = await store.sessions.create({ owner: "u" });
    await store.close();
    await writeFile(join(dir, "sessions", s.id, "session.json"), JSON.stringify({ huge: "x".repeat(2 * 1024 * 1024) }));
    store = await openStore({ dataDir: dir });
    expect(store.sessions.get("u", s.id)).toBeUndefined();
    expect(store.recovery.quarantined.map((q) => q.reason).join(" ")).toMatch(/more than the 1048576 a record may have/);
    await store.close();
  });
});
