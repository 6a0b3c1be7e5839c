import type { ModelProvider } from "../types.js";
import { GeminiClient } from "./client.js";
import { GeminiOptionsSchema } from "./options.js";

/** Google Gemini through the official `@google/genai` SDK. */
export const geminiProvider: ModelProvider<typeof GeminiOptionsSchema> = {
  name: "gemini",
  description: "Google Gemini (AI Studio API key), through the official @google/genai SDK.",
  options: GeminiOptionsSchema,
  create: (options, deps) => new GeminiClient(options, deps),
};

export { GeminiClient } from "./client.js";
export { GENERATED_ID } from "./wire.js";
export { GeminiOptionsSchema, type GeminiOptions } from "./options.js";
