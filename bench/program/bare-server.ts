/**
 * The baseline of bench:program: the bare MCP SDK v2 (McpServer behind
 * createMcpHandler, a fresh instance per request as the SDK asks, on a plain
 * node:http server with the same bearer check and body limit), serving,
 * under HA Agent's tool names, tools that answer with fixed payloads:
 * exactly what HA Agent answered. Whatever HA Agent costs beyond this is its
 * own. It speaks 2026-07-28 and, through the SDK's stateless path, 2025.
 * Usage: node bare-server.js PAYLOAD_FILE TOKEN (a JSON object, tool name →
 * structured answer); prints "port N".
 */
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";

const payloads = JSON.parse(readFileSync(process.argv[2]!, "utf8")) as Record<string, Record<string, unknown>>;
const token = process.argv[3]!;
const MAX_BODY = 4 * 1024 * 1024;

function newServer(): McpServer {
  const server = new McpServer({ name: "bare", version: "1.0.0" });
  for (const [name, payload] of Object.entries(payloads)) {
    // Loose inputs: the baseline pays the SDK's argument parsing, not ours.
    server.registerTool(name, { description: "A fixed answer.", inputSchema: z.object({ area: z.string().optional(), query: z.string().optional(), limit: z.number().optional() }) }, async () => ({
      content: [{ type: "text", text: JSON.stringify(payload) }],
      structuredContent: payload,
    }));
  }
  return server;
}

const handler = createMcpHandler(() => newServer());

const http = createServer(async (req, res) => {
  if (req.headers.authorization !== `Bearer ${token}`) {
    res.writeHead(401, { "content-type": "application/json" }).end('{"error":"unauthorized"}');
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > MAX_BODY) {
      res.writeHead(413).end();
      return;
    }
    chunks.push(c as Buffer);
  }
  let parsedBody: unknown;
  try {
    parsedBody = chunks.length ? JSON.parse(Buffer.concat(chunks).toString("utf8")) : undefined;
  } catch {
    res.writeHead(400).end();
    return;
  }
  const abort = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) abort.abort();
  });
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string" && k !== "content-length" && k !== "host" && k !== "connection") headers.set(k, v);
  const request = new Request(new URL(req.url ?? "/", "http://localhost"), { method: req.method, headers, signal: abort.signal });
  const response = await handler.fetch(request, { authInfo: { token: "", clientId: "bare", scopes: [] }, ...(parsedBody === undefined ? {} : { parsedBody }) });
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (response.body) for await (const chunk of response.body) res.write(chunk);
  res.end();
});
http.listen(0, "127.0.0.1", () => console.log(`port ${(http.address() as AddressInfo).port}`));
