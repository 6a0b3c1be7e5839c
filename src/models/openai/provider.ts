import { contextOf, type ModelProvider } from "../types.js";
import { connectOpenAiCompatible } from "./connect.js";
import { OpenAiOptionsSchema } from "./options.js";
import { servedModels } from "./served-models.js";

/** Any OpenAI-compatible chat completions server. */
export const openaiProvider: ModelProvider<typeof OpenAiOptionsSchema> = {
  name: "openai",
  title: "OpenAI-compatible server",
  description: "An OpenAI-compatible server: Ollama, llama.cpp's llama-server, LM Studio, vLLM, OpenRouter or OpenAI itself.",
  options: OpenAiOptionsSchema,
  selectable: true,
  optionsFrom({ settings, model, served }) {
    if (!settings.openaiBaseUrl) return { missing: "No model is configured: set openai_base_url (OPENAI_BASE_URL) to your OpenAI-compatible server, e.g. http://192.168.1.20:11434/v1 for Ollama, and model to a model it serves." };
    if (!model) return { missing: "No model is configured: set model (MODEL) to a model your OpenAI-compatible server serves." };
    return {
      options: {
        baseUrl: settings.openaiBaseUrl,
        model,
        ...contextOf(settings, served?.id === model ? served : undefined),
        ...(settings.openaiApiKey ? { apiKey: settings.openaiApiKey } : {}),
        ...(settings.temperature !== undefined ? { temperature: settings.temperature } : {}),
        ...(settings.keepAlive !== undefined ? { keepAlive: settings.keepAlive } : {}),
        stream: settings.stream ?? true,
      },
    };
  },
  // Without a model name, the server is asked: a local server usually serves one model.
  discoversModel: (settings) => settings.openaiBaseUrl !== undefined && settings.model === undefined,
  servedModels: ({ settings, fetch, timeoutMs }) => servedModels({ baseUrl: settings.openaiBaseUrl as string, apiKey: settings.openaiApiKey, fetch, timeoutMs }),
  create: connectOpenAiCompatible,
};
