import type { SignatureBook } from "./signatures.js";
import type { GeminiReply, GeminiRequestBody } from "./types.js";

let nextId = 0;

/** The chunks of a streamed answer, shaped like Gemini's; the last one carries the finish reason and usage. */
export function renderChunks(reply: GeminiReply, body: GeminiRequestBody, model: string, signatures: SignatureBook): Record<string, unknown>[] {
  const chunks: Record<string, unknown>[] = [];
  const candidate = (parts: Record<string, unknown>[], extra: Record<string, unknown> = {}) => ({ candidates: [{ content: { role: "model", parts }, index: 0, ...extra }], modelVersion: model, responseId: `fake-${++nextId}` });
  if (reply.thought) chunks.push(candidate([{ text: reply.thought, thought: true }]));
  if (reply.text) {
    // Text arrives in pieces, as it does from the real service.
    const words = reply.text.match(/\S+\s*/g) ?? [reply.text];
    for (let i = 0; i < words.length; i += 4) chunks.push(candidate([{ text: words.slice(i, i + 4).join("") }]));
  }
  const calls = (reply.calls ?? []).map((c, i) => {
    const functionCall = { id: `fc-${nextId}-${i}`, name: c.name, args: c.args ?? {} };
    return { functionCall, thoughtSignature: signatures.sign(functionCall) };
  });
  if (calls.length) chunks.push(candidate(calls));
  // Gemini 3 may end a text answer with a signature alone on an empty text part.
  if (!calls.length && reply.text) chunks.push(candidate([{ text: "", thoughtSignature: signatures.sign({ text: reply.text }) }]));
  const prompt = reply.usage?.prompt ?? Math.ceil(JSON.stringify(body.contents ?? []).length / 4);
  const output = reply.usage?.output ?? Math.ceil(((reply.text ?? "").length + JSON.stringify(reply.calls ?? []).length) / 4);
  const thoughts = reply.usage?.thoughts ?? Math.ceil((reply.thought ?? "").length / 4);
  const finishReason = reply.finishReason ?? (reply.fault === "safety" ? "SAFETY" : "STOP");
  const usageMetadata = { promptTokenCount: prompt, candidatesTokenCount: output, thoughtsTokenCount: thoughts, totalTokenCount: prompt + output + thoughts, ...(reply.usage?.cached ? { cachedContentTokenCount: reply.usage.cached } : {}) };
  // A candidate that ends with nothing (MALFORMED_FUNCTION_CALL, MAX_TOKENS spent on thinking) has empty content, not an
  // empty text (ai.google.dev/api/generate-content#FinishReason; the js-genai SDK reads `content` as optional).
  const last = chunks.pop() ?? { candidates: [{ content: {}, index: 0 }], modelVersion: model, responseId: `fake-${++nextId}` };
  const lastCandidate = (last.candidates as Record<string, unknown>[])[0]!;
  lastCandidate.finishReason = finishReason;
  if (reply.finishMessage) lastCandidate.finishMessage = reply.finishMessage;
  chunks.push({ ...last, usageMetadata });
  return chunks;
}
