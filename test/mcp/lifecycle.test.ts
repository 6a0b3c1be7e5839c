import { afterEach, describe, expect, it } from "vitest";
import { connectLegacyClient } from "../support/mcp-legacy.js";
import { waitUntil } from "../support/mcp.js";
import { startHeldEndpoint, type HeldEndpoint } from "../support/mcp-endpoint.js";
import { connectClient, MODERN_PROTOCOL } from "../support/stack.js";

const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": MODERN_PROTOCOL,
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
  "io.modelcontextprotocol/clientCapabilities": {},
};

describe("MCP requests end with their caller and with the program", () => {
  let held: HeldEndpoint | undefined;
  afterEach(async () => {
    held?.release();
    await held?.close();
  });

  it("aborts a running tool when a 2026-07-28 caller disconnects, and frees its slot", async () => {
    held = await startHeldEndpoint();
    const client = await connectClient(held.mcpUrl, "calm");
    const gone = new AbortController();
    const pending = client.callTool({ name: "ha_agent_hold", arguments: {} }, { signal: gone.signal }).catch((err: unknown) => err);
    await waitUntil(async () => held!.held.length, (n) => n === 1, 10_000);
    gone.abort();
    await waitUntil(async () => held!.held[0]!.aborted, (aborted) => aborted, 10_000);
    await waitUntil(async () => held!.endpoint.inFlight("calm"), (n) => n === 0, 10_000);
    expect(await pending).toBeInstanceOf(Error);
    await client.close();
  });

  it("aborts a running tool when a 2025 caller closes its connection", async () => {
    held = await startHeldEndpoint();
    const { client } = await connectLegacyClient(held.mcpUrl, "calm");
    const pending = client.callTool({ name: "ha_agent_hold", arguments: {} }).catch((err: unknown) => err);
    await waitUntil(async () => held!.held.length, (n) => n === 1, 10_000);
    await client.close();
    await waitUntil(async () => held!.held[0]!.aborted, (aborted) => aborted, 10_000);
    await pending;
  });

  it("ends open event streams and running calls when it closes, so a stop never waits on a caller", async () => {
    held = await startHeldEndpoint();
    const res = await fetch(held.mcpUrl, {
      method: "POST",
      headers: { authorization: "Bearer calm", "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": MODERN_PROTOCOL, "mcp-method": "tools/call", "mcp-name": "ha_agent_hold" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "ha_agent_hold", arguments: {}, _meta: { ...ENVELOPE, progressToken: "p" } } }),
    });
    // The progress turned the answer into an event stream, which is open now.
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    expect((await reader.read()).value).toContain("notifications/progress");
    expect(held.endpoint.inFlight("calm")).toBe(1);

    await held.endpoint.close();
    expect(held.held[0]!.aborted).toBe(true);
    let rest = "";
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += chunk.value;
    expect(rest).not.toContain('"released":true');
    expect(held.endpoint.inFlight("calm")).toBe(0);
    // Nothing new starts once closed.
    const late = await fetch(held.mcpUrl, { method: "POST", headers: { authorization: "Bearer calm", "content-type": "application/json" }, body: "{}" });
    expect(late.status).toBe(503);
  });

});
