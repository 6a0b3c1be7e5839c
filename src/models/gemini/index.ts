import { contextOf, type ModelProvider, type ModelProviderDeps } from "../types.js";
import type { GeminiClient } from "./client.js";
import { DEFAULT_GEMINI_MODEL, GeminiOptionsSchema, type GeminiOptions } from "./options.js";

/**
 * A Gemini client. The SDK is loaded with the first one, not at boot: it
 * costs about 20 MB of memory, which a home that uses another provider, or
 * no model at all, should not pay.
 */
export async function createGeminiClient(options: GeminiOptions, deps: ModelProviderDeps): Promise<GeminiClient> {
  const { GeminiClient } = await import("./client.js");
  return new GeminiClient(options, deps);
}

/** Google Gemini through the official `@google/genai` SDK. */
export const geminiProvider: ModelProvider<typeof GeminiOptionsSchema> = {
  name: "gemini",
  title: "Google Gemini",
  description: "Google Gemini (AI Studio API key), through the official @google/genai SDK.",
  options: GeminiOptionsSchema,
  selectable: true,
  defaultModel: DEFAULT_GEMINI_MODEL,
  optionsFrom({ settings, model }) {
    if (!settings.geminiApiKey) return { missing: "No model is configured: set gemini_api_key (GEMINI_API_KEY) to a Gemini API key from Google AI Studio, or set model_provider to openai with openai_base_url." };
    if (!model) return { missing: "No model is configured: set model (MODEL) to a Gemini model, e.g. gemini-3.8-flash." };
    return { options: { apiKey: settings.geminiApiKey, model, ...contextOf(settings), ...(settings.geminiBaseUrl ? { baseUrl: settings.geminiBaseUrl } : {}) } };
  },
  create: createGeminiClient,
};

export type { GeminiClient } from "./client.js";
export { GENERATED_ID } from "./wire.js";
export { DEFAULT_GEMINI_MODEL, GeminiOptionsSchema, type GeminiOptions } from "./options.js";
