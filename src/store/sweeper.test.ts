import { access, readdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { manualClock } from "../shared/index.js";
import { openStore } from "./index.js";
import { useTempDirs } from "./test-support/temp-dir.js";

const tempDir = useTempDirs();
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const exists = (p: string) => access(p).then(() => true, () => false);

describe("sweeper", () => {
  it("removes finished continuations after retention, expires idle sessions and never touches running work", async () => {
    const dataDir = await tempDir();
    const clock = manualClock();
    const store = await openStore({ dataDir, clock, sessionIdleMs: 7 * DAY, continuationRetentionMs: DAY });
    const idle = await store.sessions.create({ owner: "u" });
    const busy = await store.sessions.create({ owner: "u" });
    const done = await store.continuations.create("u", idle.id, { message: "a", idempotencyKey: "k" });
    const ref = await store.artifacts.put("u", done.continuation.id, { content: "big output", mediaType: "text/plain" });
    await store.steps.append("u", done.continuation.id, { type: "tool_result", detail: "see artifact", artifact: ref });
    const stray = await store.artifacts.put("u", done.continuation.id, { content: "never referenced", mediaType: "text/plain" });
    await store.continuations.update("u", done.continuation.id, { status: "completed", response: { finalMessage: "ok" } });
    const running = await store.continuations.create("u", busy.id, { message: "b" });
    await store.continuations.update("u", running.continuation.id, { status: "running" });

    clock.advance(HOUR);
    let report = await store.sweep();
    expect(report).toMatchObject({ removedContinuations: 0, expiredSessions: 0, removedArtifacts: 1 });
    expect(await exists(join(dataDir, "artifacts", ref.id))).toBe(true);
    expect(await exists(join(dataDir, "artifacts", stray.id))).toBe(false);

    clock.advance(DAY);
    report = await store.sweep();
    expect(report).toMatchObject({ removedContinuations: 1, expiredSessions: 0, removedArtifacts: 1 });
    expect(await readdir(join(dataDir, "sessions", idle.id, "turns"))).toEqual([]);
    expect(store.sessions.get("u", idle.id)?.idempotencyKeys).toEqual([]);

    clock.advance(7 * DAY);
    report = await store.sweep();
    expect(report.expiredSessions).toBe(1);
    expect(store.sessions.get("u", idle.id)?.status).toBe("expired");
    expect(store.sessions.get("u", busy.id)?.status).toBe("active");
    expect((await store.continuations.get("u", running.continuation.id))?.status).toBe("running");

    clock.advance(8 * DAY);
    report = await store.sweep();
    expect(report.removedSessions).toBe(1);
    expect(store.sessions.get("u", idle.id)).toBeUndefined();
    expect(await exists(join(dataDir, "sessions", idle.id))).toBe(false);
    expect(store.sessions.get("u", busy.id)?.status).toBe("active");
    await store.close();
  });
});
