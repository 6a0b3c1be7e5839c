import { invalid } from "./errors.js";
import type { SignatureBook } from "./signatures.js";
import type { GeminiRequestBody } from "./types.js";

type Failure = { code: number; body: unknown };

/**
 * The checks Gemini 3 makes on a conversation before answering: every
 * function-call turn is answered by a turn of as many function responses,
 * and every function call of the current turn (after the last user text)
 * carries its thought signature, unaltered.
 */
export function checkHistory(body: GeminiRequestBody, signatures: SignatureBook): Failure | undefined {
  const contents = body.contents ?? [];
  if (contents.length === 0) return invalid("* GenerateContentRequest.contents: contents is not specified");
  // Google's validation of parts (quoted by clients, e.g. github.com/router-for-me/CLIProxyAPI/issues/1292):
  // a content needs parts, and a part needs data; `{text: ""}` alone has none.
  for (const [i, content] of contents.entries()) {
    const parts = content.parts ?? [];
    if (parts.length === 0) return invalid(`* GenerateContentRequest.contents[${i}].parts: contents.parts must not be empty.`);
    for (const [j, part] of parts.entries()) {
      const fields = Object.keys(part).filter((k) => part[k] !== undefined);
      if (fields.every((k) => k === "text" || k === "thought") && part.text === "") {
        return invalid(`* GenerateContentRequest.contents[${i}].parts[${j}].data: required oneof field 'data' must have one initialized field`);
      }
    }
  }
  const lastUserText = contents.map((c, i) => (c.role !== "model" && (c.parts ?? []).some((p) => typeof p.text === "string") ? i : -1)).reduce((a, b) => Math.max(a, b), -1);
  for (let i = 0; i < contents.length; i++) {
    const content = contents[i]!;
    if (content.role !== "model") continue;
    const calls = (content.parts ?? []).map((p, position) => ({ call: p.functionCall, signature: p.thoughtSignature, position })).filter((c) => c.call);
    if (calls.length === 0) continue;
    const next = contents[i + 1];
    const responses = (next?.parts ?? []).filter((p) => p.functionResponse);
    if (!next || next.role === "model" || responses.length === 0) {
      return invalid("Please ensure that function call turn comes immediately after a user turn or after a function response turn.");
    }
    if (responses.length !== calls.length) {
      return invalid("Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.");
    }
    if (i < lastUserText) continue;
    for (const { call, signature, position } of calls) {
      const name = (call as { name?: string }).name ?? "";
      if (signature === undefined) {
        return invalid(
          `Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call \`default_api:${name}\` , position ${position + 1}. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.`,
        );
      }
      if (!signatures.valid(call, signature)) return invalid("Corrupted thought signature.");
    }
  }
  return undefined;
}
