import { createServer, type Server as HttpServer } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { manualClock, silentLogger, type Principal } from "../shared/index.js";
import { z } from "zod";
import { ToolRegistry, defineTool, ok } from "../tools/index.js";
import { createMcpServer } from "./server.js";
import { createMcpSessions, type McpSessions } from "./sessions.js";

const ALEX: Principal = { id: "alex", name: "Alex", kind: "user", isAdmin: false };
const BEA: Principal = { id: "bea", name: "Bea", kind: "user", isAdmin: false };

const initialize = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
};

describe("MCP sessions", () => {
  let http: HttpServer | undefined;
  let sessions: McpSessions | undefined;
  afterEach(async () => {
    await sessions?.closeAll();
    await new Promise<void>((r) => (http ? http.close(() => r()) : r()));
  });

  /** A tiny HTTP front; the `x-who` header picks the caller (Alex by default). */
  async function serve(options: { maxSessions?: number; maxPerPrincipal?: number; idleMs: number; clock: ReturnType<typeof manualClock> }) {
    const registry = new ToolRegistry();
    registry.register(defineTool({ name: "slow", title: "Slow", description: "Answers after 300 ms.", input: z.object({}), output: z.object({ done: z.boolean() }), annotations: {}, invoke: async () => (await new Promise((r) => setTimeout(r, 300)), ok({ done: true })) }));
    sessions = createMcpSessions({ createServer: () => createMcpServer({ registry, info: { name: "t", version: "1" }, logger: silentLogger }), logger: silentLogger, ...options });
    const s = sessions;
    http = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      await s.handle(req, res, req.headers["x-who"] === "bea" ? BEA : ALEX, chunks.length ? JSON.parse(Buffer.concat(chunks).toString()) : undefined);
    });
    await new Promise<void>((r) => http!.listen(0, "127.0.0.1", () => r()));
    const url = `http://127.0.0.1:${(http.address() as { port: number }).port}/mcp`;
    return (body: unknown, sessionId?: string, who = "alex") =>
      fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "x-who": who, ...(sessionId ? { "mcp-session-id": sessionId } : {}) },
        body: JSON.stringify(body),
      });
  }

  it("evicts a principal's least recently used session instead of refusing a new one", async () => {
    const clock = manualClock();
    const post = await serve({ maxPerPrincipal: 2, idleMs: 60_000, clock });
    const open = async (who = "alex") => {
      const r = await post(initialize, undefined, who);
      expect(r.status).toBe(200);
      await r.body?.cancel();
      return r.headers.get("mcp-session-id") as string;
    };
    const a1 = await open();
    const a2 = await open();
    clock.advance(1);
    // a1 is used again, so a2 is now the least recently used.
    expect((await post({ jsonrpc: "2.0", method: "notifications/initialized" }, a1)).status).toBe(202);
    const a3 = await open();
    expect(sessions!.countFor("alex")).toBe(2);
    expect((await post({ jsonrpc: "2.0", id: 2, method: "tools/list" }, a2)).status).toBe(404);
    expect((await post({ jsonrpc: "2.0", id: 3, method: "tools/list" }, a3)).status).toBe(200);
  });

  it("never lets one principal's sessions push out another's under the global cap", async () => {
    const post = await serve({ maxSessions: 3, maxPerPrincipal: 10, idleMs: 60_000, clock: manualClock() });
    const bea = await post(initialize, undefined, "bea");
    const beaId = bea.headers.get("mcp-session-id") as string;
    await bea.body?.cancel();
    for (let i = 0; i < 10; i++) await (await post(initialize)).body?.cancel();
    expect(sessions!.size).toBe(3);
    expect(sessions!.countFor("bea")).toBe(1);
    expect((await post({ jsonrpc: "2.0", id: 9, method: "tools/list" }, beaId, "bea")).status).toBe(200);
  });

  it("expires idle sessions: their id asks the client to start over", async () => {
    const clock = manualClock();
    const post = await serve({ idleMs: 60_000, clock });
    const first = await post(initialize);
    const firstId = first.headers.get("mcp-session-id") as string;
    await first.body?.cancel();
    clock.advance(60_001);
    expect((await post({ jsonrpc: "2.0", id: 2, method: "tools/list" }, firstId)).status).toBe(404);
    expect(sessions?.size).toBe(0);
  });

  it("answers a request whose id is still in flight on the session with an error at once, instead of hanging", async () => {
    const post = await serve({ idleMs: 60_000, clock: manualClock() });
    const init = await post(initialize);
    const id = init.headers.get("mcp-session-id") as string;
    await init.body?.cancel();
    await (await post({ jsonrpc: "2.0", method: "notifications/initialized" }, id)).body?.cancel();
    const call = { jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "ha_agent_slow", arguments: {} } };
    const first = post(call, id);
    await new Promise((r) => setTimeout(r, 50));
    const second = await post(call, id);
    expect(second.status).toBe(409);
    expect(await second.json()).toMatchObject({ id: 5, error: { code: -32600, message: expect.stringContaining("already in use") } });
    const firstText = await (await first).text();
    expect(firstText).toContain('"done":true');
    // Once answered, the id is free again.
    expect((await post({ ...call }, id)).status).toBe(200);
  });

  it("answers 503 once closing, so no new work starts during shutdown", async () => {
    const post = await serve({ idleMs: 60_000, clock: manualClock() });
    await sessions!.closeAll();
    expect((await post(initialize)).status).toBe(503);
  });
});
