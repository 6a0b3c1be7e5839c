import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { isFinalStatus } from "../../src/store/continuations.js";
import { openStore } from "../../src/store/index.js";
import type { RecoveryReport } from "../../src/store/recovery-report.js";
import { CRASH_OWNER, type WorkerFacts } from "./protocol.js";

async function walk(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const out: string[] = [];
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await walk(path)));
    else out.push(path);
  }
  return out;
}

/**
 * Runs boot recovery on the data dir, then checks the crash-test promises.
 * Returns every broken promise in words; empty means all held.
 */
export async function checkAfterCrash(dataDir: string, facts: WorkerFacts): Promise<{ violations: string[]; recovery: RecoveryReport }> {
  const violations: string[] = [];
  const store = await openStore({ dataDir });
  try {
    for (const file of await walk(dataDir)) {
      if (file.startsWith(join(dataDir, "quarantine"))) {
        if (!file.endsWith(".why.txt") && !(await readFile(`${file}.why.txt`, "utf8").catch(() => ""))) violations.push(`${file} is in quarantine without a note of why`);
        continue;
      }
      if (!file.endsWith(".json")) continue;
      try {
        JSON.parse(await readFile(file, "utf8"));
      } catch {
        violations.push(`${file} does not parse and is not in quarantine`);
      }
    }

    const sessions = store.sessions.list(CRASH_OWNER, { limit: 100 });
    let cursor = sessions.nextCursor;
    const all = [...sessions.sessions];
    while (cursor) {
      const page = store.sessions.list(CRASH_OWNER, { limit: 100, cursor });
      all.push(...page.sessions);
      cursor = page.nextCursor;
    }
    const doneOrder = [...facts.done.keys()];
    const doneIndex = new Map(doneOrder.map((id, i) => [id, i]));
    for (const session of all) {
      for (const name of await readdir(join(dataDir, "sessions", session.id, "turns"))) {
        const record = JSON.parse(await readFile(join(dataDir, "sessions", session.id, "turns", name), "utf8")) as { status: string; id: string; response?: { finalMessage?: string } };
        if (!isFinalStatus(record.status as never) && record.status !== "interrupted") {
          violations.push(`continuation ${record.id} is still ${record.status} after recovery`);
        }
        // Also a result recovered from a log's final line (finish cut short) must be the right one.
        if (record.status === "completed" && record.response?.finalMessage !== `done:${record.id}`) {
          violations.push(`continuation ${record.id} is completed with a wrong result (${record.response?.finalMessage})`);
        }
      }
      // Completed turns save memory naming themselves. Turns of a session finish one after another
      // (single-flight), so the memory must come from its last acknowledged completed turn or from
      // one that completed after it (acknowledged later, or recovered from its final line).
      const here = new Set(session.messages.map((m) => m.continuationId));
      const lastAcked = doneOrder.filter((id) => here.has(id) && facts.done.get(id) === "completed").at(-1);
      const memory = await store.sessions.memory(CRASH_OWNER, session.id);
      const memoryFrom = memory.rollingSummary.replace(/^after:/, "");
      const completed = session.messages.some((m) => m.continuationId === memoryFrom && m.status === "completed");
      if (lastAcked && !(completed && (doneIndex.get(memoryFrom) ?? Infinity) >= (doneIndex.get(lastAcked) ?? 0))) {
        violations.push(`session ${session.id} has memory "${memory.rollingSummary}", older than its acknowledged turn ${lastAcked}`);
      }
      for (const [sessionAndKey, contId] of facts.keys) {
        const [sessionId, key] = sessionAndKey.split(" ");
        if (sessionId !== session.id || !session.messages.some((m) => m.continuationId === contId)) continue;
        if (!session.idempotencyKeys.some((k) => k.key === key && k.continuationId === contId)) {
          violations.push(`idempotency key ${key} of session ${sessionId} no longer leads to ${contId}`);
        }
      }
    }

    for (const [contId, status] of facts.done) {
      const record = await store.continuations.get(CRASH_OWNER, contId);
      if (!record) violations.push(`finished continuation ${contId} (${status}) is lost`);
      else if (record.status !== status) violations.push(`continuation ${contId} finished as ${status} but is now ${record.status}`);
      else if (status === "completed" && record.response?.finalMessage !== `done:${contId}`) violations.push(`the result of ${contId} is lost`);
    }

    for (const [contId, seqs] of facts.acked) {
      const lines = await store.steps.read(CRASH_OWNER, contId).catch(() => undefined);
      if (!lines) {
        violations.push(`continuation ${contId} with durable steps is lost`);
        continue;
      }
      const bySeq = new Map(lines.map((l) => [l.seq, (l.detail as { marker?: string } | undefined)?.marker]));
      for (const [seq, marker] of seqs) {
        if (bySeq.get(seq) !== marker) violations.push(`durable step ${seq} (${marker}) of ${contId} is lost`);
      }
    }
    return { violations, recovery: store.recovery };
  } finally {
    await store.close();
  }
}
