/**
 * The baseline of bench:program: the bare MCP SDK (McpServer over
 * Streamable HTTP, one session per client, no auth) serving, under HA
 * Agent's tool names, tools that answer with fixed payloads: exactly what HA
 * Agent answered. Whatever HA Agent costs beyond this is its own.
 * Usage: node bare-server.js PAYLOAD_FILE (a JSON object, tool name →
 * structured answer); prints "port N".
 */
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

const payloads = JSON.parse(readFileSync(process.argv[2]!, "utf8")) as Record<string, Record<string, unknown>>;
const transports = new Map<string, StreamableHTTPServerTransport>();

function newServer(): McpServer {
  const server = new McpServer({ name: "bare", version: "1.0.0" });
  for (const [name, payload] of Object.entries(payloads)) {
    // Loose inputs: the baseline pays the SDK's argument parsing, not ours.
    server.registerTool(name, { description: "A fixed answer.", inputSchema: { area: z.string().optional(), query: z.string().optional(), limit: z.number().optional() } }, async () => ({
      content: [{ type: "text", text: JSON.stringify(payload) }],
      structuredContent: payload,
    }));
  }
  return server;
}

const http = createServer(async (req, res) => {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString()) as unknown) : undefined;
  const id = req.headers["mcp-session-id"];
  let transport = typeof id === "string" ? transports.get(id) : undefined;
  if (!transport && isInitializeRequest(body)) {
    transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (sid) => void transports.set(sid, transport!) });
    await newServer().connect(transport);
  }
  if (!transport) {
    res.writeHead(404).end();
    return;
  }
  await transport.handleRequest(req, res, body);
});
http.listen(0, "127.0.0.1", () => console.log(`port ${(http.address() as AddressInfo).port}`));
