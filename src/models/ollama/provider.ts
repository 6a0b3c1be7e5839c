import { contextOf, type ModelProvider } from "../types.js";
import { createOllamaClient, ollamaTags } from "./connect.js";
import { OllamaOptionsSchema } from "./options.js";

/** Ollama, through its own API: the only way to give a request the context window it needs. */
export const ollamaProvider: ModelProvider<typeof OllamaOptionsSchema> = {
  name: "ollama",
  title: "Ollama",
  description: "A local Ollama server, through its own API, which can set the context window (num_ctx) a request gets.",
  options: OllamaOptionsSchema,
  selectable: true,
  optionsFrom({ settings, model }) {
    if (!settings.ollamaUrl) return { missing: "No model is configured: set ollama_url (OLLAMA_URL) to your Ollama server's address, e.g. http://192.168.1.20:11434, and model to a model it has." };
    if (!model) return { missing: "No model is configured: set model (MODEL) to a model your Ollama server has, e.g. qwen3:8b." };
    const window = contextOf(settings).contextWindow;
    return {
      options: {
        url: settings.ollamaUrl,
        model,
        ...(window !== undefined ? { contextTokens: window } : {}),
        ...(settings.temperature !== undefined ? { temperature: settings.temperature } : {}),
        ...(settings.keepAlive !== undefined ? { keepAlive: settings.keepAlive } : {}),
        stream: settings.stream ?? true,
      },
    };
  },
  // Without a model name, Ollama is asked which models it has pulled.
  discoversModel: (settings) => settings.ollamaUrl !== undefined && settings.model === undefined,
  servedModels: ({ settings, fetch, timeoutMs }) => ollamaTags({ url: OllamaOptionsSchema.shape.url.parse(settings.ollamaUrl), fetch, timeoutMs }),
  create: createOllamaClient,
};
