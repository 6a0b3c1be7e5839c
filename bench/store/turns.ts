import { countingFs, nodeStoreFs } from "../../src/store/fs.js";
import { openStore } from "../../src/store/index.js";
import type { StepEntry } from "../../src/store/step-schema.js";

// A typical turn as the agent runs it: plan, model calls, three tool calls
// each behind a durable intent record, their results, and a summary.
const TYPICAL_TURN: Array<{ entry: StepEntry; durable: boolean }> = [
  { entry: { type: "plan", detail: { goal: "find why the bedroom lights flickered" } }, durable: false },
  { entry: { type: "model_response", detail: { usage: { promptTokenCount: 1800, candidatesTokenCount: 90 } } }, durable: false },
  { entry: { type: "tool_call", key: "c:1:0", detail: { tool: "state_query", args: { area: "bedroom" } } }, durable: true },
  { entry: { type: "tool_result", key: "c:1:0", detail: { entities: 6 } }, durable: false },
  { entry: { type: "tool_call", key: "c:2:0", detail: { tool: "history", args: { entity_id: "light.bedroom" } } }, durable: true },
  { entry: { type: "tool_result", key: "c:2:0", detail: { changes: 14 } }, durable: false },
  { entry: { type: "model_response", detail: { usage: { promptTokenCount: 2600, candidatesTokenCount: 120 } } }, durable: false },
  { entry: { type: "tool_call", key: "c:3:0", detail: { tool: "analyze_errors", args: {} } }, durable: true },
  { entry: { type: "tool_result", key: "c:3:0", detail: { errors: 2 } }, durable: false },
  { entry: { type: "summary", detail: { text: "voltage dips at 21:04 from the dimmer" } }, durable: false },
];

export interface TurnFigures {
  variant: string;
  turns: number;
  stepsPerTurn: number;
  fsyncsPerStep: number;
  logFsyncsPerStep: number;
  fsyncsPerTurn: number;
  bytesPerStep: number;
  sessionJsonWritesPerTurn: number;
  msPerTurn: number;
}

/** Runs `turns` typical turns and counts what reaches the disk. `naive` fsyncs every append. */
export async function measureTurns(options: { dataDir: string; turns: number; naive: boolean }): Promise<TurnFigures> {
  const counting = countingFs(nodeStoreFs);
  const store = await openStore({ dataDir: options.dataDir, fs: counting.fs });
  const owner = "bench-user";
  const session = await store.sessions.create({ owner });
  counting.reset();
  const started = performance.now();
  for (let t = 0; t < options.turns; t++) {
    const { continuation } = await store.continuations.create(owner, session.id, { message: `turn ${t}` });
    await store.continuations.update(owner, continuation.id, { status: "running" });
    for (const step of TYPICAL_TURN) await store.steps.append(owner, continuation.id, step.entry, { durable: options.naive || step.durable });
    // Finishing flushes the log's last steps together with the final line.
    await store.continuations.update(owner, continuation.id, {
      status: "completed",
      response: { finalMessage: "A dimmer caused voltage dips." },
      usage: { steps: TYPICAL_TURN.length, toolCalls: 3 },
    });
  }
  const ms = performance.now() - started;
  // Log fsyncs: the log files themselves, and logs/ when a new log's entry is made durable.
  let logFsyncs = 0;
  for (const [name, n] of counting.counts.fsyncsByName) if (name.endsWith(".log") || name === "logs") logFsyncs += n;
  await store.close();
  const steps = options.turns * TYPICAL_TURN.length;
  const round = (n: number) => Math.round(n * 100) / 100;
  return {
    variant: options.naive ? "naive (fsync every append)" : "group commit (2 s / 5 steps)",
    turns: options.turns,
    stepsPerTurn: TYPICAL_TURN.length,
    fsyncsPerStep: round(counting.counts.fsyncs / steps),
    logFsyncsPerStep: round(logFsyncs / steps),
    fsyncsPerTurn: round(counting.counts.fsyncs / options.turns),
    bytesPerStep: Math.round(counting.counts.bytesWritten / steps),
    sessionJsonWritesPerTurn: round((counting.counts.writesByName.get("session.json") ?? 0) / options.turns),
    msPerTurn: round(ms / options.turns),
  };
}

/** Appends `count` steps to one continuation and reports the rate. */
export async function measureAppends(options: { dataDir: string; count: number; naive: boolean }): Promise<{ variant: string; appends: number; perSecond: number; fsyncsPerAppend: number }> {
  const counting = countingFs(nodeStoreFs);
  const store = await openStore({ dataDir: options.dataDir, fs: counting.fs });
  const session = await store.sessions.create({ owner: "bench-user" });
  const { continuation } = await store.continuations.create("bench-user", session.id, { message: "appends" });
  counting.reset();
  const started = performance.now();
  for (let i = 0; i < options.count; i++) {
    await store.steps.append("bench-user", continuation.id, { type: "plan", detail: { i, text: "checking the next entity" } }, { durable: options.naive });
  }
  await store.steps.flush(continuation.id);
  const seconds = (performance.now() - started) / 1000;
  await store.close();
  return {
    variant: options.naive ? "naive (fsync every append)" : "group commit (2 s / 5 steps)",
    appends: options.count,
    perSecond: Math.round(options.count / seconds),
    fsyncsPerAppend: Math.round((counting.counts.fsyncs / options.count) * 100) / 100,
  };
}
