import type { CallToolResult, Server, Tool } from "@modelcontextprotocol/server";
import type { Logger } from "../shared/index.js";
import { PrincipalSchema, type Principal } from "../shared/index.js";
import { toolJsonSchema, type ToolCallContext, type ToolRegistry, type ToolSpec } from "../tools/index.js";

const described = new WeakMap<ToolRegistry, { count: number; tools: Tool[] }>();

/**
 * MCP's view of the registry's tools, computed once per registry (and again
 * only if a tool is registered later): every request's server instance
 * shares it, so serving tools/list costs no schema conversion.
 */
export function describeTools(registry: ToolRegistry): Tool[] {
  const specs = registry.list();
  const cached = described.get(registry);
  if (cached && cached.count === specs.length) return cached.tools;
  const tools = specs.map((spec: ToolSpec) => ({
    name: registry.wireName(spec.name),
    title: spec.title,
    description: spec.description,
    inputSchema: toolJsonSchema(spec.input, "input") as Tool["inputSchema"],
    outputSchema: toolJsonSchema(spec.output, "output") as Tool["outputSchema"],
    annotations: { title: spec.title, ...spec.annotations },
  }));
  described.set(registry, { count: specs.length, tools });
  return tools;
}

/** The principal travels from the HTTP layer to tool calls inside the SDK's `authInfo`. */
export function principalFromAuthInfo(authInfo: { extra?: Record<string, unknown> } | undefined): Principal | undefined {
  const parsed = PrincipalSchema.safeParse(authInfo?.extra?.principal);
  return parsed.success ? parsed.data : undefined;
}

/**
 * Serves `tools/list` and `tools/call` from the registry. Tool failures come
 * back as `isError` results with a message for the caller; successes carry
 * the structured result and the same JSON as text.
 */
export function bridgeTools(server: Server, registry: ToolRegistry, logger: Logger): void {
  const tools = describeTools(registry);
  server.setRequestHandler("tools/list", async () => ({ tools }));
  server.setRequestHandler("tools/call", async (request, extra): Promise<CallToolResult> => {
    const wireName = request.params.name;
    const name = registry.baseName(wireName);
    const principal = principalFromAuthInfo(extra.http?.authInfo);
    if (!principal) return errorResult("unauthorized", "This call carries no verified caller. Reconnect with an Authorization header.");
    if (name === undefined || !registry.get(name)) {
      return errorResult("unknown_tool", `There is no tool "${wireName}". Call tools/list for the tools this server offers.`);
    }
    const progressToken = request.params._meta?.progressToken;
    const ctx: ToolCallContext = {
      principal,
      // Aborted when the caller disconnects: with one server per request, that is how a call is cancelled.
      signal: extra.mcpReq.signal,
      progress: async ({ progress, total, message }) => {
        if (progressToken === undefined) return;
        await extra.mcpReq.notify({ method: "notifications/progress", params: { progressToken, progress, total, message } });
      },
    };
    const started = performance.now();
    const outcome = await registry.call(name, request.params.arguments, ctx);
    const ms = Math.round(performance.now() - started);
    if (!outcome.ok) {
      logger.info({ tool: wireName, principal: principal.id, ms, code: outcome.error.code }, `tool ${wireName} failed: ${outcome.error.message}`);
      return errorResult(outcome.error.code, outcome.error.message);
    }
    logger.debug({ tool: wireName, principal: principal.id, ms }, `tool ${wireName} answered`);
    return { content: [{ type: "text", text: JSON.stringify(outcome.value) }], structuredContent: outcome.value };
  });
}

function errorResult(code: string, message: string): CallToolResult {
  return { isError: true, content: [{ type: "text", text: `${message} (${code})` }] };
}
