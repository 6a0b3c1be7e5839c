import type { WireUsage } from "./wire.js";

/** A tool call as the server sent it, before its arguments are parsed. */
export interface DraftCall {
  /** The server's `index`, when it gave one. */
  index: number | undefined;
  id: string | undefined;
  name: string;
  /** The argument text exactly as the model wrote it (JSON, or not). */
  arguments: string;
}

/**
 * The assistant message being read, from a stream or a whole answer: the
 * neutral form both paths fill and `toResult` turns into a `GenerateResult`.
 */
export interface AssistantDraft {
  text: string;
  thinking: string;
  /** Which field carried the thinking, so the raw turn sends it back under the same name. */
  reasoningField: "reasoning" | "reasoning_content" | undefined;
  refusal: string;
  calls: DraftCall[];
  /** The server's `finish_reason`, unmapped. */
  finishReason: string | undefined;
  usage: WireUsage | undefined;
}

export function emptyDraft(): AssistantDraft {
  return { text: "", thinking: "", reasoningField: undefined, refusal: "", calls: [], finishReason: undefined, usage: undefined };
}
