import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openStore } from "../../store/index.js";
import { ToolRegistry } from "../registry.js";
import { createSessionTools } from "./index.js";

// The example of docs/storage.md ("A minimal data directory by hand"), written
// as a person would, plus a damaged turn listed as open.
const SESSION = "01JD0000000000000000000001";
const RUNNING = "01JD0000000000000000000002";
const BROKEN = "01JD0000000000000000000003";
const T = 1767225600000;

let dataDir = "";
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe("a data directory crafted by hand from docs/storage.md", () => {
  it("boots: the running turn shows as interrupted in get_session and the corrupt file sits in quarantine", async () => {
    dataDir = await mkdtemp(join(tmpdir(), "ha-agent-handmade-"));
    const dir = join(dataDir, "sessions", SESSION);
    await mkdir(join(dir, "turns"), { recursive: true });
    await mkdir(join(dir, "logs"), { recursive: true });
    await writeFile(
      join(dir, "session.json"),
      JSON.stringify(
        {
          formatVersion: 1,
          id: SESSION,
          owner: "user-1",
          version: 1,
          status: "active",
          createdAt: T,
          updatedAt: T,
          lastActivityAt: T,
          messages: [{ continuationId: RUNNING, status: "running", createdAt: T, updatedAt: T, preview: "why did the lights flicker?" }],
          openContinuations: [RUNNING, BROKEN],
        },
        null,
        2,
      ),
    );
    await writeFile(
      join(dir, "turns", `${RUNNING}.json`),
      JSON.stringify({ formatVersion: 1, id: RUNNING, sessionId: SESSION, owner: "user-1", status: "running", createdAt: T, updatedAt: T, request: { message: "why did the lights flicker?" } }),
    );
    await writeFile(join(dir, "turns", `${BROKEN}.json`), '{"formatVersion": 1, "id": ');
    await writeFile(join(dir, "logs", `${RUNNING}.log`), `{"seq":1,"ts":${T},"type":"plan","detail":"look at the bedroom lights"}\n`);

    const store = await openStore({ dataDir });
    const registry = new ToolRegistry();
    for (const tool of createSessionTools({ store })) registry.register(tool);
    const ctx = { principal: { id: "user-1", name: "One", kind: "user" as const, isAdmin: false }, signal: new AbortController().signal, progress: async () => undefined };
    const got = await registry.call("get_session", { session_id: SESSION }, ctx);
    expect(got.ok).toBe(true);
    if (!got.ok) return;
    expect((got.value.session as { continuations: unknown[] }).continuations).toEqual([expect.objectContaining({ continuation_id: RUNNING, status: "interrupted" })]);
    expect((await store.continuations.get("user-1", RUNNING))?.interrupted?.lastDurableSeq).toBe(1);
    const quarantined = await readdir(join(dataDir, "quarantine"));
    expect(quarantined.some((f) => f.endsWith(`${BROKEN}.json`))).toBe(true);
    expect(quarantined.some((f) => f.endsWith(`${BROKEN}.json.why.txt`))).toBe(true);
    expect(store.recovery.quarantined).toEqual([expect.objectContaining({ path: `sessions/${SESSION}/turns/${BROKEN}.json` })]);
    await store.close();
  });
});
