import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectLegacyClient, type LegacyProtocol } from "../support/mcp-legacy.js";
import { connectClient, MODERN_PROTOCOL, startStack, type Stack } from "../support/stack.js";

/** The per-request envelope of a 2026-07-28 request. */
const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": MODERN_PROTOCOL,
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
  "io.modelcontextprotocol/clientCapabilities": {},
};

/** A tool that reports progress four times. */
const DIAGNOSE = { name: "ha_agent_diagnose_entity", arguments: { entity_id: "switch.garden_fountain_pump" } };

describe("/mcp across protocol revisions", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.close();
  });

  /** A raw 2026-07-28 request, with the headers the protocol asks for unless `headers` overrides them. */
  async function modern(method: string, params: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
    const res = await fetch(stack.mcpUrl, {
      method: "POST",
      headers: { authorization: `Bearer ${stack.token}`, "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": MODERN_PROTOCOL, "mcp-method": method, ...headers },
      body: JSON.stringify({ jsonrpc: "2.0", id: 7, method, params: { ...params, _meta: ENVELOPE } }),
    });
    return { status: res.status, headers: res.headers, body: (await res.json()) as { result?: Record<string, unknown>; error?: { code: number; message: string } } };
  }

  /** Checks a structured result against the tool's own output schema. */
  function matchesOutputSchema(tool: string, value: unknown): boolean {
    const spec = stack.app.registry.get(stack.app.registry.baseName(tool)!);
    return spec!.output.safeParse(value).success;
  }

  /** The two calls every client makes, in the shape both SDK generations can serve. */
  interface Caller {
    listTools(): Promise<{ tools: { name: string }[] }>;
    callTool(params: { name: string; arguments: Record<string, unknown> }, options?: { onprogress?: (p: { progress: number }) => void }): Promise<{ isError?: boolean; structuredContent?: unknown }>;
  }

  /** Lists, calls with progress, and checks the structured output: what every client must be able to do. */
  async function exercise(client: Caller) {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain("ha_agent_state_query");
    const query = await client.callTool({ name: "ha_agent_state_query", arguments: { area: "kitchen", limit: 2 } });
    expect(query.isError).toBeFalsy();
    expect(matchesOutputSchema("ha_agent_state_query", query.structuredContent)).toBe(true);
    const updates: number[] = [];
    const diagnosed = await client.callTool(DIAGNOSE, { onprogress: (p) => void updates.push(p.progress) });
    expect(diagnosed.isError).toBeFalsy();
    expect(matchesOutputSchema(DIAGNOSE.name, diagnosed.structuredContent)).toBe(true);
    expect(updates).toEqual([1, 2, 3, 4]);
  }

  it("answers server/discover with 2026-07-28 and the tools capability", async () => {
    const { status, body } = await modern("server/discover");
    expect(status).toBe(200);
    expect(body.result).toMatchObject({ supportedVersions: [MODERN_PROTOCOL], capabilities: { tools: {} }, resultType: "complete" });
    expect((body.result!._meta as Record<string, { name: string }>)["io.modelcontextprotocol/serverInfo"]?.name).toBe("ha-agent");
  });

  it("lets a 2026-07-28 client cache tools/list for five minutes, privately", async () => {
    const { status, body } = await modern("tools/list");
    expect(status).toBe(200);
    expect(body.result).toMatchObject({ ttlMs: 300_000, cacheScope: "private" });
  });

  it("serves a client pinned to 2026-07-28 without initialize: tools, progress and structured output", async () => {
    const client = await connectClient(stack.mcpUrl, stack.token, "pin");
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe(MODERN_PROTOCOL);
      await exercise(client);
    } finally {
      await client.close();
    }
  });

  it("is found as a 2026-07-28 server by a client in auto mode", async () => {
    const client = await connectClient(stack.mcpUrl, stack.token, "auto");
    try {
      expect(client.getProtocolEra()).toBe("modern");
      expect(client.getNegotiatedProtocolVersion()).toBe(MODERN_PROTOCOL);
      await exercise(client);
    } finally {
      await client.close();
    }
  });

  it.each<LegacyProtocol>(["2025-11-25", "2025-06-18"])("still serves a %s client that starts with initialize, with progress and no protocol session", async (protocol) => {
    const { client, transport } = await connectLegacyClient(stack.mcpUrl, stack.token, protocol);
    try {
      expect(transport.protocolVersion).toBe(protocol);
      expect(transport.sessionId).toBeUndefined();
      await exercise({
        listTools: () => client.listTools(),
        callTool: (params, options) => client.callTool(params, undefined, options) as ReturnType<Caller["callTool"]>,
      });
    } finally {
      await client.close();
    }
  });

  it("checks the 2026-07-28 headers as the SDK does: Mcp-Method and Mcp-Name must agree with the body", async () => {
    const noName = await modern("tools/call", { name: "ha_agent_state_query", arguments: {} });
    expect(noName.status).toBe(400);
    expect(noName.body.error?.code).toBe(-32020);
    const wrongName = await modern("tools/call", { name: "ha_agent_state_query", arguments: {} }, { "mcp-name": "ha_agent_index_search" });
    expect(wrongName.status).toBe(400);
    const wrongMethod = await modern("tools/list", {}, { "mcp-method": "prompts/list" });
    expect(wrongMethod.status).toBe(400);
    const named = await modern("tools/call", { name: "ha_agent_state_query", arguments: { area: "kitchen", limit: 1 } }, { "mcp-name": "ha_agent_state_query" });
    expect(named.status).toBe(200);
    expect(named.body.result?.isError).toBeFalsy();
  });

  it("refuses a protocol revision it does not speak, naming the one it does", async () => {
    const { status, body } = await modern("tools/list", {}, { "mcp-protocol-version": "2099-01-01" });
    expect(status).toBe(400);
    expect(JSON.stringify(body.error)).toContain(MODERN_PROTOCOL);
  });

  it("answers GET with 405 and Allow: POST, since there is no session stream to open", async () => {
    const res = await fetch(stack.mcpUrl, { headers: { authorization: `Bearer ${stack.token}`, accept: "text/event-stream" } });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
  });
});
