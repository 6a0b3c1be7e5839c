import { haStyleToken } from "@ha-agent/ha-simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../src/shared/index.js";
import { callTool } from "../support/mcp.js";
import { connectClient, startStack, type Stack } from "../support/stack.js";

const initialize = (token?: string): RequestInit => ({
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } }),
});

describe("MCP authentication", () => {
  let stack: Stack;
  // Every log line the program writes, at the most verbose level.
  let logged = "";
  beforeAll(async () => {
    const logger = createLogger({ level: "trace", destination: { write: (line: string) => void (logged += line) } });
    stack = await startStack({ authCacheMs: 300, logger });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it("answers 401 with WWW-Authenticate when the token is missing", async () => {
    const res = await fetch(stack.mcpUrl, initialize());
    expect(res.status).toBe(401);
    // The challenge points clients at the sign-in with Home Assistant (RFC 9728), values in quotes.
    expect(res.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${stack.baseUrl}/.well-known/oauth-protected-resource/mcp", scope="mcp"`);
    expect(((await res.json()) as { message: string }).message).toMatch(/Authorization: Bearer/);
  });

  it("answers 401 with error=invalid_token when Home Assistant rejects the token", async () => {
    const res = await fetch(stack.mcpUrl, initialize(haStyleToken("not-a-real-user")));
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toMatch(/error="invalid_token"/);
  });

  it("stops a 2026-07-28 client with a rejected token at connect, with the server's 401", async () => {
    const refused = await connectClient(stack.mcpUrl, haStyleToken("not-a-real-user")).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(Error);
    expect(String(refused)).toMatch(/401/);
  });

  it("accepts a token Home Assistant accepts, for any of its users, and opens no protocol session", async () => {
    stack.sim.users.add({ id: "user-sam", name: "Sam", isAdmin: false, tokens: [haStyleToken("sam-1")] });
    const res = await fetch(stack.mcpUrl, initialize(haStyleToken("sam-1")));
    expect(res.status).toBe(200);
    expect(res.headers.get("mcp-session-id")).toBeNull();
  });

  it("refuses a token once Home Assistant has revoked it and the cached answer expires", async () => {
    stack.sim.users.add({ id: "user-kim", name: "Kim", isAdmin: false, tokens: [haStyleToken("kim-1")] });
    expect((await fetch(stack.mcpUrl, initialize(haStyleToken("kim-1")))).status).toBe(200);
    stack.sim.users.revokeToken(haStyleToken("kim-1"));
    await new Promise((r) => setTimeout(r, 400));
    expect((await fetch(stack.mcpUrl, initialize(haStyleToken("kim-1")))).status).toBe(401);
  });

  it("serves every request as the caller its token names, whatever Mcp-Session-Id it carries", async () => {
    stack.sim.users.add({ id: "user-alex", name: "Alex", isAdmin: false, tokens: [haStyleToken("alex-1")] });
    const owners = (await callTool(stack.client, "ha_agent_start_session", {})).value.session_id as string;
    const res = await fetch(stack.mcpUrl, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${haStyleToken("alex-1")}`, "mcp-session-id": "a-session-of-someone-else" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "ha_agent_list_sessions", arguments: {} } }),
    });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain('"sessions"');
    expect(text).not.toContain(owners);
  });

  it("serves /healthz without a token", async () => {
    const res = await fetch(`${stack.baseUrl}/healthz`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { status: string; components: Record<string, { ok: boolean }> };
    expect(body.status).toBe("ok");
    expect(body.components.home_assistant?.ok).toBe(true);
  });

  it("a client connected with a valid token can list tools", async () => {
    const client = await connectClient(stack.mcpUrl, stack.token);
    try {
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
  });

  it("never writes a token into a log line", async () => {
    await fetch(stack.mcpUrl, initialize("a-wrong-token-that-must-not-be-logged"));
    const client = await connectClient(stack.mcpUrl, stack.token);
    await client.callTool({ name: "ha_agent_state_query", arguments: { area: "kitchen" } });
    await client.close();
    expect(logged.length).toBeGreaterThan(0);
    expect(logged).toContain("MCP client connected");
    expect(logged).not.toContain(stack.token);
    expect(logged).not.toContain("a-wrong-token-that-must-not-be-logged");
    for (const token of [haStyleToken("sam-1"), haStyleToken("kim-1"), haStyleToken("alex-1")]) expect(logged).not.toContain(token);
  });
});
