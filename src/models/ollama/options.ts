import { z } from "zod";
import { serverUrl } from "../server-url.js";

/**
 * Settings of an Ollama server spoken to through its own API. The options
 * `ollama_url`, `model`, `model_context_tokens`, `model_temperature`,
 * `model_stream` and `keep_alive` map onto them.
 */
export const OllamaOptionsSchema = z.object({
  /** The server's root, `http://192.168.1.20:11434`; a trailing `/v1` or `/api` is dropped. */
  url: serverUrl("http://192.168.1.20:11434")
    .transform((value) => value.replace(/\/+$/, "").replace(/\/(v1|api)$/, "")),
  model: z.string().trim().min(1, { message: "must name a model Ollama has, such as qwen3:8b" }),
  /** `model_context_tokens`: the most `num_ctx` HA Agent asks for. */
  contextTokens: z.number().int().positive().optional(),
  maxOutputTokens: z.number().int().positive().optional(),
  /** Sent only when set: otherwise the model's Modelfile decides. */
  temperature: z.number().min(0).max(2).optional(),
  /** How long Ollama keeps the model loaded: a duration (`5m`), seconds, or -1 for always. */
  keepAlive: z.string().optional(),
  stream: z.boolean().default(true),
});
export type OllamaOptions = z.infer<typeof OllamaOptionsSchema>;
export type OllamaOptionsInput = z.input<typeof OllamaOptionsSchema>;

/**
 * `keep_alive` as Ollama's API takes it: a number of seconds (negative: keep
 * the model loaded), or a duration string. Home Assistant's own integration
 * sends -1 as the number, because `"-1s"` is a duration Ollama refuses
 * (homeassistant/components/ollama/entity.py).
 */
export function keepAliveValue(text: string | undefined): string | number | undefined {
  if (text === undefined) return undefined;
  return /^-?\d+$/.test(text) ? Number(text) : text;
}
