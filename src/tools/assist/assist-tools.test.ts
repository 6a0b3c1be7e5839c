import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { ToolRegistry } from "../registry.js";
import { defineTool, ok, type ToolCallContext, type ToolSpec } from "../tool.js";
import { toolJsonSchema } from "../json-schema.js";
import { ASSIST_DEADLINE_MS, ASSIST_WAIT_MS, createAssistTools } from "./assist-tools.js";

const principal = { id: "u", name: "U", kind: "user" as const, isAdmin: true };
const ctx = (): ToolCallContext => ({ principal, signal: new AbortController().signal, progress: async () => {} });

/** A stand-in for a full tool: records what it was called with, and takes `ms` to answer (forever when undefined). */
function slowTool(name: string, fields: string[], ms: number | undefined, seen: Record<string, unknown>[]): ToolSpec {
  const input = z.object({ ...Object.fromEntries(fields.map((f) => [f, z.unknown().optional()])), limit: z.number().int().max(50).default(10) });
  return defineTool({
    name,
    title: name,
    description: "the full description, much longer than the Assist one",
    input,
    output: z.object({ done: z.boolean() }),
    annotations: {},
    invoke: async (args, c) => {
      seen.push(args);
      if (ms === undefined) await new Promise<never>((_, reject) => c.signal.addEventListener("abort", () => reject(new Error("stopped"))));
      else await new Promise((resolve) => setTimeout(resolve, ms));
      return ok({ done: true });
    },
  });
}

function fullRegistry(ms: number | undefined, seen: Record<string, unknown>[]): ToolRegistry {
  const registry = new ToolRegistry("_");
  registry.register(slowTool("ask", ["message", "model", "budgets", "timeout_ms"], ms, seen));
  registry.register(slowTool("index_search", ["query", "domain", "area", "limit", "near_area"], ms, seen));
  registry.register(slowTool("call_service", ["domain", "service"], ms, seen));
  return registry;
}

afterEach(() => vi.useRealTimers());

describe("the tools Home Assistant's conversation agents see", () => {
  it("refuses to build a view of a tool whose input has a rule across fields, which the view would skip", () => {
    const registry = new ToolRegistry("_");
    registry.register(defineTool({ name: "ask", title: "ask", description: "d", input: z.object({ message: z.string() }).refine(() => true), output: z.object({}), annotations: {}, invoke: async () => ok({}) }));
    expect(() => createAssistTools(registry)).toThrow(/across fields/);
  });

  it("offers only the chosen tools, with only their chosen parameters and a shorter description", () => {
    const tools = createAssistTools(fullRegistry(0, []));
    expect(tools.map((t) => t.name)).toEqual(["ask", "index_search"]);
    expect(Object.keys((toolJsonSchema(tools[0]!.input, "input") as { properties: object }).properties)).toEqual(["message"]);
    expect(Object.keys((toolJsonSchema(tools[1]!.input, "input") as { properties: object }).properties)).toEqual(["query", "domain", "area", "limit"]);
    expect(tools[1]!.description).not.toContain("full description");
  });

  it("waits for the agent no longer than Home Assistant allows, gives left-out parameters their defaults, and checks the offered ones", async () => {
    const seen: Record<string, unknown>[] = [];
    const assist = new ToolRegistry("_");
    for (const tool of createAssistTools(fullRegistry(0, seen))) assist.register(tool);
    expect((await assist.call("ask", { message: "is it warm inside?", timeout_ms: 300_000 }, ctx())).ok).toBe(true);
    // A parameter the Assist view does not offer is dropped, and the wait is the Assist one whatever was sent.
    expect(seen[0]).toEqual({ message: "is it warm inside?", timeout_ms: ASSIST_WAIT_MS, limit: 10 });
    const refused = await assist.call("index_search", { query: "kitchen", limit: 500 }, ctx());
    expect(refused).toMatchObject({ ok: false, error: { code: "invalid_argument" } });
    expect(seen).toHaveLength(1);
  });

  it("answers a call that runs past the deadline with a failure that says what to try, and stops the work", async () => {
    vi.useFakeTimers();
    const seen: Record<string, unknown>[] = [];
    const assist = new ToolRegistry("_");
    for (const tool of createAssistTools(fullRegistry(undefined, seen))) assist.register(tool);
    const call = assist.call("index_search", { query: "kitchen" }, ctx());
    await vi.advanceTimersByTimeAsync(ASSIST_DEADLINE_MS - 1);
    let settled = false;
    void call.then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const outcome = await call;
    expect(outcome).toMatchObject({ ok: false, error: { code: "too_slow" } });
    expect(outcome.ok ? "" : outcome.error.message).toMatch(/within 8\.5 s.*shorter period/);
  });
});
