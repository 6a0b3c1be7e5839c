import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ToolRegistry, defineTool, ok } from "../tools/index.js";
import { agentTools, maxResultCharsFor } from "./agent-tools.js";

function registryWith(names: string[], output: () => Record<string, unknown>): ToolRegistry {
  const registry = new ToolRegistry();
  for (const name of names) {
    registry.register(defineTool({ name, title: name, description: `${name} does it`, input: z.object({ q: z.string().optional() }), output: z.object({}).passthrough(), annotations: {}, invoke: async () => ok(output()) }));
  }
  return registry;
}

const principal = { id: "u", name: "U", kind: "user" as const, isAdmin: true };

describe("agentTools", () => {
  it("offers call_service only when actuation is allowed, and never the session tools", () => {
    const registry = registryWith(["index_search", "state_query", "call_service", "start_session"], () => ({}));
    const readOnly = agentTools({ registry, principal, actuation: undefined, maxResultChars: 1000, saveLarge: async () => ({ id: "A" }) });
    expect(readOnly.map((t) => t.declaration.name)).toEqual(["index_search", "state_query"]);
    const acting = agentTools({ registry, principal, actuation: { allowActuation: true, allowlistedServices: [] }, maxResultChars: 1000, saveLarge: async () => ({ id: "A" }) });
    expect(acting.map((t) => [t.declaration.name, t.action])).toEqual([["index_search", false], ["state_query", false], ["call_service", true]]);
    expect(acting[0]!.declaration.parameters).toMatchObject({ type: "object", properties: { q: { type: "string" } } });
  });

  it("keeps a result too big for the model's window in an artifact and hands the model a preview", async () => {
    const saved: string[] = [];
    const registry = registryWith(["state_query"], () => ({ rows: "x".repeat(50_000) }));
    const [tool] = agentTools({ registry, principal, actuation: undefined, maxResultChars: maxResultCharsFor(128_000), saveLarge: async (content) => (saved.push(content), { id: "01ARTIFACT" }) });
    const outcome = await tool!.run({}, new AbortController().signal);
    expect(outcome).toMatchObject({ ok: true, value: { truncated: true, artifact_id: "01ARTIFACT" } });
    expect(JSON.stringify(outcome).length).toBeLessThan(17_000);
    expect(JSON.parse(saved[0]!)).toEqual({ rows: "x".repeat(50_000) });
  });

  it("lets a 1M-token model read more of a result than a 128k one", () => {
    expect(maxResultCharsFor(1_048_576)).toBeGreaterThan(maxResultCharsFor(128_000));
    expect(maxResultCharsFor(128_000)).toBeGreaterThan(maxResultCharsFor(32_768));
  });
});
