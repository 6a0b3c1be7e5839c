import { chmod, cp, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import pino from "pino";
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { readIndexMeta } from "../../src/indexer/index.js";
import { GrantLimitsSchema, GrantsFileSchema, openGrantStore } from "../../src/oauth/grants/index.js";
import { silentLogger } from "../../src/shared/index.js";
import { ContinuationRecordSchema, FORMAT_FILE, FORMAT_VERSION, openStore, SessionRecordSchema, type Store } from "../../src/store/index.js";
import { announcementStore } from "../../src/supervisor/index.js";
import { faultyFs } from "../support/store/faulty-fs.js";
import { useTempDirs } from "../support/store/temp-dir.js";

const tempDir = useTempDirs();
const fixture = (version: number) => join(import.meta.dirname, "..", "fixtures", `data-format-${version}`);
const DAY = 86_400_000;
// The fixtures were written at 2026-01-01 (scripts/write-data-fixture.mjs); their approvals expire 30 days later.
const clock = { now: () => 1767225600000 + 2 * DAY };

type Json = Record<string, unknown>;
const readJson = async (path: string) => JSON.parse(await readFile(path, "utf8")) as Json;

/** A logger whose lines the test reads. */
function recordingLogger() {
  const lines: Json[] = [];
  const logger = pino({ level: "debug" }, new Writable({ write: (chunk: Buffer, _enc, done) => (lines.push(JSON.parse(chunk.toString()) as Json), done()) }));
  return { logger, lines };
}

/** A copy of a fixture with the modes HA Agent gives its files (a git checkout gives them 0644 and 0755). */
async function copyOf(version: number): Promise<string> {
  const dataDir = await tempDir();
  await cp(fixture(version), dataDir, { recursive: true });
  for (const entry of await readdir(dataDir, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    await chmod(path, entry.isDirectory() ? 0o700 : 0o600);
  }
  return dataDir;
}

/**
 * Reads a fixture's every session, turn, log, artifact and the program's
 * other files through the real readers, and checks each against the
 * fixture's own bytes: what was written is what is read, field for field.
 */
async function expectWhole(store: Store, dataDir: string, version: number): Promise<void> {
  const source = fixture(version);
  const sessionIds = await readdir(join(source, "sessions"));
  expect(sessionIds).toHaveLength(3);
  const waiting: string[] = [];
  for (const sessionId of sessionIds) {
    const stored = SessionRecordSchema.parse({ ...(await readJson(join(source, "sessions", sessionId, "session.json"))), formatVersion: FORMAT_VERSION });
    const head = store.sessions.get(stored.owner, sessionId);
    const { memory, ...rest } = stored;
    expect(head).toMatchObject(rest);
    expect(await store.sessions.memory(stored.owner, sessionId)).toEqual(memory);
    for (const name of await readdir(join(source, "sessions", sessionId, "turns"))) {
      const raw = await readJson(join(source, "sessions", sessionId, "turns", name));
      const turn = ContinuationRecordSchema.parse({ ...raw, formatVersion: FORMAT_VERSION });
      expect(await store.continuations.get(stored.owner, turn.id)).toEqual(turn);
      // On disk too: the same fields, in the same order, only the format changed.
      expect(await readJson(join(dataDir, "sessions", sessionId, "turns", name))).toEqual({ ...raw, formatVersion: FORMAT_VERSION });
      if (turn.status === "input_required") {
        waiting.push(turn.approval!.call.kind);
        expect(turn.request.ownerIsAdmin).toBe(true);
      }
      // The step log is never rewritten.
      const log = `${turn.id}.log`;
      expect(await readFile(join(dataDir, "sessions", sessionId, "logs", log), "utf8")).toBe(await readFile(join(source, "sessions", sessionId, "logs", log), "utf8"));
      for (const ref of turn.artifacts) expect((await store.artifacts.get(stored.owner, ref.id))?.content.toString()).toBe(await readFile(join(source, "artifacts", ref.id), "utf8"));
    }
  }
  expect(waiting.sort()).toEqual(["automation_save", "call_service"]);
  expect(store.recovery.awaitingApproval).toHaveLength(2);
  expect(store.recovery.quarantined).toEqual([]);
  expect(store.recovery.problems).toEqual([]);
  const finished = (await Promise.all(sessionIds.map((id) => readJson(join(source, "sessions", id, "session.json"))))).find((s) => (s.stats as { turns: number }).turns === 1)!;
  expect(store.sessions.get(finished.owner as string, finished.id as string)?.stats).toMatchObject({ turns: 1, tokensIn: 1200, tokensOut: 80, tokensThinking: 30 });

  const grants = await openGrantStore({ ...GrantLimitsSchema.parse({}), dataDir, clock, logger: silentLogger });
  const [grant] = GrantsFileSchema.parse(await readJson(join(source, "oauth", "grants.json"))).grants;
  expect(grants.get(grant!.id)).toEqual(grant);
  expect(await announcementStore(dataDir).read()).toEqual(await readJson(join(source, "supervisor-discovery.json")));
  expect(await readIndexMeta(dataDir)).toEqual(await readJson(join(source, "index", "meta.json")));
  expect(await readFile(join(dataDir, "secrets", "request-state.key"))).toEqual(await readFile(join(source, "secrets", "request-state.key")));
}

describe("data written by each released format", () => {
  it("migrates the previous release's data (format 1) with one log line, and reads all of it, approvals and ownerIsAdmin included", async () => {
    const dataDir = await copyOf(1);
    const { logger, lines } = recordingLogger();
    const store = await openStore({ dataDir, clock, logger, appVersion: "test" });
    const migrated = lines.filter((l) => typeof l.msg === "string" && l.msg.startsWith("data format"));
    expect(migrated.map((l) => l.msg)).toEqual([expect.stringMatching(/^data format 1 → 2: 7 records rewritten \(3 sessions, 3 turns, 1 artifact metas\) in \d+ ms; format\.json says 2$/)]);
    expect(await readJson(join(dataDir, FORMAT_FILE))).toEqual({ formatVersion: FORMAT_VERSION, writtenBy: "test", updatedAt: clock.now() });
    await expectWhole(store, dataDir, 1);
    await store.close();
    // Read again: nothing left to migrate, nothing lost.
    const again = await openStore({ dataDir, clock, logger: silentLogger, appVersion: "test" });
    await expectWhole(again, dataDir, 1);
    await again.close();
  });

  it("reads this release's data (format 2) whole without migrating it", async () => {
    const dataDir = await copyOf(2);
    const { logger, lines } = recordingLogger();
    const store = await openStore({ dataDir, clock, logger });
    expect(lines.filter((l) => typeof l.msg === "string" && l.msg.startsWith("data format"))).toEqual([]);
    await expectWhole(store, dataDir, 2);
    await store.close();
  });

  it("finishes a migration that a crash cut short, from the format each record says", async () => {
    const dataDir = await copyOf(1);
    // The state a crash leaves: format.json names the target, and one record is already rewritten.
    await writeFile(join(dataDir, FORMAT_FILE), JSON.stringify({ formatVersion: 2, migratingFrom: 1, updatedAt: clock.now() }));
    const [sessionId] = await readdir(join(dataDir, "sessions"));
    const sessionFile = join(dataDir, "sessions", sessionId!, "session.json");
    await writeFile(sessionFile, `${JSON.stringify({ ...(await readJson(sessionFile)), formatVersion: 2 })}\n`);
    const { logger, lines } = recordingLogger();
    const store = await openStore({ dataDir, clock, logger });
    expect(lines.map((l) => l.msg)).toContainEqual(expect.stringMatching(/^data format 1 → 2 \(finishing a migration an earlier start began\): 6 records rewritten/));
    expect((await readJson(join(dataDir, FORMAT_FILE))).migratingFrom).toBeUndefined();
    await expectWhole(store, dataDir, 1);
    await store.close();
  });

  it("on a read-only disk reads no session of format 1 and says why, then migrates at the first writable start", async () => {
    const dataDir = await copyOf(1);
    const faulty = faultyFs();
    faulty.failWrites("EROFS");
    const readOnly = await openStore({ dataDir, clock, fs: faulty.fs });
    expect(readOnly.unwritable).toMatch(/read-only.*must first be migrated to format 2, which needs a writable directory/);
    expect(readOnly.recovery.sessions).toBe(0);
    await readOnly.close();
    const store = await openStore({ dataDir, clock });
    await expectWhole(store, dataDir, 1);
    await store.close();
  });
});
