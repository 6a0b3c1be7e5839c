import { afterEach, describe, expect, it } from "vitest";
import { waitUntil } from "../support/mcp.js";
import { startHeldEndpoint, type HeldEndpoint } from "../support/mcp-endpoint.js";
import { connectClient, MODERN_PROTOCOL } from "../support/stack.js";

const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": MODERN_PROTOCOL,
  "io.modelcontextprotocol/clientInfo": { name: "flood", version: "1" },
  "io.modelcontextprotocol/clientCapabilities": {},
};

/** One raw 2026-07-28 tools/call from `token`; resolves with the status, Retry-After and JSON-RPC body. */
async function call(url: string, token: string, id: number, name: string, args: Record<string, unknown> = {}) {
  const res = await fetch(url, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": MODERN_PROTOCOL, "mcp-method": "tools/call", "mcp-name": name },
    body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args, _meta: ENVELOPE } }),
  });
  return { status: res.status, retryAfter: res.headers.get("retry-after"), body: (await res.json()) as { id: number; result?: { structuredContent?: unknown }; error?: { code: number; message: string } } };
}

describe("one caller cannot lock others out of /mcp", () => {
  let held: HeldEndpoint | undefined;
  afterEach(async () => {
    held?.release();
    await held?.close();
  });

  it("refuses a flooding principal past 32 requests in flight with 429 and Retry-After, while another keeps working; the flooder recovers after", async () => {
    held = await startHeldEndpoint();
    const url = held.mcpUrl;
    const running = Array.from({ length: 32 }, (_, i) => call(url, "flood", i + 1, "ha_agent_hold"));
    await waitUntil(async () => held!.endpoint.inFlight("flood"), (n) => n === 32, 10_000);

    const refused = await Promise.all(Array.from({ length: 8 }, (_, i) => call(url, "flood", 100 + i, "ha_agent_hold")));
    for (const [i, r] of refused.entries()) {
      expect(r.status).toBe(429);
      expect(Number(r.retryAfter)).toBeGreaterThan(0);
      expect(r.body).toMatchObject({ id: 100 + i, error: { code: -32000, message: expect.stringContaining("Wait for some to finish") } });
    }
    expect(held.endpoint.inFlight("flood")).toBe(32);

    // The other caller is untouched: it connects, lists and calls as usual.
    const calm = await connectClient(url, "calm");
    try {
      expect((await calm.listTools()).tools.map((t) => t.name)).toContain("ha_agent_echo");
      expect((await calm.callTool({ name: "ha_agent_echo", arguments: { text: "still here" } })).structuredContent).toEqual({ text: "still here" });
    } finally {
      await calm.close();
    }

    held.release();
    for (const r of await Promise.all(running)) expect(r.body.result?.structuredContent).toEqual({ released: true });
    expect(held.endpoint.inFlight("flood")).toBe(0);
    const after = await call(url, "flood", 200, "ha_agent_echo", { text: "back" });
    expect(after.status).toBe(200);
    expect(after.body.result?.structuredContent).toEqual({ text: "back" });
  }, 30_000);
});
