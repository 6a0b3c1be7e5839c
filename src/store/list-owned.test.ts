import { describe, expect, it } from "vitest";
import { useTempDirs } from "../../test/support/store/temp-dir.js";
import { openStore } from "./index.js";

const tempDir = useTempDirs();

describe("listing one owner's continuations across their sessions", () => {
  it("pages newest first with a cursor, and never shows another owner's", async () => {
    const store = await openStore({ dataDir: await tempDir() });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const session = await store.sessions.create({ owner: "alice" });
      for (let j = 0; j < 2; j++) {
        const { continuation } = await store.continuations.create("alice", session.id, { message: `m${i}${j}` });
        await store.continuations.update("alice", continuation.id, { status: "completed", response: { finalMessage: "ok" } });
        ids.push(continuation.id);
      }
    }
    const bobs = await store.sessions.create({ owner: "bob" });
    await store.continuations.create("bob", bobs.id, { message: "bob's" });

    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = store.continuations.listOwned("alice", { limit: 4, ...(cursor ? { cursor } : {}) });
      expect(page.continuations.length).toBeLessThanOrEqual(4);
      seen.push(...page.continuations.map((c) => c.continuationId));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual([...ids].sort().reverse());
    expect(store.continuations.listOwned("alice").continuations[0]).toMatchObject({ status: "completed" });
    expect(store.continuations.listOwned("carol")).toEqual({ continuations: [] });
    await store.close();
  });
});
