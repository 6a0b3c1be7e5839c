import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { googleFormatSchema, haModelSchema } from "../support/ha/schema-converters.js";
import { waitUntil } from "../support/ha/wait.js";
import { callTool } from "../support/mcp.js";
import { modernRequest } from "../support/mcp-raw.js";
import { startStack, type Stack } from "../support/stack.js";

type Json = Record<string, unknown>;
const property = (schema: Json, name: string) => (schema.properties as Record<string, Json>)[name]!;

/**
 * What Home Assistant sends after its converters changed a parameter's
 * type on the way to the model (test/support/ha/schema-converters.ts), and
 * how the server takes it: a bounded integer is told as a number, so it
 * comes back as 5.0; Google is told an open object is {"json": string}, and
 * HA passes the model's {"json": "..."} on as it is.
 */
describe("arguments as Home Assistant sends them after converting the schemas", () => {
  let stack: Stack;
  let schemas: Map<string, Json>;

  beforeAll(async () => {
    stack = await startStack({ env: { ALLOW_ACTUATION: "true", ACTUATION_ALLOWLIST: "light.*" } });
    schemas = new Map((await stack.client.listTools()).tools.map((t) => [t.name, t.inputSchema as Json]));
  });
  afterAll(() => stack.close());

  it("takes a bounded integer sent as 5.0, as a model told it is a number sends it", async () => {
    expect(property(haModelSchema(schemas.get("ha_agent_index_search")!, "probatio"), "limit")).toMatchObject({ type: "number", minimum: 1, maximum: 100 });
    let sent = "";
    const answer = await modernRequest<{ isError?: boolean; structuredContent: { results: unknown[] } }>({
      url: stack.mcpUrl,
      token: stack.token,
      method: "tools/call",
      name: "ha_agent_index_search",
      params: { name: "ha_agent_index_search", arguments: { query: "light", limit: 2 } },
      rewrite: (json) => (sent = json.replace('"limit":2', '"limit":2.0')),
    });
    expect(sent).toContain('"limit":2.0');
    expect(answer.result?.isError, JSON.stringify(answer)).toBeFalsy();
    expect(answer.result?.structuredContent.results).toHaveLength(2);
  });

  it("takes service data as Google's {json: text}, the form its model is offered", async () => {
    expect(property(googleFormatSchema(haModelSchema(schemas.get("ha_agent_call_service")!, "probatio")), "service_data")).toMatchObject({ type: "OBJECT", properties: { json: { type: "STRING" } } });
    stack.sim.home.setState("light.kitchen_ceiling", "off");
    const call = () => callTool(stack.client, "ha_agent_call_service", { action: "light.turn_on", entity_id: "light.kitchen_ceiling", service_data: { json: '{"brightness_pct": 40}' } });
    await waitUntil(() => stack.app.ha.status === "connected", "the connection to Home Assistant");
    let reply = await call();
    // The stack's half-second heartbeat can drop the connection on a loaded machine; that is not what this test is about.
    if (reply.isError && reply.text.includes("Not connected")) {
      await waitUntil(() => stack.app.ha.status === "connected", "the connection to Home Assistant again");
      reply = await call();
    }
    expect(reply.isError, reply.text).toBe(false);
    expect(stack.sim.home.getState("light.kitchen_ceiling")).toMatchObject({ state: "on", attributes: { brightness: 102 } });
  });

  it("still bounds what the published schema no longer says: the number of service fields", async () => {
    const data = Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`field_${i}`, i]));
    const reply = await callTool(stack.client, "ha_agent_call_service", { action: "light.turn_on", entity_id: "light.kitchen_ceiling", data });
    expect(reply).toMatchObject({ isError: true, text: expect.stringContaining("data: at most 64 keys") });
  });
});
