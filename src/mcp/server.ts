import { Server } from "@modelcontextprotocol/server";
import type { Logger } from "../shared/index.js";
import type { ToolRegistry } from "../tools/index.js";
import type { ApprovalElicitation } from "./approvals/index.js";
import { LEGACY_TASKS_CAPABILITY, registerTaskHandlers, TASKS_EXTENSION, type Era, type TaskAdapter } from "./tasks/index.js";
import { bridgePrompts, type PromptSource } from "./prompts.js";
import { bridgeTools } from "./tool-bridge.js";

export interface ServerInfo {
  name: string;
  version: string;
}

const INSTRUCTIONS = [
  "HA Agent knows this Home Assistant home: its entities, devices, areas, floors, labels and live states.",
  "Use index_search to find entities from the user's own words, then state_query for current states.",
  "Tool names start with ha_agent.",
].join(" ");

/**
 * How long a 2026-07-28 client may reuse tools/list. The list depends only on
 * the add-on's options, which change only with a restart; "private" because
 * the answer is served to an authenticated caller.
 */
export const TOOLS_LIST_TTL_MS = 300_000;

/**
 * One MCP server for one HTTP request, serving the shared tool registry.
 * The SDK serves every request with a fresh instance; building one costs a
 * few microseconds, because the tools' JSON Schemas are computed once per
 * registry, not here.
 */
export function createMcpServer(options: { registry: ToolRegistry; info: ServerInfo; logger: Logger; era?: Era; tasks?: TaskAdapter; approvals?: ApprovalElicitation; prompts?: PromptSource }): Server {
  const { tasks } = options;
  const era = options.era ?? "modern";
  const server = new Server(
    { name: options.info.name, version: options.info.version, title: "HA Agent" },
    {
      // Tasks in both eras' words: the extension for 2026-07-28 (server/discover), the core capability for 2025-11-25 (initialize).
      capabilities: {
        tools: { listChanged: false },
        // Personas change when their files do; a 2026-07-28 client hears it on subscriptions/listen.
        ...(options.prompts ? { prompts: { listChanged: true }, completions: {} } : {}),
        ...(tasks ? { extensions: { [TASKS_EXTENSION]: {} }, tasks: LEGACY_TASKS_CAPABILITY } : {}),
      },
      instructions: INSTRUCTIONS,
      // Applied to 2026-07-28 answers only; 2025 clients have no cache fields.
      cacheHints: { "tools/list": { ttlMs: TOOLS_LIST_TTL_MS, cacheScope: "private" } },
      // A requestState comes back from the client: only one we signed for this caller is let through (else -32602).
      ...(options.approvals ? { requestState: { verify: options.approvals.verify } } : {}),
    },
  );
  bridgeTools(server, { registry: options.registry, logger: options.logger, era, ...(tasks ? { tasks } : {}), ...(options.approvals ? { approvals: options.approvals } : {}) });
  if (options.prompts) bridgePrompts(server, { source: options.prompts, logger: options.logger });
  if (tasks) registerTaskHandlers(server, { adapter: tasks, era });
  return server;
}
