import type { Client } from "@modelcontextprotocol/client";
import type { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";

export interface ToolReply {
  isError: boolean;
  /** The structured result (empty for errors). */
  value: Record<string, unknown>;
  /** The first text block: the same JSON for results, the message for errors. */
  text: string;
}

/** Calls a tool by its wire name and returns its parts in one flat shape. */
export async function callTool(client: Client | LegacyClient, name: string, args: Record<string, unknown> = {}): Promise<ToolReply> {
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content as { type: string; text: string }[] | undefined)?.find((c) => c.type === "text")?.text ?? "";
  return { isError: result.isError === true, value: (result.structuredContent ?? {}) as Record<string, unknown>, text };
}

/** Polls `probe` until `accept` holds; fails with the last value seen. */
export async function waitUntil<T>(probe: () => Promise<T>, accept: (value: T) => boolean, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (accept(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms; last value: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
