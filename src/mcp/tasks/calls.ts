import { CLIENT_CAPABILITIES_META_KEY, MissingRequiredClientCapabilityError } from "@modelcontextprotocol/server";
import type { Principal } from "../../shared/index.js";
import { errorResult } from "../tool-result.js";
import type { TaskAdapter } from "./adapter.js";
import { legacyCreated } from "./legacy.js";
import { modernCreated } from "./modern.js";
import { ClientDeclaresTasksSchema, LegacyTaskRequestSchema, TASKS_EXTENSION, type LegacyCreateTaskResult, type ModernCreateTaskResult, type Era } from "./wire.js";

/**
 * Whether a tools/call may be answered with a task. A 2026-07-28 client says
 * so by declaring the extension in the request's client capabilities (the
 * server then decides); a 2025-11-25 client by sending `params.task`.
 */
export function taskRequested(args: { era: Era; params: Record<string, unknown>; envelope: unknown }): boolean {
  if (args.era === "legacy") return LegacyTaskRequestSchema.safeParse(args.params.task).success;
  return declaresTasks(args.envelope);
}

/** Whether a 2026-07-28 request's envelope declares the tasks extension in its client capabilities. */
export function declaresTasks(envelope: unknown): boolean {
  // The SDK types the envelope as `{}`; its keys are the protocol's reserved _meta names.
  const capabilities = (envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_META_KEY];
  return ClientDeclaresTasksSchema.safeParse(capabilities).success;
}

/** The extension's -32021 for a 2026-07-28 client that uses tasks without declaring them. */
export function tasksNotDeclared(what: string): MissingRequiredClientCapabilityError {
  return new MissingRequiredClientCapabilityError(
    { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
    `${what} needs the tasks extension: declare "${TASKS_EXTENSION}": {} under extensions in the request's client capabilities.`,
  );
}

/**
 * Starts the tool's turn and answers with the task, once the continuation is
 * stored (so tasks/get finds it at once). A refusal (bad arguments, a busy
 * session, no model) is the tool's own error result, as without a task.
 */
export async function startTaskCall(args: { adapter: TaskAdapter; era: Era; principal: Principal; tool: string; arguments: unknown }): Promise<ModernCreateTaskResult | LegacyCreateTaskResult | ReturnType<typeof errorResult>> {
  const { adapter, era } = args;
  const started = await adapter.start({ principal: args.principal, tool: args.tool, arguments: args.arguments });
  if (!started.ok) return errorResult(started.error.code, started.error.message);
  return era === "modern" ? modernCreated(started.value, adapter.timing) : legacyCreated(started.value, adapter.timing);
}
