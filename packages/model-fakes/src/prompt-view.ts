import type { JsonValue } from "./json.js";

type Json = { [key: string]: JsonValue };

/**
 * What a fake model gets to see of a request: a real server shows the
 * model all of it, or, when the prompt is longer than its window and it cuts
 * instead of refusing, what is left. Responders read this, as a model
 * would, so a cut prompt makes a fake model as lost as a real one.
 */
export interface SeenPrompt {
  /** The system text, when the model saw all of it. */
  system: string | undefined;
  /** The names of the tools the model saw declared; none once the start of the prompt was cut. */
  tools: string[];
  /** The messages the model saw, in order, system messages left out. */
  messages: Json[];
  /** The prompt's size as the server counts it, before any cut. */
  tokens: number;
  /** The window the prompt had to fit, when the server has one. */
  window: number | undefined;
  truncated: boolean;
}

/**
 * Tokens of rendered text. Real tokenizers count JSON and English denser
 * than the four characters a token HA Agent estimates with; the fakes
 * count the way a server would, so an estimate that is too low shows.
 */
export function countTokens(text: string): number {
  return Math.ceil(text.length / 3.5);
}

/** Template overhead per message (role markers, separators). */
const PER_MESSAGE = 4;

function messageTokens(message: Json): number {
  const content = typeof message.content === "string" ? message.content : JSON.stringify(message.content ?? "");
  const calls = message.tool_calls ? JSON.stringify(message.tool_calls) : "";
  return countTokens(content + calls) + PER_MESSAGE;
}

/** The system text and the tools, which chat templates render first. */
function headTokens(system: string | undefined, tools: JsonValue | undefined): number {
  return countTokens((system ?? "") + (tools ? JSON.stringify(tools) : "")) + PER_MESSAGE;
}

function toolNames(tools: JsonValue | undefined): string[] {
  if (!Array.isArray(tools)) return [];
  return tools.flatMap((t) => {
    const fn = t && typeof t === "object" && !Array.isArray(t) ? t.function : undefined;
    const name = fn && typeof fn === "object" && !Array.isArray(fn) ? fn.name : undefined;
    return typeof name === "string" ? [name] : [];
  });
}

function systemText(messages: Json[]): string | undefined {
  const texts = messages.filter((m) => m.role === "system").map((m) => (typeof m.content === "string" ? m.content : ""));
  return texts.length ? texts.join("\n") : undefined;
}

/** Everything, as servers that refuse an over-long prompt rather than cut it show it. */
export function fullView(messages: Json[], tools: JsonValue | undefined, window?: number): SeenPrompt {
  const system = systemText(messages);
  const rest = messages.filter((m) => m.role !== "system");
  const tokens = headTokens(system, tools) + rest.reduce((n, m) => n + messageTokens(m), 0);
  return { system, tools: toolNames(tools), messages: rest, tokens, window, truncated: false };
}

/**
 * What an Ollama model sees of a prompt over its `num_ctx`, as Ollama cuts
 * it. First messages go from the front, system messages kept, until the
 * rest fits, the last message always kept (server/prompt.go, chatPrompt).
 * If that is still too long, the tokens are cut from the start, keeping
 * only `num_keep` (4) of them (llm/llama_server.go,
 * completionPromptForRequest): the system text and the tools, rendered
 * first by the template, are the first to go. With `truncate: false`
 * (api/types.go, ChatRequest.Truncate) nothing is cut: the answer is
 * `undefined`, and the caller refuses the request.
 */
export function ollamaView(args: { messages: Json[]; tools: JsonValue | undefined; numCtx: number; truncate: boolean }): SeenPrompt | undefined {
  const { numCtx } = args;
  const full = fullView(args.messages, args.tools, numCtx);
  if (full.tokens <= numCtx) return full;
  if (!args.truncate) return undefined;
  const head = headTokens(full.system, args.tools);
  let kept = full.messages;
  const size = () => head + kept.reduce((n, m) => n + messageTokens(m), 0);
  while (kept.length > 1 && size() > numCtx) kept = kept.slice(1);
  let over = size() - numCtx;
  if (over <= 0) return { ...full, messages: kept, truncated: true };
  // Cut from the start, after the first few tokens: the head goes first, then the oldest messages.
  const seen: SeenPrompt = { ...full, messages: kept, truncated: true };
  if (over > 0) {
    seen.system = undefined;
    seen.tools = [];
    over -= head;
  }
  while (over > 0 && seen.messages.length > 0) {
    over -= messageTokens(seen.messages[0]!);
    seen.messages = seen.messages.slice(1);
  }
  return seen;
}
