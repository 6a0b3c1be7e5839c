import { haConvertSchema, HaSchemaRefusal, type HaConverter } from "../ha/schema-converters.js";
import { HaFlowAbort, HttpStatusError, InvalidAuth, UpdateFailed } from "./errors.js";
import { authenticateHeaderFrom } from "./auth-header.js";
import { withinTimeout, withMcpSession, type CallToolResult, type SessionWire } from "./mcp-session.js";

/**
 * homeassistant/components/mcp/config_flow.py `validate_input` and
 * coordinator.py `ModelContextProtocolCoordinator._async_update_data` /
 * `ModelContextProtocolTool.async_call`.
 */

export interface Connection {
  fetch: typeof fetch;
  url: string;
  /** `token_manager()`: the access token of the entry; none before sign-in. */
  token?: string;
}

/**
 * config_flow.py `validate_input`: connect, initialize, and require the
 * `tools` capability; the entry's title is the server's name. A 401 becomes
 * InvalidAuth with the parsed `WWW-Authenticate` (`AuthenticateHeader.from_header`).
 */
export async function validateInput(c: Connection): Promise<{ title: string; wire: SessionWire }> {
  try {
    return await withMcpSession({
      url: c.url,
      fetch: c.fetch,
      token: c.token,
      use: async ({ wire }) => {
        if (!wire.initialize?.tools) throw new HaFlowAbort("validate_input", "missing_capabilities", `MCP Server ${c.url} does not support 'Tools' capability`);
        return { title: wire.initialize.serverName ?? "", wire };
      },
    });
  } catch (error) {
    if (error instanceof HttpStatusError && error.response.status === 401) throw new InvalidAuth(authenticateHeaderFrom(c.url, error.response));
    if (error instanceof HaFlowAbort) throw error;
    throw new HaFlowAbort("validate_input", "cannot_connect", `${c.url}: ${(error as Error).message}`);
  }
}

export interface HaTool {
  name: string;
  description: string | undefined;
  inputSchema: Record<string, unknown>;
  parameters: unknown;
}

export interface ToolList {
  tools: HaTool[];
  /** The first page's cursor, which HA never follows. */
  nextCursor: string | undefined;
  ms: number;
  wire: SessionWire;
}

/**
 * coordinator.py `_async_update_data`: a fresh session, one `list_tools()`
 * without a cursor (the first page only), within TIMEOUT; then every tool's
 * `inputSchema` through HA's converter, and any refusal fails the whole
 * refresh (UpdateFailed): Assist gets none of the server's tools.
 */
export async function refreshTools(c: Connection & { converter: HaConverter }): Promise<ToolList> {
  const { value, ms } = await withinTimeout("listing tools", (signal) =>
    withMcpSession({ url: c.url, fetch: c.fetch, token: c.token, signal, use: async ({ client, wire }) => ({ result: await client.listTools(undefined, { signal }), wire }) }),
  ).catch((error: Error) => {
    throw new UpdateFailed(`Error communicating with API: ${error.message}`, { cause: error });
  });
  const tools = value.result.tools.map((tool) => {
    let parameters: unknown;
    try {
      parameters = haConvertSchema(tool.inputSchema, c.converter);
    } catch (error) {
      const rule = error instanceof HaSchemaRefusal ? ` (${error.rule})` : "";
      throw new UpdateFailed(`Error converting schema of ${tool.name} with ${c.converter}${rule}: ${(error as Error).message}`, { cause: error });
    }
    return { name: tool.name, description: tool.description, inputSchema: tool.inputSchema, parameters };
  });
  return { tools, nextCursor: value.result.nextCursor, ms, wire: value.wire };
}

/**
 * coordinator.py `ModelContextProtocolTool.async_call`: a fresh session per
 * call, `call_tool(name, args)` within TIMEOUT; the whole CallToolResult goes
 * back to the model (`model_dump(exclude_unset, exclude_none)`).
 */
export async function callTool(c: Connection & { name: string; args: Record<string, unknown> }): Promise<{ result: CallToolResult; ms: number; wire: SessionWire }> {
  const { value, ms } = await withinTimeout(`calling tool ${c.name}`, (signal) =>
    withMcpSession({ url: c.url, fetch: c.fetch, token: c.token, signal, use: async ({ client, wire }) => ({ result: (await client.callTool({ name: c.name, arguments: c.args }, undefined, { signal })) as CallToolResult, wire }) }),
  );
  return { ...value, ms };
}
