import { describe, expect, it } from "vitest";
import { manualClock } from "../shared/index.js";
import { useTempDirs } from "../../test/support/store/temp-dir.js";
import { openStore } from "./index.js";

const tempDir = useTempDirs();

describe("listing every owner's sessions for an administrator", () => {
  it("pages all owners' sessions newest first, while list still shows one owner's", async () => {
    const store = await openStore({ dataDir: await tempDir() });
    const ids: string[] = [];
    for (const owner of ["alice", "bob", "alice", "carol"]) ids.push((await store.sessions.create({ owner })).id);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = store.sessions.listAll({ limit: 3, ...(cursor ? { cursor } : {}) });
      seen.push(...page.sessions.map((s) => s.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());
    expect(store.sessions.listAll().sessions.map((s) => s.owner)).toEqual(["carol", "alice", "bob", "alice"]);
    expect(store.sessions.list("alice").sessions.map((s) => s.id)).toEqual([ids[2], ids[0]]);
    await store.close();
  });
});

describe("session order after the clock moved", () => {
  it("lists by created_at, newest first, ties by id, and pages through in that order", async () => {
    const clock = manualClock(Date.UTC(2026, 5, 1));
    const store = await openStore({ dataDir: await tempDir(), clock });
    const first = await store.sessions.create({ owner: "alice" });
    // The clock jumps a day back (NTP, a reboot without a real-time clock): the next ids sort before the first one.
    clock.advance(-86_400_000);
    const second = await store.sessions.create({ owner: "alice" });
    const third = await store.sessions.create({ owner: "alice" });
    clock.advance(2 * 86_400_000);
    const fourth = await store.sessions.create({ owner: "alice" });
    const expected = [fourth.id, first.id, third.id, second.id];
    expect(store.sessions.list("alice").sessions.map((s) => s.id)).toEqual(expected);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = store.sessions.list("alice", { limit: 1, ...(cursor ? { cursor } : {}) });
      seen.push(...page.sessions.map((s) => s.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(expected);
    await store.close();
  });
});
