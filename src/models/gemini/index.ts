import type { ModelProvider, ModelProviderDeps } from "../types.js";
import type { GeminiClient } from "./client.js";
import { GeminiOptionsSchema, type GeminiOptions } from "./options.js";

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
  description: "Google Gemini (AI Studio API key), through the official @google/genai SDK.",
  options: GeminiOptionsSchema,
  create: createGeminiClient,
};

export type { GeminiClient } from "./client.js";
export { GENERATED_ID } from "./wire.js";
export { GeminiOptionsSchema, type GeminiOptions } from "./options.js";
