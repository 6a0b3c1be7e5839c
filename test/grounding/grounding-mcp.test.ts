import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoHouse } from "@ha-agent/ha-simulator";
import { callTool, waitUntil } from "../support/mcp.js";
import { startStack, type Stack } from "../support/stack.js";

const GROUNDING_TOOLS = ["index_search", "state_query", "diagnose_entity", "analyze_errors", "render_context"].map((n) => `ha_agent_${n}`);

/**
 * Starts the program with a client that has listed the tools: from then on the
 * MCP SDK client checks every structured result against the tool's advertised
 * output schema, as strict clients do, and rejects a result that strays from it.
 */
async function startListedStack(): Promise<Stack> {
  const stack = await startStack();
  await stack.client.listTools();
  return stack;
}

/** Calls a tool through MCP and returns its structured result, failing on a tool error. */
async function call(stack: Stack, name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const reply = await callTool(stack.client, name, args);
  if (reply.isError) throw new Error(`${name} failed: ${reply.text}`);
  // The text block carries the same JSON, for clients that ignore structured content.
  expect(JSON.parse(reply.text)).toEqual(reply.value);
  return reply.value;
}

const integrationOf = (logger: string) => /^homeassistant\.components\.([a-z0-9_]+)/.exec(logger)?.[1] ?? logger.split(".")[0]!;

describe("grounding tools through MCP (demo house)", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startListedStack();
  });
  afterAll(async () => {
    await stack?.close();
  });

  it("lists the grounding tools with described inputs and output schemas", async () => {
    const { tools } = await stack.client.listTools();
    for (const name of GROUNDING_TOOLS) {
      const tool = tools.find((t) => t.name === name);
      expect(tool?.outputSchema, name).toMatchObject({ type: "object", additionalProperties: false });
      const props = tool!.inputSchema.properties as Record<string, { description?: string }>;
      for (const [key, prop] of Object.entries(props)) expect(prop.description, `${name}.${key}`).toBeTruthy();
    }
  });

  it("index_search answers in its schema's shape with typo tolerance and area aliases", async () => {
    const out = await call(stack, "ha_agent_index_search", { query: "lounge lights", limit: 5 });
    const results = out.results as Record<string, unknown>[];
    const lounge = stack.app.index.query({ area: "living_room", domain: "light" }).map((e) => e.entityId);
    expect(lounge.length).toBeGreaterThan(1);
    expect(results.slice(0, lounge.length).map((r) => r.entity_id).sort()).toEqual(lounge.sort());
    for (const r of results) expect(Object.keys(r).sort()).toEqual(["area", "domain", "entity_id", "name", "score", "state", "why"]);
    const typo = await call(stack, "ha_agent_index_search", { query: "fountian pump", limit: 3 });
    expect((typo.results as { entity_id: string }[])[0]?.entity_id).toBe("switch.garden_fountain_pump");
  });

  it("returns a tool error naming the bad argument", async () => {
    const reply = await callTool(stack.client, "ha_agent_state_query", { area: "attic" });
    expect(reply.isError).toBe(true);
    expect(reply.text).toMatch(/area.*attic/);
  });

  it("diagnose_entity on the flapping entity names the flapping and the matching log errors", async () => {
    const out = await call(stack, "ha_agent_diagnose_entity", { entity_id: "switch.garden_fountain_pump" });
    const findings = out.findings as string[];
    expect(findings.some((f) => /^flapping: /.test(f))).toBe(true);
    expect(findings.some((f) => /^integration zha logged \d+ /.test(f))).toBe(true);
    const logs = out.log_entries as { message: string; matched_on: string; count: number }[];
    expect(logs.find((l) => l.message.includes("APS ACK timeout"))).toMatchObject({ matched_on: "entity", count: 37 });
    expect(logs.find((l) => l.message.includes("became unavailable"))).toMatchObject({ matched_on: "device", count: 14 });
    expect(out.integration).toMatchObject({ platform: "zha" });
    expect((out.history as { unavailable_count: number }).unavailable_count).toBeGreaterThanOrEqual(3);
  });

  it("analyze_errors groups the simulator's system log by integration with the right counts", async () => {
    const log = demoHouse().system_log ?? [];
    const expected = new Map<string, number>();
    for (const e of log) if (e.level !== "DEBUG" && e.level !== "INFO") expected.set(integrationOf(e.name), (expected.get(integrationOf(e.name)) ?? 0) + e.count);
    const out = await call(stack, "ha_agent_analyze_errors", { since_hours: 48 });
    const groups = out.integrations as { integration: string; occurrences: number; entities: string[] }[];
    expect(Object.fromEntries(groups.map((g) => [g.integration, g.occurrences]))).toEqual(Object.fromEntries(expected));
    expect(groups.find((g) => g.integration === "zha")?.entities).toContain("switch.garden_fountain_pump");
    expect(groups.find((g) => g.integration === "shelly")?.entities).toContain("switch.garage_door_opener");
    const affected = out.affected as { entity_id: string }[];
    expect(affected.map((a) => a.entity_id)).toContain("sensor.garage_door_status");
  });

  it("render_context renders an area compactly with a token estimate", async () => {
    const out = await call(stack, "ha_agent_render_context", { area: "kitchen" });
    expect(out.text).toContain("## Kitchen (Ground Floor)");
    expect(out.token_estimate).toBeGreaterThan(0);
    expect(out.token_estimate).toBeLessThan(2000);
  });
});

describe("index resync through MCP", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startListedStack();
  });
  afterAll(async () => {
    await stack?.close();
  });

  it("after a mid-burst connection kill with removals during downtime, the index equals HA exactly", async () => {
    const removed = ["light.porch_light", "switch.garden_fountain_pump", "sensor.garden_shed_temperature"];
    const churn = stack.sim.home.states().map((s) => s.entity_id).filter((id) => !removed.includes(id));
    const burst = stack.sim.faults.burst({ changes: 30_000, entityIds: churn });
    while (stack.app.index.stats().eventsApplied < 1000) await new Promise((r) => setTimeout(r, 5));
    expect(stack.app.index.stats().eventsApplied).toBeLessThan(30_000); // the kill lands mid-burst
    await stack.sim.faults.restart({ downtimeMs: 150, whileDown: (home) => removed.forEach((id) => home.removeEntity(id)) });
    await burst;

    const want = Object.fromEntries(stack.sim.home.states().map((s) => [s.entity_id, s.state]));
    const states = async () => {
      const out = await call(stack, "ha_agent_state_query", { include_hidden: true, limit: 1000 });
      return Object.fromEntries((out.entities as { entity_id: string; state: string | null }[]).filter((e) => e.state !== null).map((e) => [e.entity_id, e.state]));
    };
    const sorted = (m: Record<string, unknown>) => JSON.stringify(Object.entries(m).sort());
    expect(await waitUntil(states, (got) => sorted(got) === sorted(want), 10_000)).toEqual(want);
    for (const id of removed) expect(stack.app.index.entity(id)).toBeUndefined();
    const search = await call(stack, "ha_agent_index_search", { query: "porch light", limit: 10 });
    expect((search.results as { entity_id: string }[]).map((r) => r.entity_id)).not.toContain("light.porch_light");
  });
});
