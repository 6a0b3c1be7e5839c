import type { GeminiReply, GeminiRequestBody } from "./types.js";

/**
 * A responder for trying a Gemini client by hand (`npm run gemini` in this
 * package): it repeats the last user text, or counts the function responses
 * it was given. Asked in so many words to call an offered function with a
 * JSON object ("Call the tool check_echo with {…}", as HA Agent's
 * `npm run model:check` asks), it does. It claims no intelligence.
 */
export function geminiEcho(body: GeminiRequestBody): GeminiReply {
  const parts = body.contents?.at(-1)?.parts ?? [];
  const responses = parts.filter((p) => p.functionResponse !== undefined).length;
  if (responses) return { text: `Fake model: received ${responses} function response${responses === 1 ? "" : "s"}.` };
  const said = parts.map((p) => (typeof p.text === "string" ? p.text : "")).join("");
  const asked = /call the tool (\w+) with (\{.*\})/i.exec(said);
  const offered = (name: string) => (body.tools ?? []).some((t) => (t.functionDeclarations ?? []).some((d) => d.name === name));
  if (asked && offered(asked[1]!)) {
    try {
      return { calls: [{ name: asked[1]!, args: JSON.parse(asked[2]!) as Record<string, unknown> }] };
    } catch {
      // Not JSON after all: echo it like anything else.
    }
  }
  return { text: `Fake model: you said "${said.slice(0, 200)}".` };
}
