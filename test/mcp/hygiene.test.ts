import { request, Agent, type IncomingMessage } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { haStyleToken } from "@ha-agent/ha-simulator";
import { startStack, type Stack } from "../support/stack.js";

interface Reply {
  status: number;
  headers: IncomingMessage["headers"];
  body: string;
  reusedSocket: boolean;
}

function send(agent: Agent, url: string, options: { method: string; body?: Buffer; headers?: Record<string, string> }): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method, agent, headers: { "content-type": "application/json", ...options.headers } }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body, reusedSocket: req.reusedSocket }));
    });
    req.on("error", reject);
    req.end(options.body);
  });
}

describe("connection hygiene", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.close();
  });

  it("answers an oversized body with 413 and keeps the keep-alive connection usable", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const auth = { authorization: `Bearer ${stack.token}` };
    const tooBig = await send(agent, stack.mcpUrl, { method: "POST", body: Buffer.alloc(4 * 1024 * 1024 + 100, 0x20), headers: auth });
    expect(tooBig.status).toBe(413);
    expect(JSON.parse(tooBig.body)).toMatchObject({ error: { code: -32600, message: expect.stringContaining("larger than") } });
    const next = await send(agent, `${stack.baseUrl}/healthz`, { method: "GET" });
    expect(next.status).toBe(200);
    expect(next.reusedSocket).toBe(true);
    agent.destroy();
  });

  it("answers a body that is not JSON with a JSON-RPC parse error that says so, on a connection that stays usable", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const bad = await send(agent, stack.mcpUrl, { method: "POST", body: Buffer.from('{"jsonrpc": "2.0", "id": 1, "method": "tools/list"'), headers: { authorization: `Bearer ${stack.token}` } });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body)).toMatchObject({ jsonrpc: "2.0", error: { code: -32700, message: "The request body is not valid JSON." }, id: null });
    const next = await send(agent, `${stack.baseUrl}/healthz`, { method: "GET" });
    expect(next.status).toBe(200);
    expect(next.reusedSocket).toBe(true);
    agent.destroy();
  });

  it("closes the connection cleanly, with Connection: close, when the body is far too large to drain", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const huge = await send(agent, stack.mcpUrl, { method: "POST", body: Buffer.alloc(8 * 1024 * 1024, 0x20), headers: { authorization: `Bearer ${stack.token}` } }).catch((err: NodeJS.ErrnoException) => err);
    // Either the client saw the 413 with Connection: close, or the server ended the upload it would not read.
    if (!(huge instanceof Error)) {
      expect(huge.status).toBe(413);
      expect(huge.headers.connection).toBe("close");
    }
    const next = await send(agent, `${stack.baseUrl}/healthz`, { method: "GET" });
    expect(next.status).toBe(200);
    agent.destroy();
  });

  it("does not show Home Assistant's internal address when a token cannot be checked", async () => {
    // A token the verifier has not cached yet, while HA is away: 503 without HA's URL.
    const restarting = stack.sim.faults.restart({ downtimeMs: 2_000 });
    await new Promise((r) => setTimeout(r, 100));
    const reply = await send(new Agent(), stack.mcpUrl, { method: "POST", body: Buffer.from("{}"), headers: { authorization: `Bearer ${haStyleToken("not-cached-yet")}` } });
    await restarting;
    expect(reply.status).toBe(503);
    expect(reply.body).toContain("Try again in a few seconds");
    expect(reply.body).not.toContain("127.0.0.1");
    expect(reply.body).not.toContain("http");
  });

  it("answers a flood of unknown tokens with 429 and Retry-After, while a known token keeps working", async () => {
    const statuses: number[] = [];
    let retryAfter: string | string[] | undefined;
    for (let i = 0; i < 40; i++) {
      const reply = await send(new Agent(), stack.mcpUrl, { method: "POST", body: Buffer.from("{}"), headers: { authorization: `Bearer ${haStyleToken(`flood-${i}`)}` } });
      statuses.push(reply.status);
      if (reply.status === 429) retryAfter = reply.headers["retry-after"];
    }
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(10);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(30);
    expect(Number(retryAfter)).toBeGreaterThan(0);
    const known = await fetch(`${stack.baseUrl}/mcp`, { method: "POST", headers: { authorization: `Bearer ${stack.token}`, "content-type": "application/json", accept: "application/json, text/event-stream" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } }) });
    expect(known.status).toBe(200);
  });
});
