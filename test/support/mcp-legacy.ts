import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

/** The 2025 protocol revisions HA Agent still serves, through the SDK's stateless path. */
export type LegacyProtocol = "2025-11-25" | "2025-06-18";

/**
 * A client of the 1.x MCP SDK, as 2025-era MCP clients are: it starts with
 * `initialize`. It always asks for 2025-11-25; for 2025-06-18 its
 * `initialize` is rewritten on the way out, and the client then speaks the
 * revision the server agreed to.
 */
export async function connectLegacyClient(mcpUrl: string, token: string, protocol: LegacyProtocol = "2025-11-25"): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const rewrite: typeof fetch = (input, init) => {
    const body = typeof init?.body === "string" && init.body.includes('"method":"initialize"') ? init.body.replace(/"protocolVersion":"[^"]+"/, `"protocolVersion":"${protocol}"`) : init?.body;
    return fetch(input, { ...init, body });
  };
  const client = new Client({ name: "ha-agent-tests-2025", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), { requestInit: { headers: { authorization: `Bearer ${token}` } }, fetch: rewrite });
  await client.connect(transport);
  return { client, transport };
}
