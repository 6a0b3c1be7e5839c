import type { AppConfig } from "../config/index.js";
import { DEMO_MODEL } from "./demo/index.js";
import type { ModelSettings } from "./model-source.js";

/**
 * The model settings the options ask for. Demo mode answers with the demo
 * model unless a real one is configured, so the demo works without a key.
 * The program and `model:check` both read them here, so the check tries
 * exactly the model the program would use.
 */
export function modelSettingsFrom(config: Pick<AppConfig, "mode" | "options">): ModelSettings {
  const o = config.options;
  const demo = config.mode === "demo" && !o.gemini_api_key && !o.openai_base_url && !o.ollama_url;
  return {
    provider: demo ? "demo" : o.model_provider,
    model: demo ? DEMO_MODEL : o.model,
    contextTokens: o.model_context_tokens,
    geminiApiKey: o.gemini_api_key,
    geminiBaseUrl: o.gemini_base_url,
    openaiBaseUrl: o.openai_base_url,
    openaiApiKey: o.openai_api_key,
    ollamaUrl: o.ollama_url,
    temperature: o.model_temperature,
    stream: o.model_stream,
    keepAlive: o.keep_alive,
    allowedModels: o.allowed_models,
    modelChoiceForEveryone: o.model_choice_for_everyone,
  };
}
