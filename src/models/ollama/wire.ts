import { z } from "zod";
import { JsonValueSchema } from "../schemas.js";

/**
 * What Ollama's own API answers, read leniently: the `ollama` client types
 * its answers but does not check them. Field names follow Ollama's
 * api/types.go.
 */

/** `POST /api/show`: `model_info` holds `general.architecture` and `<arch>.context_length`. */
export const ShowSchema = z.object({
  model_info: z.record(z.string(), z.unknown()).nullish(),
  capabilities: z.array(z.string()).nullish(),
  parameters: z.string().nullish(),
});
export type Show = z.infer<typeof ShowSchema>;

/** `GET /api/tags`: `{"models": []}` when nothing is pulled. */
export const TagsSchema = z.object({ models: z.array(z.object({ name: z.string(), model: z.string().nullish() })).nullish() });

/** `GET /api/ps`: `context_length` is the window the loaded model runs with. */
export const PsSchema = z.object({ models: z.array(z.object({ name: z.string(), model: z.string().nullish(), context_length: z.number().int().nullish() })).nullish() });

/** A tool call: Ollama sends `arguments` as an object and, since 0.12, an `id`. */
export const OllamaToolCallSchema = z.object({
  id: z.string().nullish(),
  function: z.object({ index: z.number().int().nullish(), name: z.string(), arguments: z.union([z.record(z.string(), JsonValueSchema), z.string()]).nullish() }),
});

/** One NDJSON line of `/api/chat`, or the whole answer without streaming. */
export const ChatPartSchema = z.object({
  message: z
    .object({
      role: z.string().nullish(),
      content: z.string().nullish(),
      thinking: z.string().nullish(),
      tool_calls: z.array(OllamaToolCallSchema).nullish(),
    })
    .nullish(),
  done: z.boolean().nullish(),
  done_reason: z.string().nullish(),
  prompt_eval_count: z.number().nullish(),
  eval_count: z.number().nullish(),
});
export type ChatPart = z.infer<typeof ChatPartSchema>;
