import type { ConversationItem, GenerateRequest, JsonValue } from "../models/index.js";
import { estimateRequestTokens } from "../models/index.js";

export interface FitInput {
  system: string;
  /** Remembered messages, then (optionally) the retrieval snippets, then the user's message. */
  head: ConversationItem[];
  /** Whether `head` holds a retrieval item just before the user's message. */
  primed: boolean;
  /** The turn's own model turns and tool results. */
  items: ConversationItem[];
  tools: GenerateRequest["tools"];
  /** Prompt tokens the request may take. */
  limit: number;
}

export interface Fitted {
  conversation: ConversationItem[];
  tokens: number;
  /** What was left out or shortened, for the step log. */
  trimmed: string[];
}

const SHORT_RESULT_CHARS = 400;

/**
 * Fits a request under its token limit by dropping the least needed parts
 * first: the retrieval snippets, then remembered messages oldest first,
 * then the outputs of older tool calls (their calls stay, so the
 * conversation remains valid). The system instruction, which carries the
 * policy, and the user's message are never cut.
 */
export function fitRequest(input: FitInput): Fitted {
  let head = [...input.head];
  let items = [...input.items];
  const trimmed: string[] = [];
  const size = () => estimateRequestTokens({ system: input.system, conversation: [...head, ...items], tools: input.tools });
  let tokens = size();
  if (tokens <= input.limit) return { conversation: [...head, ...items], tokens, trimmed };

  if (input.primed && head.length >= 2) {
    head = [...head.slice(0, -2), head.at(-1)!];
    trimmed.push("retrieval snippets");
    tokens = size();
  }
  // Remembered messages go in pairs (a question and its answer), oldest first.
  let dropped = 0;
  while (tokens > input.limit && head.length > 1) {
    head = head.slice(Math.min(2, head.length - 1));
    dropped += 2;
    tokens = size();
  }
  if (dropped) trimmed.push(`${dropped} remembered messages`);
  // Older tool outputs shrink to a preview; the newest results stay whole.
  const lastResults = items.map((i) => i.type).lastIndexOf("tool_results");
  let shortened = 0;
  for (let i = 0; i < items.length && tokens > input.limit; i++) {
    const item = items[i]!;
    if (item.type !== "tool_results" || i === lastResults) continue;
    items = items.map((it, j) => (j === i && it.type === "tool_results" ? { ...it, results: it.results.map((r) => ({ ...r, output: preview(r.output) })) } : it));
    shortened++;
    tokens = size();
  }
  if (shortened) trimmed.push(`outputs of ${shortened} earlier tool steps`);
  return { conversation: [...head, ...items], tokens, trimmed };
}

function preview(output: JsonValue): JsonValue {
  const text = JSON.stringify(output);
  if (text.length <= SHORT_RESULT_CHARS) return output;
  return { shortened: true, preview: text.slice(0, SHORT_RESULT_CHARS), note: "Shortened to fit the context; call the tool again if you need it whole." };
}
