import { createOllamaClient, OllamaOptionsSchema } from "../ollama/index.js";
import { PendingClient } from "../pending-client.js";
import { displayUrl } from "../server-words.js";
import type { ModelClient, ModelProviderDeps } from "../types.js";
import { OpenAiClient } from "./client.js";
import type { OpenAiOptions } from "./options.js";
import { probeServer, type ProbedServer } from "./probe.js";

/**
 * A client for an OpenAI-compatible URL that meets the server as it is:
 * llama-server's and vLLM's real windows, and Ollama through its own API,
 * because Ollama's `/v1` cannot set the context window and cuts long
 * prompts from the start. A server that cannot be asked yet is asked again
 * at each call.
 */
export async function connectOpenAiCompatible(options: OpenAiOptions, deps: ModelProviderDeps): Promise<ModelClient> {
  const ask = () => probeServer({ baseUrl: options.baseUrl, model: options.model, ...(options.apiKey ? { apiKey: options.apiKey } : {}), ...(deps.fetch ? { fetch: deps.fetch } : {}) });
  const probed = await ask();
  if (probed.reached) return clientFor(probed, options, deps);
  const provisional = new OpenAiClient(options, deps);
  return new PendingClient({
    provider: provisional.provider,
    model: options.model,
    label: provisional.label,
    facts: provisional.facts,
    settle: async () => {
      const again = await ask();
      return again.reached ? clientFor(again, options, deps) : undefined;
    },
    fallback: () => provisional,
  });
}

async function clientFor(probed: ProbedServer, options: OpenAiOptions, deps: ModelProviderDeps): Promise<ModelClient> {
  const url = displayUrl(options.baseUrl);
  if (probed.kind === "ollama" && probed.ollamaNative && probed.ollamaRoot) {
    const root = displayUrl(probed.ollamaRoot);
    deps.logger.warn(
      `openai_base_url ${url} is ${probed.name}: HA Agent uses Ollama's own API at ${root} instead of /v1, because only that API can give a request the context window it needs (Ollama's /v1 cuts long prompts from the start). Set model_provider: ollama and ollama_url: ${root} to say so directly.`,
    );
    return createOllamaClient(
      OllamaOptionsSchema.parse({
        url: probed.ollamaRoot,
        model: options.model,
        ...(options.contextWindow !== undefined ? { contextTokens: options.contextWindow } : {}),
        ...(options.maxOutputTokens !== undefined ? { maxOutputTokens: options.maxOutputTokens } : {}),
        ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
        ...(options.keepAlive !== undefined ? { keepAlive: options.keepAlive } : {}),
        stream: options.stream,
      }),
      deps,
    );
  }
  if (probed.kind === "ollama") {
    deps.logger.warn(
      `openai_base_url ${url} looks like Ollama, but its own API does not answer there, so HA Agent must use /v1, which cannot set the context window: long prompts are cut from the start. Set model_provider: ollama with ollama_url pointing at Ollama itself, or start Ollama with OLLAMA_CONTEXT_LENGTH=16384 and set model_context_tokens to match.`,
    );
  }
  return new OpenAiClient(options, deps, probed);
}
