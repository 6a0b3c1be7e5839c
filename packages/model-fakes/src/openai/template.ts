import type { JsonValue } from "../json.js";

type Json = { [key: string]: JsonValue };

/**
 * The rule of Mistral-family chat templates (Mistral 7B Instruct v0.3,
 * Ministral, Devstral: the `chat_template` of their tokenizer_config.json on
 * huggingface.co/mistralai): after an optional first system message, the
 * messages that are neither tool results nor assistant tool calls must go
 * user, assistant, user, … or the template raises. llama-server, vLLM and
 * LM Studio run the template as written, so the server refuses with its
 * words. Tool results must also follow the assistant turn that asked for
 * them, which the history check holds every flavour to.
 */
export function mistralTemplateProblem(messages: Json[]): string | undefined {
  const loop = messages[0]?.role === "system" ? messages.slice(1) : messages;
  let index = 0;
  for (const message of loop) {
    if (message.role === "tool" || message.role === "tool_results") continue;
    // `selectattr("tool_calls", "undefined")`: an assistant message that carries tool calls is not counted.
    if ("tool_calls" in message) continue;
    if ((message.role === "user") !== (index % 2 === 0)) return "Conversation roles must alternate user/assistant/user/assistant/...";
    index++;
  }
  return undefined;
}
