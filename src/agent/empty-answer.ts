import type { GenerateRequest, GenerateResult } from "../models/index.js";

/**
 * A model call that finished with nothing to act on: no text and no tool
 * call. Gemini ends so with MALFORMED_FUNCTION_CALL, UNEXPECTED_TOOL_CALL or
 * MAX_TOKENS (thinking used the budget); OpenAI-compatible servers with
 * `length`. The wrap-up call offers no tools, so there only text counts.
 * A safety stop is not empty: its refusal is the answer.
 */
export function isEmptyAnswer(result: GenerateResult, wrapUp: boolean): boolean {
  if (result.finishReason === "safety") return false;
  return result.text.trim() === "" && (wrapUp || result.toolCalls.length === 0);
}

/** The provider's own name for how the call ended, for the note and the error. */
export function finishName(result: GenerateResult): string {
  return result.finishDetail ?? result.finishReason;
}

/**
 * The request again, with a note for the model at the end of the system
 * instruction (never as a message: a second user message in a row breaks
 * strict chat templates).
 */
export function withEmptyAnswerNote(request: GenerateRequest, empty: GenerateResult): GenerateRequest {
  const finish = finishName(empty);
  const cutShort = empty.finishReason === "length" || /max_tokens|length/i.test(finish);
  const advice = cutShort
    ? "It ran out of output tokens before writing anything: think less and answer briefly."
    : request.tools?.length
      ? "Call one of the tools with arguments that are a valid JSON object, or answer in plain text."
      : "Answer in plain text.";
  return { ...request, system: `${request.system}\n\n## Your last answer\nYour previous answer ended (${finish}) with no text and no tool call. ${advice}` };
}

export function emptyAnswerError(first: GenerateResult, second: GenerateResult): { code: string; message: string } {
  const finishes = [...new Set([finishName(first), finishName(second)])].join(", then ");
  return {
    code: "model_empty_answer",
    message: `The model answered twice with neither text nor a tool call (finish reason ${finishes}), so the turn has no answer. Try again, or use a model with better tool support.`,
  };
}
