export { ToolRegistry, ToolRegistryError, type ToolNameSeparator } from "./registry.js";
export {
  defineTool,
  ok,
  fail,
  type ToolSpec,
  type ToolCallContext,
  type ToolOutcome,
  type ToolFailure,
  type ToolAnnotations,
  type AnyObjectSchema,
} from "./tool.js";
export { targetsOfCall, type SessionActuation } from "./actions/index.js";
