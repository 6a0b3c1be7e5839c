import type { CallToolResult, InputRequiredResult, Server, Tool } from "@modelcontextprotocol/server";
import type { Logger } from "../shared/index.js";
import { forModel, toolJsonSchema, withoutDescriptions, type ToolCallContext, type ToolRegistry, type ToolSpec } from "../tools/index.js";
import type { ApprovalElicitation } from "./approvals/index.js";
import { principalFromAuthInfo } from "./principal.js";
import { startTaskCall, taskRequested, type Era, type TaskAdapter } from "./tasks/index.js";
import { errorResult, structuredResult } from "./tool-result.js";

const described = new WeakMap<ToolRegistry, { count: number; taskKey: string; tools: Tool[] }>();

/**
 * MCP's view of the registry's tools, computed once per registry (and again
 * only if a tool is registered later): every request's server instance
 * shares it, so serving tools/list costs no schema conversion. Tools in
 * `taskTools` say that a 2025-11-25 client may ask for a task (the SDK
 * leaves `execution` out for 2026-07-28 clients, who need no such hint).
 */
export function describeTools(registry: ToolRegistry, taskTools: readonly string[] = []): Tool[] {
  const specs = registry.list();
  const cached = described.get(registry);
  const taskKey = taskTools.join(",");
  if (cached && cached.count === specs.length && cached.taskKey === taskKey) return cached.tools;
  const tools = specs.map((spec: ToolSpec) => ({
    name: registry.wireName(spec.name),
    title: spec.title,
    description: spec.description,
    // What a model reads: the bounds only the validator needs are left out, as in the agent's own declarations.
    inputSchema: forModel(toolJsonSchema(spec.input, "input")) as Tool["inputSchema"],
    outputSchema: withoutDescriptions(toolJsonSchema(spec.output, "output")) as Tool["outputSchema"],
    annotations: { title: spec.title, ...spec.annotations },
    ...(taskTools.includes(spec.name) ? { execution: { taskSupport: "optional" as const } } : {}),
  }));
  described.set(registry, { count: specs.length, taskKey, tools });
  return tools;
}

/**
 * Serves `tools/list` and `tools/call` from the registry. Tool failures come
 * back as `isError` results with a message for the caller; successes carry
 * the structured result and the same JSON as text. With `tasks`, a call of
 * a task tool from a client that allows it is answered with a task instead.
 * With `approvals`, a 2026-07-28 call whose turn waits for a person's yes is
 * answered with an `InputRequiredResult`, and its retry carries the answer.
 */
export function bridgeTools(server: Server, options: { registry: ToolRegistry; logger: Logger; era: Era; tasks?: TaskAdapter; approvals?: ApprovalElicitation }): void {
  const { registry, logger, era, tasks } = options;
  // The stateless 2025 path has no retry with answers, so approvals there are answered with ha_agent_approve.
  const approvals = era === "modern" ? options.approvals : undefined;
  const tools = describeTools(registry, tasks ? registry.list().map((s) => s.name).filter((n) => tasks.runsAsTask(n)) : []);
  server.setRequestHandler("tools/list", async () => ({ tools }));
  server.setRequestHandler("tools/call", async (request, extra): Promise<CallToolResult | InputRequiredResult> => {
    const wireName = request.params.name;
    const name = registry.baseName(wireName);
    const principal = principalFromAuthInfo(extra.http?.authInfo);
    if (!principal) return errorResult("unauthorized", "This call carries no verified caller. Reconnect with an Authorization header.");
    if (name === undefined || !registry.get(name)) {
      return errorResult("unknown_tool", `There is no tool "${wireName}". Call tools/list for the tools this server offers.`);
    }
    if (tasks?.runsAsTask(name) && taskRequested({ era, params: request.params, envelope: extra.mcpReq.envelope })) {
      const answer = await startTaskCall({ adapter: tasks, era, principal, tool: name, arguments: request.params.arguments });
      logger.debug({ tool: wireName, principal: principal.id }, `tool ${wireName} answered with a task`);
      // A task answer is not a CallToolResult; the SDK checks only that it carries `content`.
      return answer as unknown as CallToolResult;
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
    // Set only on a retry whose requestState the SDK verified with `approvals.verify`: the answer to an approval it asked for.
    const state = approvals ? extra.mcpReq.requestState() : undefined;
    const outcome =
      approvals && state !== undefined
        ? await approvals.resume({ tool: name, state, inputResponses: extra.mcpReq.inputResponses, arguments: request.params.arguments, ctx })
        : await registry.call(name, request.params.arguments, ctx);
    const ms = Math.round(performance.now() - started);
    if (!outcome.ok) {
      logger.info({ tool: wireName, principal: principal.id, ms, code: outcome.error.code }, `tool ${wireName} failed: ${outcome.error.message}`);
      return errorResult(outcome.error.code, outcome.error.message);
    }
    const asked = approvals ? await approvals.ask({ tool: name, value: outcome.value, ctx: extra }) : undefined;
    if (asked) {
      logger.debug({ tool: wireName, principal: principal.id, ms }, `tool ${wireName} asked the caller to approve an action`);
      return asked;
    }
    logger.debug({ tool: wireName, principal: principal.id, ms }, `tool ${wireName} answered`);
    return structuredResult(outcome.value);
  });
}
