import { describe, expect, it } from "vitest";
import { ContinuationRecordSchema, FORMAT_VERSION } from "../../store/index.js";
import { ContinuationResultWire, continuationResult } from "./wire.js";

const record = (status: string) =>
  ContinuationRecordSchema.parse({
    formatVersion: FORMAT_VERSION,
    id: "01JD0000000000000000000001",
    sessionId: "01JD0000000000000000000002",
    owner: "alice",
    status,
    createdAt: 1,
    updatedAt: 2,
    request: { message: "hi" },
  });

describe("continuationResult", () => {
  it("tells the caller of an interrupted turn to resume or retry it, in the text and in `next`", () => {
    const result = ContinuationResultWire.parse(continuationResult(record("interrupted"), "Step 2: thinking"));
    expect(result.next).toBe("resume");
    expect(result.progress).toContain("interrupted");
    expect(result.progress).toContain("ha_agent_resume");
    expect(result.progress).toContain("ha_agent_retry");
    expect(result.progress).not.toContain("ha_agent_await_continuation");
  });

  it("tells the caller of a running turn to await it again, and says nothing more of a final one", () => {
    expect(continuationResult(record("running"))).toMatchObject({ next: "await", progress: expect.stringContaining("ha_agent_await_continuation") });
    const done = continuationResult(record("completed"));
    expect(done.next).toBeUndefined();
    expect(done.progress).toBeUndefined();
  });
});
