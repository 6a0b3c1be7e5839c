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
} from "./types.js";
export { ModelError, type ModelErrorCode } from "./errors.js";
export { ModelProviderRegistry, ModelProviderError } from "./registry.js";
export { modelFacts } from "./facts.js";
export { estimateTokens, estimateRequestTokens } from "./estimate.js";
export { withRetries, backoffDelay, abortableSleep, DEFAULT_RETRY_POLICY, type RetryPolicy, type RetryDeps, type RetryOptions } from "./retry.js";
export { createModelSource, type ModelSource, type ModelSettings } from "./model-source.js";
export { modelSettingsFrom } from "./settings.js";
export { ModelChoiceError } from "./model-choice-error.js";
export { builtInModelProviders } from "./providers.js";
export { checkModel, type ModelCheck } from "./check.js";
export { geminiProvider, createGeminiClient, type GeminiClient } from "./gemini/index.js";
export { demoProvider, DEMO_LABEL, DEMO_MODEL } from "./demo/index.js";
