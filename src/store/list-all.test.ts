import { describe, expect, it } from "vitest";
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
