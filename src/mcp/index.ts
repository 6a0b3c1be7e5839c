export { createMcpServer, TOOLS_LIST_TTL_MS, type ServerInfo } from "./server.js";
export { describePrompts, type PromptSource } from "./prompts.js";
export { createMcpEndpoint, type McpEndpoint, type McpEndpointOptions } from "./endpoint.js";
export {
  TASKS_EXTENSION,
  ModernCreateTaskResultSchema,
  ModernDetailedTaskSchema,
  LegacyTaskSchema,
  LegacyCreateTaskResultSchema,
  LegacyListTasksResultSchema,
  type ModernCreateTaskResult,
  type ModernDetailedTask,
  type LegacyTask,
} from "./tasks/index.js";
export { createApprovalStateCodec, APPROVAL_STATE_TTL_S, type ApprovalState } from "./approvals/index.js";
