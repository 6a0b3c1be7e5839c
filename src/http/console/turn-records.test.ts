import { describe, expect, it } from "vitest";
import type { ContinuationRecord, SessionHead, Store } from "../../store/index.js";
import { createTurnRecords } from "./turn-records.js";

const NOW = 1_800_000_000_000;
const ID = (n: number) => `01J0000000000000000000000${n}`;

/** A store of one session whose turns a test can remove, as the sweeper does. */
function fakeStore(count: number) {
  const refs = Array.from({ length: count }, (_, i) => ({ continuationId: ID(i), status: "completed" as const, createdAt: NOW - 1_000, updatedAt: NOW - 1_000, preview: "" }));
  const session = { id: "S", owner: "alice", messages: refs } as unknown as SessionHead;
  let reads = 0;
  const store = {
    sessions: { listAll: () => ({ sessions: [session] }) },
    continuations: {
      get: async (_owner: string, id: string) => {
        reads += 1;
        return { id, status: "completed", createdAt: NOW - 1_000 } as unknown as ContinuationRecord;
      },
    },
  } as unknown as Pick<Store, "sessions" | "continuations">;
  return { store, refs, reads: () => reads };
}

describe("the console's turn records", () => {
  it("reads a final record once, and lets go of it once its session no longer lists it", async () => {
    const { store, refs, reads } = fakeStore(3);
    const turns = createTurnRecords({ store, now: () => NOW });
    expect(await turns.recent()).toHaveLength(3);
    expect(await turns.recent("alice")).toHaveLength(3);
    expect(reads()).toBe(3);
    expect(turns.cachedFinals).toBe(3);

    refs.splice(0, 2);
    // Another owner's view still prunes what no session lists any more.
    expect(await turns.recent("bob")).toHaveLength(0);
    expect(turns.cachedFinals).toBe(1);
  });
});
