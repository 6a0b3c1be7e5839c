import type { ModelProvider } from "../types.js";
import { OpenAiClient } from "./client.js";
import { OpenAiOptionsSchema } from "./options.js";

/** Any OpenAI-compatible chat completions server. */
export const openaiProvider: ModelProvider<typeof OpenAiOptionsSchema> = {
  name: "openai",
  description: "An OpenAI-compatible server: Ollama, llama.cpp's llama-server, LM Studio, vLLM, OpenRouter or OpenAI itself.",
  options: OpenAiOptionsSchema,
  create: (options, deps) => new OpenAiClient(options, deps),
};
