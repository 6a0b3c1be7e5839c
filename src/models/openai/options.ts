import { z } from "zod";
import { serverUrl } from "../server-url.js";

/**
 * Settings of one OpenAI-compatible server. The add-on options
 * `openai_base_url`, `openai_api_key` and `model` map onto `baseUrl`,
 * `apiKey` and `model`.
 */
export const OpenAiOptionsSchema = z.object({
  /** `http://host:11434/v1` (Ollama), `http://host:8080` (llama-server), `https://api.openai.com/v1`; see `apiRoot` for the `/v1` rule. */
  baseUrl: serverUrl("http://192.168.1.20:11434/v1")
    .refine((value) => !hasCredentials(value), { message: "must not hold a user name or password; put the key in openai_api_key" }),
  /** Bearer key. Ollama and most local servers need none, so an empty string counts as none. */
  apiKey: z
    .string()
    .optional()
    .transform((value) => (value === undefined || value.trim() === "" ? undefined : value.trim())),
  model: z.string().trim().min(1, { message: "must name a model the server has, such as qwen3:8b" }),
  /** Overrides the model table, e.g. when Ollama runs with a smaller `num_ctx` than the weights allow. */
  contextWindow: z.number().int().positive().optional(),
  maxOutputTokens: z.number().int().positive().optional(),
  /** Streams by default; false asks for one JSON answer, for servers or proxies that stream badly. */
  stream: z.boolean().default(true),
  /** `model_temperature`: sent when set; otherwise the server's model settings apply. */
  temperature: z.number().min(0).max(2).optional(),
  /** `keep_alive`, used when the server turns out to be Ollama and its own API is used instead. */
  keepAlive: z.string().optional(),
});
export type OpenAiOptions = z.infer<typeof OpenAiOptionsSchema>;
export type OpenAiOptionsInput = z.input<typeof OpenAiOptionsSchema>;

function hasCredentials(value: string): boolean {
  try {
    const url = new URL(value);
    return url.username !== "" || url.password !== "";
  } catch {
    return false;
  }
}
