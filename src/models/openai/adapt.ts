import type { ServerError } from "../server-words.js";

/**
 * How the request changes after a refusal that names one of its fields.
 * The first three are remembered by the client; `fit_output` holds for the
 * one request it was computed for.
 */
export type Adaptation =
  | { kind: "drop_parallel_tool_calls" }
  | { kind: "max_completion_tokens" }
  | { kind: "drop_temperature" }
  | { kind: "fit_output"; maxTokens: number };

/** Remembered adaptations: what this server refused once is not sent again. */
export interface RequestQuirks {
  noParallelToolCalls: boolean;
  maxCompletionTokens: boolean;
  noTemperature: boolean;
}

export const NO_QUIRKS: RequestQuirks = { noParallelToolCalls: false, maxCompletionTokens: false, noTemperature: false };

/**
 * The change that makes a refused request acceptable, or undefined when no
 * change of ours can:
 * - `parallel_tool_calls`: OpenAI's o-series answer 400 `unsupported_parameter`
 *   naming it; Google's OpenAI-compatible endpoint said "Parallel tool calls
 *   are not supported.";
 * - `max_tokens`: OpenAI's reasoning models want `max_completion_tokens`;
 * - `temperature`: reasoning models accept only their default;
 * - a prompt plus `max_tokens` over the window (vLLM states both figures):
 *   ask for what is left.
 */
export function adaptationFor(status: number, error: ServerError | undefined, sent: { maxTokens: number | undefined }): Adaptation | undefined {
  if (status !== 400 && status !== 422) return undefined;
  const said = error?.message ?? "";
  const param = error?.param ?? "";
  if (param === "parallel_tool_calls" || /parallel[_ ]tool[_ ]calls/i.test(said)) return { kind: "drop_parallel_tool_calls" };
  if ((param === "max_tokens" || /'max_tokens'/.test(said)) && /max_completion_tokens/.test(said) && /not supported|unsupported/i.test(said)) return { kind: "max_completion_tokens" };
  if ((param === "temperature" || /'temperature'/.test(said)) && /unsupported|not supported|does not support/i.test(said)) return { kind: "drop_temperature" };
  const limit = /maximum context length is (\d+)/i.exec(said)?.[1];
  const input = /(\d+) input tokens|(\d+) in the messages|prompt contains (?:at least )?(\d+)/i.exec(said);
  if (limit && input && sent.maxTokens !== undefined) {
    const prompt = Number(input[1] ?? input[2] ?? input[3]);
    const room = Number(limit) - prompt - 1;
    if (room >= 64 && room < sent.maxTokens) return { kind: "fit_output", maxTokens: room };
  }
  return undefined;
}
