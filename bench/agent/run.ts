/**
 * `npm run bench:agent`: the agent loop's own cost, measured against a
 * baseline in the same run, and the size of its first prompt against Home
 * Assistant Assist's static context. Prints each figure next to its target.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AgentRuntime, ContentProvider, runTurn, storeJournal, type AgentTool, type TurnJournal } from "../../src/agent/index.js";
import { createHaClient } from "../../src/ha/index.js";
import { createHomeIndex, type HomeIndex } from "../../src/indexer/index.js";
import { estimateRequestTokens, estimateTokens, type GenerateRequest, type ModelClient } from "../../src/models/index.js";
import { silentLogger, systemClock, type Principal } from "../../src/shared/index.js";
import { demoHouse, generateHouse, startSimulator, type House } from "@ha-agent/ha-simulator";
import { countingFs, nodeStoreFs, openStore } from "../../src/store/index.js";
import { ToolRegistry } from "../../src/tools/index.js";
import { createGroundingTools } from "../../src/tools/grounding/index.js";
import { scriptedModel } from "../../test/support/scripted-model.js";
import { assistStaticContext } from "./assist-context.js";
import { streamListenerCost } from "./stream-listeners.js";

const principal: Principal = { id: "bench", name: "Bench", kind: "user", isAdmin: true };
const rows: { what: string; target: string; measured: string; pass: boolean | undefined }[] = [];
const report = (what: string, target: string, measured: string, pass?: boolean) => {
  rows.push({ what, target, measured, pass });
  console.log(`${pass === undefined ? "    " : pass ? "PASS" : "FAIL"}  ${what}: ${measured}${target ? `  (target ${target})` : ""}`);
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]!;

/** A read-only tool that answers at once, so only the loop's own work is timed. */
const instantTool: AgentTool = { action: false, declaration: { name: "state_query", description: "reads states", parameters: { type: "object" } }, run: async () => ({ ok: true, value: { entities: [{ entity_id: "light.a", state: "on" }] } }) };

function toolLoopScript(steps: number) {
  return [...Array.from({ length: steps - 1 }, () => ({ text: "", toolCalls: [{ name: "state_query", args: { area: "kitchen" } }] })), { text: "light.a is on." }];
}

async function loopOverhead(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), "bench-agent-"));
  const counting = countingFs(nodeStoreFs);
  const store = await openStore({ dataDir: dir, fs: counting.fs });
  const session = await store.sessions.create({ owner: principal.id });
  const STEPS = 10;
  const TURNS = 60;
  const journaled: number[] = [];
  const bare: number[] = [];
  const memory = (): TurnJournal => ({ append: async () => {}, read: async () => [] });
  let fsyncs = 0;
  let steps = 0;
  for (let i = 0; i < TURNS; i++) {
    // Baseline: the same loop with a journal that keeps nothing.
    let t = performance.now();
    await runTurn({ continuationId: "bare", model: scriptedModel(toolLoopScript(STEPS)), context: new ContentProvider(), prompt: [{ type: "user", text: "q" }], tools: [instantTool], budgets: { maxSteps: 20, maxToolCalls: 50, maxTokensPerTurn: 10_000_000, timeBudgetMs: 60_000 }, journal: memory(), clock: systemClock, signal: new AbortController().signal, describeUnknownOutcome: async () => "" });
    bare.push((performance.now() - t) / STEPS);

    const { continuation } = await store.continuations.create(principal.id, session.id, { message: "q" });
    counting.reset();
    t = performance.now();
    const outcome = await runTurn({ continuationId: continuation.id, model: scriptedModel(toolLoopScript(STEPS)), context: new ContentProvider(), prompt: [{ type: "user", text: "q" }], tools: [instantTool], budgets: { maxSteps: 20, maxToolCalls: 50, maxTokensPerTurn: 10_000_000, timeBudgetMs: 60_000 }, journal: storeJournal(store, principal.id, continuation.id), clock: systemClock, signal: new AbortController().signal, describeUnknownOutcome: async () => "" });
    await store.continuations.update(principal.id, continuation.id, { status: "completed", response: { finalMessage: outcome.status === "completed" ? outcome.text : "" } });
    journaled.push((performance.now() - t) / STEPS);
    fsyncs += counting.counts.fsyncs;
    steps += STEPS;
  }
  await store.close();
  await rm(dir, { recursive: true, force: true });
  const overhead = median(journaled);
  report("loop time per step, journaled (zero-latency model and tools)", "≤ 5 ms median", `${overhead.toFixed(2)} ms median, p99 ${pct(journaled, 99).toFixed(2)} ms`, overhead <= 5);
  report("baseline: the same loop without journaling", "", `${median(bare).toFixed(2)} ms median per step`);
  report("fsyncs per step (10-step turns, turn end included)", "≤ 1", (fsyncs / steps).toFixed(2), fsyncs / steps <= 1);
}

async function withHome<T>(house: House, body: (index: HomeIndex, registry: ToolRegistry) => Promise<T>): Promise<T> {
  const sim = await startSimulator({ house });
  const ha = createHaClient({ wsUrl: sim.wsUrl, apiUrl: sim.apiUrl, token: sim.users.tokenFor(), logger: silentLogger });
  const index = createHomeIndex({ ha, logger: silentLogger });
  try {
    await ha.connect();
    await index.start();
    const registry = new ToolRegistry();
    for (const t of createGroundingTools({ index, ha })) registry.register(t);
    return await body(index, registry);
  } finally {
    await index.stop();
    await ha.close();
    await sim.close();
  }
}

function runtimeFor(store: Awaited<ReturnType<typeof openStore>>, index: HomeIndex, registry: ToolRegistry, model: ModelClient, maxConcurrentModelCalls = 4) {
  return new AgentRuntime({ store, registry, index, clock: systemClock, logger: silentLogger, ceiling: { allow: false, allowlist: [] }, models: { get: async () => model, check: () => {}, missing: () => "" }, maxConcurrentModelCalls });
}

async function concurrentSessions(): Promise<void> {
  await withHome(demoHouse(), async (index, registry) => {
    const dir = await mkdtemp(join(tmpdir(), "bench-agent-"));
    const store = await openStore({ dataDir: dir });
    const SESSIONS = 50;
    const TURNS = 10;
    const LATENCY = 50;
    const model: ModelClient = {
      ...scriptedModel([]),
      async generate(request: GenerateRequest) {
        await new Promise((r) => setTimeout(r, LATENCY));
        const asked = request.conversation.filter((i) => i.type === "user").at(-1);
        const text = `answer to ${asked?.type === "user" ? asked.text : "?"}`;
        return { turn: { provider: "bench", model: "bench", raw: { text }, text, toolCalls: [] }, text, toolCalls: [], finishReason: "stop", usage: { inputTokens: 100, outputTokens: 10, thinkingTokens: 0, cachedTokens: 0, estimated: true }, durationMs: LATENCY };
      },
    };
    const runtime = runtimeFor(store, index, registry, model, 16);
    const overheads: number[] = [];
    const started = performance.now();
    await Promise.all(
      Array.from({ length: SESSIONS }, async (_, s) => {
        const session = await store.sessions.create({ owner: principal.id });
        for (let t = 0; t < TURNS; t++) {
          const t0 = performance.now();
          const { continuation } = await runtime.send(principal, { sessionId: session.id, message: `s${s} t${t}` });
          await runtime.wait(principal, continuation.id, 60_000);
          overheads.push(performance.now() - t0 - LATENCY);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    let lost = 0;
    let duplicated = 0;
    for (const s of store.sessions.list(principal.id, { limit: 1000 }).sessions) {
      const seen = new Set<string>();
      for (const ref of s.messages) {
        if (ref.status !== "completed") lost++;
        if (seen.has(ref.preview)) duplicated++;
        seen.add(ref.preview);
      }
      lost += Math.max(0, TURNS - s.messages.length);
    }
    await store.close();
    await rm(dir, { recursive: true, force: true });
    report(`${SESSIONS} sessions × ${TURNS} turns, model latency ${LATENCY} ms, 16 model calls at once`, "0 lost, 0 duplicated", `${lost} lost, ${duplicated} duplicated`, lost === 0 && duplicated === 0);
    report("throughput", "", `${((SESSIONS * TURNS) / seconds).toFixed(1)} turns/s`);
    report("overhead per turn beyond the model's latency (queueing included)", "", `p50 ${median(overheads).toFixed(1)} ms, p99 ${pct(overheads, 99).toFixed(1)} ms`);
  });
}

async function streamListeners(): Promise<void> {
  await withHome(demoHouse(), async (index, registry) => {
    const LISTENERS = 100;
    const cost = await streamListenerCost({ index, registry, listeners: LISTENERS, turns: 30, principal });
    const added = cost.with - cost.without;
    report(`time per step added by ${LISTENERS} SSE listeners on the session (streamed 10-step turns, 30 each way)`, "≤ 5 ms", `${added.toFixed(2)} ms (${cost.with.toFixed(2)} ms with, ${cost.without.toFixed(2)} ms without; ${(cost.received / 1e6).toFixed(1)} MB read by the listeners)`, added <= 5);
  });
}

async function promptSize(name: string, house: House): Promise<void> {
  await withHome(house, async (index, registry) => {
    const dir = await mkdtemp(join(tmpdir(), "bench-agent-"));
    const store = await openStore({ dataDir: dir });
    const model = scriptedModel([{ text: "ok" }], { model: "gemini-2.5-flash" });
    const runtime = runtimeFor(store, index, registry, model);
    const session = await store.sessions.create({ owner: principal.id });
    const { continuation } = await runtime.send(principal, { sessionId: session.id, message: "Which lights are on in the kitchen?" });
    await runtime.wait(principal, continuation.id, 10_000);
    await store.close();
    await rm(dir, { recursive: true, force: true });
    const request = model.requests[0]!;
    const total = estimateRequestTokens(request);
    const assist = estimateTokens(assistStaticContext(index.query()));
    // The home context is what stands in for HA's static context: the overview in the system instruction and the retrieval snippets.
    const overview = request.system.slice(request.system.indexOf("## The home"));
    const home = estimateTokens(overview.slice(0, overview.indexOf("\n## ") > 0 ? overview.indexOf("\n## ") : undefined)) + estimateTokens(request.conversation.filter((i) => i.type === "user").slice(0, -1).map((i) => (i.type === "user" ? i.text : "")).join("\n"));
    const tools = estimateTokens(JSON.stringify(request.tools ?? []));
    const ratio = home / assist;
    report(`home context in the first prompt, ${name} (${index.stats().entities} entities)`, "≤ 10% of Assist's static context", `${home} tokens vs ${assist} (${(ratio * 100).toFixed(1)}%)`, ratio <= 0.1);
    report(`whole first prompt, ${name}`, "", `${total} tokens, of which tool declarations ${tools} and system instruction ${estimateTokens(request.system)}`);
  });
}

async function main(): Promise<void> {
  console.log("bench:agent — figures from this run; each target is checked in the same run\n");
  await loopOverhead();
  await concurrentSessions();
  await streamListeners();
  await promptSize("demo house", demoHouse());
  await promptSize("generated house", generateHouse({ entities: 2_000, seed: 7 }));
  const failed = rows.filter((r) => r.pass === false);
  console.log(`\n${rows.filter((r) => r.pass).length} passed, ${failed.length} failed`);
  process.exitCode = failed.length ? 1 : 0;
}

void main();
