import { spawn, type ChildProcess } from "node:child_process";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { systemClock } from "../shared/index.js";
import { faultyFs } from "../../test/support/store/faulty-fs.js";
import { useTempDirs } from "../../test/support/store/temp-dir.js";
import { DataDirInUseError, LOCK_FILE, lockDataDir, type LockRecord } from "./data-lock.js";
import { nodeStoreFs } from "./fs.js";
import { systemProcessProbe } from "./process-probe.js";
import { openStore } from "./store.js";

const tempDir = useTempDirs();
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGKILL");
      await new Promise((resolve) => child.once("exit", resolve));
    }
  }
});

/** A real process that idles until killed. */
async function liveProcess(): Promise<ChildProcess & { pid: number }> {
  const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 60_000)"], { stdio: "ignore" });
  children.push(child);
  await new Promise((resolve, reject) => child.once("spawn", resolve).once("error", reject));
  return child as ChildProcess & { pid: number };
}

async function killHard(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  // The exit event comes once the child is reaped: gone, not a zombie.
  await exited;
}

/** Writes the lock file `pid` would write, with that process's real identity. */
async function lockAs(dataDir: string, pid: number, extra: Partial<LockRecord> = {}): Promise<void> {
  const record: LockRecord = { pid, bootedAt: Date.UTC(2026, 0, 2, 3, 4, 5), host: "elsewhere", ...systemProcessProbe().identify(pid), lockId: "theirs", ...extra };
  await writeFile(join(dataDir, LOCK_FILE), `${JSON.stringify(record)}\n`);
}

const lockFile = async (dataDir: string) => JSON.parse(await readFile(join(dataDir, LOCK_FILE), "utf8")) as LockRecord;
const take = (dataDir: string, probe = systemProcessProbe()) => lockDataDir({ fs: nodeStoreFs, dataDir, clock: systemClock, probe, advice: "Stop it first." });

describe("the data directory lock", () => {
  it("on a fresh directory, writes this process's pid and start time, and removes the file on release", async () => {
    const dataDir = await tempDir();
    const before = Date.now();
    const lock = await take(dataDir);
    const onDisk = await lockFile(dataDir);
    expect(onDisk).toEqual(lock.record);
    expect(onDisk.pid).toBe(process.pid);
    expect(onDisk.bootedAt).toBeGreaterThanOrEqual(before);
    await lock.release();
    expect(await readdir(dataDir)).toEqual([]);
  });

  it("refuses while a live process holds it, naming its pid and since when; takes it once that process was killed", async () => {
    const dataDir = await tempDir();
    const holder = await liveProcess();
    await lockAs(dataDir, holder.pid);
    const refused = await take(dataDir).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DataDirInUseError);
    expect((refused as Error).message).toContain(`pid ${holder.pid}`);
    expect((refused as Error).message).toContain("2026-01-02T03:04:05.000Z");
    expect((refused as Error).message).toContain("Stop it first.");
    expect((await lockFile(dataDir)).lockId).toBe("theirs");

    await killHard(holder);
    const lock = await take(dataDir);
    expect((await lockFile(dataDir)).pid).toBe(process.pid);
    await lock.release();
  });

  it("takes over a pid that another process reuses: another start time, or another boot", async () => {
    const dataDir = await tempDir();
    const other = await liveProcess();
    const identity = systemProcessProbe().identify(other.pid);
    // Without /proc a live pid cannot be told from its earlier owner, and the lock is refused instead.
    expect(identity?.startTicks, "this test needs Linux's /proc").toBeDefined();
    await lockAs(dataDir, other.pid, { startTicks: String(Number(identity!.startTicks) - 1) });
    await (await take(dataDir)).release();
    await lockAs(dataDir, other.pid, { bootId: "an-earlier-boot" });
    await (await take(dataDir)).release();
  });

  it("takes over a lock naming its own pid: an earlier boot of this container, whose node had the same pid", async () => {
    const dataDir = await tempDir();
    await lockAs(dataDir, process.pid, { startTicks: "1" });
    const lock = await take(dataDir);
    expect((await lockFile(dataDir)).lockId).toBe(lock.record.lockId);
    await lock.release();
  });

  it("takes over a torn or empty lock file", async () => {
    for (const text of ['{"pid":12', "", "not json\n", '{"pid":"x"}\n']) {
      const dataDir = await tempDir();
      await writeFile(join(dataDir, LOCK_FILE), text);
      const lock = await take(dataDir);
      expect((await lockFile(dataDir)).lockId, JSON.stringify(text)).toBe(lock.record.lockId);
      await lock.release();
    }
  });

  it("lets exactly one of two takers racing for a stale lock win", async () => {
    for (let round = 0; round < 20; round++) {
      const dataDir = await tempDir();
      const dead = await liveProcess();
      await lockAs(dataDir, dead.pid);
      await killHard(dead);
      // Two live processes: this one and a child, each playing a starter.
      const rival = await liveProcess();
      const results = await Promise.allSettled([take(dataDir), take(dataDir, systemProcessProbe(rival.pid))]);
      const won = results.filter((r) => r.status === "fulfilled");
      expect(won, `round ${round}`).toHaveLength(1);
      const lost = results.find((r) => r.status === "rejected");
      expect(lost?.reason).toBeInstanceOf(DataDirInUseError);
      expect((await lockFile(dataDir)).lockId).toBe(won[0]!.value.record.lockId);
      // Nothing but the lock is left: no marker of the break, no temp file.
      expect(await readdir(dataDir)).toEqual([LOCK_FILE]);
    }
  });

  it("keeps a rival's fresh lock when it judged the lock stale just before the rival took it over", async () => {
    const dataDir = await tempDir();
    const dead = await liveProcess();
    await lockAs(dataDir, dead.pid);
    await killHard(dead);
    const rival = await liveProcess();
    let rivalDone!: () => void;
    const rivalTookIt = new Promise<void>((resolve) => (rivalDone = resolve));
    // The slow taker reads the stale lock, then acts only after the rival has finished taking it.
    let slowReads = 0;
    let slowHasRead!: () => void;
    const slowJudged = new Promise<void>((resolve) => (slowHasRead = resolve));
    const slowFs = {
      ...nodeStoreFs,
      readFile: async (path: string) => {
        const data = await nodeStoreFs.readFile(path);
        if (path.endsWith(LOCK_FILE) && slowReads++ === 0) {
          slowHasRead();
          await rivalTookIt;
        }
        return data;
      },
    };
    const slow = lockDataDir({ fs: slowFs, dataDir, clock: systemClock, probe: systemProcessProbe() }).catch((e: unknown) => e);
    // The rival starts only once the slow taker holds the stale content: started earlier, it could take
    // the lock before the slow one even tried, and the slow one would then rightly win a free directory.
    await slowJudged;
    const fast = await take(dataDir, systemProcessProbe(rival.pid));
    rivalDone();
    expect(await slow).toBeInstanceOf(DataDirInUseError);
    expect((await lockFile(dataDir)).lockId).toBe(fast.record.lockId);
  });

  it("is not blocked by the break marker of a taker killed mid-break", async () => {
    const dataDir = await tempDir();
    const dead = await liveProcess();
    await lockAs(dataDir, dead.pid);
    await writeFile(join(dataDir, `${LOCK_FILE}.break`), JSON.stringify({ pid: dead.pid, bootedAt: 1, lockId: "breaker" }));
    await killHard(dead);
    const lock = await take(dataDir);
    expect(await readdir(dataDir)).toEqual([LOCK_FILE]);
    await lock.release();
  });

  it("does not remove on release a lock that was taken over since", async () => {
    const dataDir = await tempDir();
    const first = await take(dataDir);
    // The same pid takes over: a store opened again in this process.
    const second = await take(dataDir);
    await first.release();
    expect((await lockFile(dataDir)).lockId).toBe(second.record.lockId);
    await second.release();
  });
});

describe("the store and the lock", () => {
  it("holds the lock while open and releases it on close", async () => {
    const dataDir = await tempDir();
    const store = await openStore({ dataDir });
    expect((await lockFile(dataDir)).pid).toBe(process.pid);
    await store.close();
    expect(await readdir(dataDir)).not.toContain(LOCK_FILE);
  });

  it("refuses to open, and writes nothing, while another live process holds the directory", async () => {
    const dataDir = await tempDir();
    const holder = await liveProcess();
    await lockAs(dataDir, holder.pid);
    const err = await openStore({ dataDir, settingNames: { dataDir: "DATA_DIR", maxSessions: "MAX_SESSIONS_PER_PRINCIPAL" } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DataDirInUseError);
    expect((err as Error).message).toMatch(new RegExp(`pid ${holder.pid}.*DATA_DIR`));
    // Boot recovery never ran: it would have created the store's folders.
    expect(await readdir(dataDir)).toEqual([LOCK_FILE]);
  });

  it("on a read-only directory starts degraded without a lock, unless a live holder is named there", async () => {
    const dataDir = await tempDir();
    const faulty = faultyFs();
    faulty.failWrites("EROFS");
    const store = await openStore({ dataDir, fs: faulty.fs });
    expect(store.unwritable).toMatch(/read-only/);
    await store.close();
    expect(await readdir(dataDir)).toEqual([]);

    const holder = await liveProcess();
    await lockAs(dataDir, holder.pid);
    await expect(openStore({ dataDir, fs: faulty.fs })).rejects.toBeInstanceOf(DataDirInUseError);
    await killHard(holder);
    const degraded = await openStore({ dataDir, fs: faulty.fs });
    expect(degraded.unwritable).toMatch(/read-only/);
    await degraded.close();
  });
});
