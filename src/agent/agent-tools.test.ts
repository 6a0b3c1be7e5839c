import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ToolRegistry, defineTool, ok, type ToolSpec } from "../tools/index.js";
import { agentTools, maxResultCharsFor } from "./agent-tools.js";

/** What the fake tools are: call_service and automation_save act, trace reads what HA shows administrators only. */
const SPECIAL: Record<string, Partial<ToolSpec>> = {
  call_service: { action: { plan: () => ({ kind: "run" }) } },
  automation_save: { action: { plan: () => ({ kind: "run" }) }, needs: [{ rest: { method: "POST", path: "config/automation/config/1" } }] },
  trace: { needs: [{ websocket: "trace/get" }] },
};

function registryWith(names: string[], output: () => Record<string, unknown>): ToolRegistry {
  const registry = new ToolRegistry();
  for (const name of names) {
    registry.register(defineTool({ name, title: name, description: `${name} does it`, input: z.object({ q: z.string().optional() }), output: z.object({}).passthrough(), annotations: {}, invoke: async () => ok(output()), ...SPECIAL[name] }));
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

  it("does not offer a tool whose Home Assistant reads the owner may not make, and answers a call of it admin_only without running it", async () => {
    const registry = registryWith(["index_search", "trace"], () => ({ read: true }));
    const member = { ...principal, isAdmin: false };
    const tools = agentTools({ registry, principal: member, actuation: undefined, maxResultChars: 1000, saveLarge: async () => ({ id: "A" }) });
    expect(tools.filter((t) => !t.withheld).map((t) => t.declaration.name)).toEqual(["index_search"]);
    expect(await tools.find((t) => t.declaration.name === "trace")!.run({}, new AbortController().signal)).toMatchObject({ ok: false, error: { code: "admin_only" } });
    const forAdmin = agentTools({ registry, principal, actuation: undefined, maxResultChars: 1000, saveLarge: async () => ({ id: "A" }) });
    expect(forAdmin.filter((t) => !t.withheld).map((t) => t.declaration.name)).toEqual(["index_search", "trace"]);
  });

  it("offers automation_save only with allow_automation_edits, in a session that asks, to an administrator", () => {
    const registry = registryWith(["automation_save"], () => ({}));
    const offered = (o: { automationEdits: boolean; asks: boolean; isAdmin: boolean }) => {
      const [save] = agentTools({ registry, principal: { ...principal, isAdmin: o.isAdmin }, actuation: undefined, asks: o.asks, automationEdits: o.automationEdits, maxResultChars: 1000, saveLarge: async () => ({ id: "A" }) });
      return save!.withheld ? "withheld" : save!.action ? "action" : "read";
    };
    expect(offered({ automationEdits: true, asks: true, isAdmin: true })).toBe("action");
    expect(offered({ automationEdits: false, asks: true, isAdmin: true })).toBe("withheld");
    expect(offered({ automationEdits: true, asks: false, isAdmin: true })).toBe("withheld");
    expect(offered({ automationEdits: true, asks: true, isAdmin: false })).toBe("withheld");
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
