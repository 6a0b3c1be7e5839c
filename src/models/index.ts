export {
  JsonValueSchema,
  ToolCallSchema,
  INVALID_TOOL_ARGS_KEY,
  FinishReasonSchema,
  FINISH_REASONS,
  ModelUsageSchema,
  ModelTurnSchema,
  ToolResultSchema,
  ConversationItemSchema,
  type JsonValue,
  type ToolCall,
  type FinishReason,
  type ModelUsage,
  type ModelTurn,
  type ToolResult,
  type ConversationItem,
} from "./schemas.js";
export type {
  ToolDeclaration,
  GenerateRequest,
  GenerateOptions,
  GenerateResult,
  PartialOutput,
  ModelFacts,
  TokenCount,
  ModelClient,
  ModelProvider,
  ModelProviderDeps,
  ServerFacts,
  ServerKind,
} from "./types.js";
export { ModelError, type ModelErrorCode } from "./errors.js";
export { ModelProviderRegistry, ModelProviderError } from "./registry.js";
export { modelFacts } from "./facts.js";
export { estimateTokens, estimateRequestTokens } from "./estimate.js";
export { withRetries, backoffDelay, abortableSleep, DEFAULT_RETRY_POLICY, type RetryPolicy, type RetryDeps, type RetryOptions } from "./retry.js";
export { createModelSource, type ModelSource, type ModelSettings } from "./model-source.js";
export { modelSettingsFrom } from "./settings.js";
export { ModelChoiceError } from "./model-choice-error.js";
export { ModelNotAllowedError } from "./model-not-allowed-error.js";
export { builtInModelProviders } from "./providers.js";
export { checkModel, checkToolCall, CHECK_TOOL, type ModelCheck, type ToolCallCheck } from "./check.js";
export { windowProblem, MIN_TOOL_WINDOW } from "./window-need.js";
export { geminiProvider, createGeminiClient, type GeminiClient } from "./gemini/index.js";
export { demoProvider, DEMO_LABEL, DEMO_MODEL, loadFakeGemini, DemoModelUnavailableError, type FakeGeminiPort, type PlannerReply } from "./demo/index.js";
