import type { JsonValue } from "../schemas.js";
import type { WireUsage } from "./wire.js";

/** A tool call as the server sent it, before its arguments are parsed. */
export interface DraftCall {
  /** The server's `index`, when it gave one. */
  index: number | undefined;
  id: string | undefined;
  name: string;
  /** The argument text exactly as the model wrote it (JSON, or not); an object a server sent is kept as its JSON. */
  arguments: string;
  /** Fields of the call we do not know (`extra_content`), kept to be sent back verbatim. */
  extra: { [key: string]: JsonValue };
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
