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
    if (item.type === "user") contents.push({ role: "user", parts: [{ text: item.text }] });
    else if (item.type === "model") contents.push(modelContent(item.turn, provider));
    else
      contents.push({
        role: "user",
        parts: item.results.map((r) => ({ functionResponse: { ...(r.callId.startsWith(GENERATED_ID) ? {} : { id: r.callId }), name: r.name, response: responseOf(r.output, r.isError) } })),
      });
  }
  return contents;
}

function modelContent(turn: ModelTurn, provider: string): Content {
  if (turn.provider === provider && turn.raw && typeof turn.raw === "object" && !Array.isArray(turn.raw)) return turn.raw as Content;
  const parts: Part[] = [];
  if (turn.text) parts.push({ text: turn.text });
  for (const call of turn.toolCalls) parts.push({ functionCall: { id: call.id, name: call.name, args: call.args } });
  return { role: "model", parts: parts.length ? parts : [{ text: "" }] };
}

/** Gemini wants a JSON object as a function response: wrap anything else. */
function responseOf(output: JsonValue, isError: boolean): Record<string, unknown> {
  if (isError) return { error: output };
  return output !== null && typeof output === "object" && !Array.isArray(output) ? (output as Record<string, unknown>) : { result: output };
}

export function toDeclarations(tools: ToolDeclaration[] | undefined): FunctionDeclaration[] {
  return (tools ?? []).map((t) => ({ name: t.name, description: t.description, parametersJsonSchema: t.parameters }));
}

export const systemOf = (request: GenerateRequest) => (request.system ? { systemInstruction: { role: "system", parts: [{ text: request.system }] } } : {});
