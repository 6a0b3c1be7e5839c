import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { monotonicFactory } from "ulid";
import { encodeLogLine } from "../../src/store/log-format.js";
import { FORMAT_FILE, type FormatMarker } from "../../src/store/index.js";
import { FORMAT_VERSION } from "../../src/store/session-schema.js";

/**
 * Writes a data dir the way a long-used store looks: `sessions` sessions with
 * `perSession` finished continuations each, small step logs, and one running
 * continuation in `openSessions` of them (the work boot recovery must fix),
 * and `format.json`, owner-only as this version writes them: without
 * `format.json` the first boot would read every record to learn its format,
 * and with looser modes it would tighten every file, as it does once for a
 * directory an older version wrote. Plain writes, no fsync: this is set-up,
 * not the thing measured.
 */
export async function generateDataDir(options: { dataDir: string; sessions: number; perSession: number; openSessions: number }): Promise<void> {
  const next = monotonicFactory();
  const t0 = Date.UTC(2026, 0, 1);
  const sessionsDir = join(options.dataDir, "sessions");
  await mkdir(sessionsDir, { recursive: true, mode: 0o700 });
  const one = async (i: number) => {
    const sessionId = next(t0 + i * 1000);
    const dir = join(sessionsDir, sessionId);
    await mkdir(join(dir, "turns"), { recursive: true, mode: 0o700 });
    await mkdir(join(dir, "logs"), { recursive: true, mode: 0o700 });
    const messages = [];
    const open: string[] = [];
    for (let c = 0; c < options.perSession; c++) {
      const id = next(t0 + i * 1000 + c);
      const running = c === options.perSession - 1 && i < options.openSessions;
      const ts = t0 + i * 1000 + c;
      const status = running ? "running" : "completed";
      const turn = {
        formatVersion: FORMAT_VERSION,
        id,
        sessionId,
        owner: `user-${i % 7}`,
        status,
        createdAt: ts,
        updatedAt: ts,
        request: { message: `question ${c} about the living room lights`, allowTools: true },
        ...(running ? {} : { response: { finalMessage: "The lights flickered because of a voltage dip at 21:04." } }),
        usage: { steps: 3, toolCalls: 1, tokensIn: 1200, tokensOut: 150, tokensThinking: 0 },
        artifacts: [],
      };
      await writeFile(join(dir, "turns", `${id}.json`), `${JSON.stringify(turn)}\n`, { mode: 0o600 });
      const log = [1, 2, 3]
        .map((seq) => encodeLogLine({ seq, ts: ts + seq, type: seq === 2 ? "tool_call" : "plan", detail: { note: `step ${seq}` } }))
        .join("");
      await writeFile(join(dir, "logs", `${id}.log`), log, { mode: 0o600 });
      messages.push({ continuationId: id, status, createdAt: ts, updatedAt: ts, preview: `question ${c}` });
      if (running) open.push(id);
    }
    const ts = t0 + i * 1000;
    const session = {
      formatVersion: FORMAT_VERSION,
      id: sessionId,
      owner: `user-${i % 7}`,
      version: options.perSession * 2 + 1,
      status: "active",
      createdAt: ts,
      updatedAt: ts,
      lastActivityAt: ts,
      model: {},
      budgets: { maxSteps: 8, maxToolCalls: 16, maxDurationMs: 120000, maxTokensPerTurn: 100000 },
      policy: { allowActuation: false, allowlistedServices: [], enforceFixedModel: false, maxOpenContinuations: 1 },
      preferences: {},
      memory: { rollingSummary: "The user is looking into flickering lights.", facts: [], pins: [], lastK: [] },
      stats: { turns: options.perSession, steps: 30, toolCalls: 10, tokensIn: 12000, tokensOut: 1500, tokensThinking: 0 },
      messages,
      openContinuations: open,
      idempotencyKeys: [],
    };
    await writeFile(join(dir, "session.json"), `${JSON.stringify(session)}\n`, { mode: 0o600 });
  };
  let cursor = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (cursor < options.sessions) {
        const i = cursor;
        cursor += 1;
        await one(i);
      }
    }),
  );
  const marker: FormatMarker = { formatVersion: FORMAT_VERSION, writtenBy: "bench", updatedAt: t0 };
  await writeFile(join(options.dataDir, FORMAT_FILE), `${JSON.stringify(marker)}\n`, { mode: 0o600 });
}
