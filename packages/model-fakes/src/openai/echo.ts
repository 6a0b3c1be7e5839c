import type { JsonValue } from "../json.js";
import type { FakeChatRequest, FakeReply } from "./types.js";

/**
 * A responder for trying a client by hand (`npm run fake:openai`,
 * `npm run fake:ollama`): it repeats the last user message, or counts the
 * tool results it was given. Asked in so many words to call an offered tool
 * with a JSON object ("Call the tool check_echo with {…}", as
 * `npm run model:check` asks), it does. It claims no intelligence.
 */
export function echoResponder(request: FakeChatRequest): FakeReply {
  const last = request.messages[request.messages.length - 1];
  if (last?.role === "tool") {
    const results = trailingToolMessages(request.messages);
    return { text: `Fake model: received ${results} tool result${results === 1 ? "" : "s"}.` };
  }
  const said = typeof last?.content === "string" ? last.content : "";
  const asked = /call the tool (\w+) with (\{.*\})/i.exec(said);
  if (asked && request.seen.tools.includes(asked[1]!)) {
    try {
      return { toolCalls: [{ name: asked[1]!, args: JSON.parse(asked[2]!) as { [key: string]: JsonValue } }] };
    } catch {
      // Not JSON after all: echo it like anything else.
    }
  }
  return { text: `Fake model: you said "${said.slice(0, 200)}".` };
}

function trailingToolMessages(messages: { [key: string]: JsonValue }[]): number {
  let n = 0;
  for (let i = messages.length - 1; i >= 0 && messages[i]?.role === "tool"; i--) n++;
  return n;
}
