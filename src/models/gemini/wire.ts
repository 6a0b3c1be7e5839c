import type { Content, FunctionDeclaration, Part } from "@google/genai";
import type { ConversationItem, JsonValue, ModelTurn } from "../schemas.js";
import type { GenerateRequest, ToolDeclaration } from "../types.js";

/** Ids we make for calls Gemini sent without one; they are not sent back, as Gemini never saw them. */
export const GENERATED_ID = "gen-";

/**
 * Our conversation in Gemini's shape. A model turn this provider produced
 * goes back exactly as received (its `thoughtSignature`s included), because
 * Gemini 3 rejects function-calling history without them; a turn from
 * another provider, or from memory, is rendered from its text and calls.
 */
export function toContents(items: ConversationItem[], provider: string): Content[] {
  const contents: Content[] = [];
  for (const item of items) {
    if (item.type === "user") {
      // Gemini refuses a part whose only field is an empty text ("required oneof field 'data'").
      if (item.text !== "") contents.push({ role: "user", parts: [{ text: item.text }] });
    } else if (item.type === "model") {
      const content = modelContent(item.turn, provider);
      if (content.parts?.length) contents.push(content);
    } else
      contents.push({
        role: "user",
        parts: item.results.map((r) => ({ functionResponse: { ...(r.callId.startsWith(GENERATED_ID) ? {} : { id: r.callId }), name: r.name, response: responseOf(r.output, r.isError) } })),
      });
  }
  return contents;
}

/**
 * A model turn as Gemini takes it back: our own turns verbatim (their
 * signatures included), without parts that hold nothing but an empty text,
 * which Gemini refuses; other turns from their text and calls.
 */
function modelContent(turn: ModelTurn, provider: string): Content {
  if (turn.provider === provider && turn.raw && typeof turn.raw === "object" && !Array.isArray(turn.raw)) {
    const raw = turn.raw as Content;
    return { ...raw, parts: (raw.parts ?? []).filter((p) => !isEmptyTextPart(p)) };
  }
  const parts: Part[] = [];
  if (turn.text) parts.push({ text: turn.text });
  for (const call of turn.toolCalls) parts.push({ functionCall: { id: call.id, name: call.name, args: call.args } });
  return { role: "model", parts };
}

/** `{text: ""}` and nothing else: a signature-only part (`{text: "", thoughtSignature}`) is kept. */
function isEmptyTextPart(part: Part): boolean {
  return part.text === "" && Object.keys(part).every((k) => k === "text");
}

/**
 * Gemini wants a JSON object as a function response. A failed tool's output
 * is already `{error: {code, message}}`: it goes as it is, not wrapped in a
 * second `error`.
 */
function responseOf(output: JsonValue, isError: boolean): Record<string, unknown> {
  const isObject = output !== null && typeof output === "object" && !Array.isArray(output);
  if (isError) return isObject && "error" in output ? (output as Record<string, unknown>) : { error: output };
  return isObject ? (output as Record<string, unknown>) : { result: output };
}

export function toDeclarations(tools: ToolDeclaration[] | undefined): FunctionDeclaration[] {
  return (tools ?? []).map((t) => ({ name: t.name, description: t.description, parametersJsonSchema: t.parameters }));
}

export const systemOf = (request: GenerateRequest) => (request.system ? { systemInstruction: { role: "system", parts: [{ text: request.system }] } } : {});
