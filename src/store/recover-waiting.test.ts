import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openStore } from "./index.js";
import { useTempDirs } from "../../test/support/store/temp-dir.js";

const tempDir = useTempDirs();
const OWNER = "user-1";
const APPROVAL = { id: "01ARZ3NDEKTSV4RRFFQ69G5FAV", step: 1, index: 0, call: { kind: "call_service" as const, domain: "lock", service: "unlock", targets: ["lock.front_door"], data: {} }, targetStates: [], why: "approval_required" as const, requestedAt: 1, expiresAt: Date.now() + 3_600_000 };

describe("boot recovery of a turn that waits for a person", () => {
  it("keeps it open across two restarts, also when the first found it missing from session.json", async () => {
    const dataDir = await tempDir();
    const store = await openStore({ dataDir });
    const session = await store.sessions.create({ owner: OWNER });
    const sessionFile = join(dataDir, "sessions", session.id, "session.json");
    // Creating a turn writes only the turn's file: session.json learns of it with its next write.
    const before = await readFile(sessionFile, "utf8");
    const { continuation } = await store.continuations.create(OWNER, session.id, { message: "unlock the front door" });
    await store.continuations.update(OWNER, continuation.id, { status: "input_required", approval: APPROVAL });
    // The program dies after the turn's file says it waits, before session.json's write lands.
    await writeFile(sessionFile, before);

    const first = await openStore({ dataDir });
    expect(first.recovery.awaitingApproval.map((w) => w.continuationId)).toEqual([continuation.id]);
    // It dies again before anyone answers.
    const second = await openStore({ dataDir });
    expect(second.recovery.awaitingApproval.map((w) => w.continuationId)).toEqual([continuation.id]);
    expect(second.sessions.get(OWNER, session.id)?.openContinuations).toEqual([continuation.id]);
    // The answer can still be journaled.
    await second.steps.append(OWNER, continuation.id, { type: "approval_decision", detail: { approvalId: APPROVAL.id, decision: "approve", at: 2 } }, { durable: true });
    await second.close();
    await first.close().catch(() => undefined);
    await store.close().catch(() => undefined);
  });
});
