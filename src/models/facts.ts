import type { ModelFacts } from "./types.js";

interface KnownModel {
  /** Matches the model name and its versioned variants (`gemini-2.5-flash-preview-09-2025`). */
  prefix: string;
  contextWindow: number;
  maxOutputTokens: number;
}

/**
 * Limits of the models people are likely to pick, from the providers'
 * model pages. Longest prefix wins. Local models' windows are what their
 * weights support; the server may be started with less (Ollama's
 * `num_ctx`), so the options can lower them.
 */
const KNOWN_MODELS: KnownModel[] = [
  // Every Gemini 3.x model (3.1 to 3.8, Flash, Flash-Lite and Pro) has a 1M-token window.
  { prefix: "gemini-3", contextWindow: 1_048_576, maxOutputTokens: 65_536 },
  { prefix: "gemini-3-pro", contextWindow: 1_048_576, maxOutputTokens: 65_536 },
  { prefix: "gemini-3-flash", contextWindow: 1_048_576, maxOutputTokens: 65_536 },
  { prefix: "gemini-2.5-pro", contextWindow: 1_048_576, maxOutputTokens: 65_536 },
  { prefix: "gemini-2.5-flash-lite", contextWindow: 1_048_576, maxOutputTokens: 65_536 },
  { prefix: "gemini-2.5-flash", contextWindow: 1_048_576, maxOutputTokens: 65_536 },
  { prefix: "gemini-2.0-flash", contextWindow: 1_048_576, maxOutputTokens: 8_192 },
  { prefix: "gpt-4.1", contextWindow: 1_047_576, maxOutputTokens: 32_768 },
  { prefix: "gpt-4o", contextWindow: 128_000, maxOutputTokens: 16_384 },
  { prefix: "gpt-5", contextWindow: 400_000, maxOutputTokens: 128_000 },
  // OpenAI's reasoning models (platform.openai.com/docs/models).
  { prefix: "o1", contextWindow: 200_000, maxOutputTokens: 100_000 },
  { prefix: "o3", contextWindow: 200_000, maxOutputTokens: 100_000 },
  { prefix: "o4-mini", contextWindow: 200_000, maxOutputTokens: 100_000 },
  { prefix: "llama3.1", contextWindow: 131_072, maxOutputTokens: 8_192 },
  { prefix: "llama3.2", contextWindow: 131_072, maxOutputTokens: 8_192 },
  { prefix: "llama3.3", contextWindow: 131_072, maxOutputTokens: 8_192 },
  { prefix: "qwen2.5", contextWindow: 32_768, maxOutputTokens: 8_192 },
  { prefix: "qwen3", contextWindow: 40_960, maxOutputTokens: 8_192 },
  { prefix: "mistral-nemo", contextWindow: 131_072, maxOutputTokens: 8_192 },
  { prefix: "mistral", contextWindow: 32_768, maxOutputTokens: 8_192 },
  { prefix: "gemma3", contextWindow: 131_072, maxOutputTokens: 8_192 },
  { prefix: "gpt-oss", contextWindow: 131_072, maxOutputTokens: 32_768 },
];

/** A conservative guess for a model nobody has told us about. */
const UNKNOWN: Omit<ModelFacts, "model" | "known"> = { contextWindow: 32_768, maxOutputTokens: 4_096 };

/**
 * The limits of `model`: the table's, or a conservative guess, each
 * overridable. Names are matched after any `models/` or `vendor/` prefix
 * (OpenRouter's `meta-llama/…`) and without a `:tag` (Ollama's `qwen3:8b`).
 */
export function modelFacts(model: string, overrides: { contextWindow?: number; maxOutputTokens?: number } = {}): ModelFacts {
  const bare = model.toLowerCase().replace(/^.*\//, "").replace(/:.*$/, "");
  const match = KNOWN_MODELS.filter((m) => bare.startsWith(m.prefix)).sort((a, b) => b.prefix.length - a.prefix.length)[0];
  const base = match ?? UNKNOWN;
  return {
    model,
    contextWindow: overrides.contextWindow ?? base.contextWindow,
    maxOutputTokens: overrides.maxOutputTokens ?? base.maxOutputTokens,
    known: match !== undefined,
  };
}
