export { ToolRegistry, ToolRegistryError, TOOL_PREFIX, type ToolNameSeparator } from "./registry.js";
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
export { formatZodError } from "./zod-errors.js";
