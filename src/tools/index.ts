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
  type SessionActuation,
  type ActionPlan,
  type ToolAction,
} from "./tool.js";
export { forModel, toolJsonSchema, withoutDescriptions } from "./json-schema.js";
export { ACTION_TOOL, AGENT_READ_TOOLS, PERSONA_ONLY_TOOLS, PERSONA_TOOL_NAMES, SAVE_TOOL } from "./agent-names.js";
export { formatZodError } from "./zod-errors.js";
export { createGroundingTools, createAnalyzeErrorsTool, createDiagnoseEntityTool, createIndexSearchTool, createRenderContextTool, createStateQueryTool } from "./grounding/index.js";
export {
  createTimeTools,
  createEnergyTool,
  createHistoryTool,
  createRenderTemplateTool,
  createStatisticsTool,
  ENERGY_NOT_CONFIGURED,
  PERIOD_FORMS,
  TIME_FORMS,
  CALENDAR_PERIODS,
  alignRange,
  describeRange,
  namedPeriod,
  parseTime,
  periodArgument,
  resolveRange,
  resolveTime,
  type CalendarPeriod,
  type EnergyOut,
  type NamedPeriod,
  type TimeRange,
  type TimeSpec,
  type TimeToolDeps,
} from "./time/index.js";
export { createCallServiceTool, decideActuation, describeActuation, planAction, targetsOfCall, type ActuationCeiling, type ActuationDecision, type ActuationSummary } from "./actions/index.js";
export {
  createAgentTools,
  createAgentTasks,
  APPROVAL_FORM,
  ApprovalFormSchema,
  approvalQuestion,
  approvalToWire,
  decisionFromElicitation,
  type AgentService,
  type AgentServiceEvent,
  type AgentTasks,
  type ApprovalAnswer,
  type ApprovalChannel,
  type ApprovalDecision,
  type ApprovalView,
  type ContinuationResult,
} from "./agent/index.js";
export { createSessionTools } from "./sessions/index.js";
export { createLogicTools, createAutomationCheckTool, createAutomationInspectTool, createAutomationSaveTool, createTraceTool, unifiedDiff, type LogicDeps } from "./logic/index.js";
export { createAssistTools, ASSIST_DEADLINE_MS, ASSIST_WAIT_MS } from "./assist/index.js";
