import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AgentRuntime } from "../../src/agent/index.js";
import { startMcpListener, type HealthReport } from "../../src/http/index.js";
import type { HomeIndex } from "../../src/indexer/index.js";
import type { McpEndpoint } from "../../src/mcp/index.js";
import type { GenerateRequest, ModelClient } from "../../src/models/index.js";
import { silentLogger, systemClock, type Principal } from "../../src/shared/index.js";
import { openStore } from "../../src/store/index.js";
import type { ToolRegistry } from "../../src/tools/index.js";
import { scriptedModel } from "../../test/support/scripted-model.js";

const STEPS = 10;

/** A zero-latency model: tool calls until the turn has STEPS steps, then streamed text; a memory fold gets text. */
function steppingModel(): ModelClient {
  return {
    ...scriptedModel([]),
    async generate(request: GenerateRequest, options = {}) {
      const results = request.conversation.filter((i) => i.type === "tool_results").length;
      const call = (request.tools?.length ?? 0) > 0 && results < STEPS - 1;
      const text = call ? "" : "light.a is on, and nothing else is.";
      if (text) for (const word of text.split(" ")) options.onPartial?.({ text: `${word} ` });
      const toolCalls = call ? [{ id: `c${results}`, name: "state_query", args: { area: "kitchen" } }] : [];
      return { turn: { provider: "bench", model: "bench", raw: { text }, text, toolCalls }, text, toolCalls, finishReason: call ? "tool_calls" : "stop", usage: { inputTokens: 100, outputTokens: 10, thinkingTokens: 0, cachedTokens: 0, estimated: true }, durationMs: 0 };
    },
  };
}

/**
 * Time per agent step of streamed turns in a session with no listener and
 * in one with `listeners` readers on `/events/{session_id}` over real HTTP,
 * turn about turn in the same run. Returns the medians in ms.
 */
export async function streamListenerCost(args: { index: HomeIndex; registry: ToolRegistry; listeners: number; turns: number; principal: Principal }): Promise<{ without: number; with: number; received: number }> {
  const { principal } = args;
  const dir = await mkdtemp(join(tmpdir(), "bench-agent-"));
  const store = await openStore({ dataDir: dir });
  const runtime = new AgentRuntime({ store, registry: args.registry, index: args.index, clock: systemClock, logger: silentLogger, ceiling: { allow: false, allowlist: [] }, models: { get: async () => steppingModel(), check: () => {}, missing: () => "" } });
  const mcp: McpEndpoint = { handle: async () => {}, inFlight: () => 0, close: async () => {} };
  const listener = await startMcpListener({
    host: "127.0.0.1",
    port: 0,
    verifier: { verify: async () => principal },
    mcp,
    health: () => ({ status: "ok" }) as unknown as HealthReport,
    logger: silentLogger,
    events: { source: runtime, maxStreamsPerPrincipal: args.listeners },
  });
  const quiet = await store.sessions.create({ owner: principal.id });
  const watched = await store.sessions.create({ owner: principal.id });
  const aborts: AbortController[] = [];
  let received = 0;
  await Promise.all(
    Array.from({ length: args.listeners }, async () => {
      const abort = new AbortController();
      aborts.push(abort);
      const res = await fetch(`http://127.0.0.1:${listener.port}/events/${watched.id}`, { headers: { authorization: "Bearer bench" }, signal: abort.signal });
      void (async () => {
        try {
          for await (const chunk of res.body!) received += (chunk as Uint8Array).length;
        } catch {
          // Aborted at the end.
        }
      })();
    }),
  );
  const per = { without: [] as number[], with: [] as number[] };
  const turn = async (sessionId: string) => {
    const t = performance.now();
    const { continuation } = await runtime.send(principal, { sessionId, message: "q", stream: true });
    await runtime.wait(principal, continuation.id, 60_000);
    return (performance.now() - t) / STEPS;
  };
  for (let i = 0; i < args.turns; i++) {
    per.without.push(await turn(quiet.id));
    per.with.push(await turn(watched.id));
  }
  for (const a of aborts) a.abort();
  await listener.close();
  await runtime.drain(1_000);
  await store.close();
  await rm(dir, { recursive: true, force: true });
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  return { without: median(per.without), with: median(per.with), received };
}
