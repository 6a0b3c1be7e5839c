import { createServer, type Server as HttpServer } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { manualClock, silentLogger, type Principal } from "../shared/index.js";
import { ToolRegistry } from "../tools/index.js";
import { createMcpServer } from "./server.js";
import { createMcpSessions, type McpSessions } from "./sessions.js";

const ALEX: Principal = { id: "alex", name: "Alex", kind: "user", isAdmin: false };

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

  /** A tiny HTTP front that treats every caller as Alex. */
  async function serve(options: { maxSessions: number; idleMs: number; clock: ReturnType<typeof manualClock> }) {
    const registry = new ToolRegistry();
    sessions = createMcpSessions({ createServer: () => createMcpServer({ registry, info: { name: "t", version: "1" }, logger: silentLogger }), logger: silentLogger, ...options });
    const s = sessions;
    http = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      await s.handle(req, res, ALEX, chunks.length ? JSON.parse(Buffer.concat(chunks).toString()) : undefined);
    });
    await new Promise<void>((r) => http!.listen(0, "127.0.0.1", () => r()));
    const url = `http://127.0.0.1:${(http.address() as { port: number }).port}/mcp`;
    return (body: unknown, sessionId?: string) =>
      fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...(sessionId ? { "mcp-session-id": sessionId } : {}) },
        body: JSON.stringify(body),
      });
  }

  it("refuses new sessions past the limit with a message, and frees idle ones", async () => {
    const clock = manualClock();
    const post = await serve({ maxSessions: 1, idleMs: 60_000, clock });
    const first = await post(initialize);
    expect(first.status).toBe(200);
    const firstId = first.headers.get("mcp-session-id") as string;
    await first.body?.cancel();

    const refused = await post(initialize);
    expect(refused.status).toBe(503);
    expect(JSON.stringify(await refused.json())).toMatch(/Too many open MCP sessions \(1\)/);

    clock.advance(60_001);
    const second = await post(initialize);
    expect(second.status).toBe(200);
    await second.body?.cancel();
    expect(sessions?.size).toBe(1);
    // The idle session is gone: its id now asks the client to start over.
    expect((await post({ jsonrpc: "2.0", id: 2, method: "tools/list" }, firstId)).status).toBe(404);
  });

  it("answers 503 once closing, so no new work starts during shutdown", async () => {
    const post = await serve({ maxSessions: 5, idleMs: 60_000, clock: manualClock() });
    await sessions!.closeAll();
    expect((await post(initialize)).status).toBe(503);
  });
});
