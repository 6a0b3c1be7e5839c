import { ModelError } from "../errors.js";
import { abortError } from "../retry.js";
import { readErrorBody } from "../server-words.js";
import type { GenerateRequest, GenerateResult, PartialOutput } from "../types.js";
import { applyChunk, applyDelta, wholeCall } from "./accumulate.js";
import { emptyDraft, type AssistantDraft } from "./draft.js";
import { serverMessage } from "./http-errors.js";
import { toResult } from "./result.js";
import { refusalNamingFlags } from "./setup-refusals.js";
import { sseEvents } from "./sse.js";
import { WireChunkSchema, WireCompletionSchema, type WireChunk } from "./wire.js";

export type Attempt = Omit<GenerateResult, "durationMs">;

/** What reading one answer needs to know. */
export interface ReadContext {
  request: GenerateRequest;
  model: string;
  /** The base URL as a user may read it. */
  server: string;
  apiKey: string | undefined;
  signal: AbortSignal | undefined;
  report: (partial: PartialOutput) => void;
  /** Called once output has arrived: from then on a retry would deliver it twice. */
  markStreamed: () => void;
}

/** Reads a streamed answer (server-sent events) into a result. */
export async function readStream(body: ReadableStream<Uint8Array>, context: ReadContext): Promise<Attempt> {
  const draft = emptyDraft();
  let done = false;
  try {
    for await (const event of sseEvents(body)) {
      if (event.data.trim() === "[DONE]") {
        done = true;
        break;
      }
      const chunk = parseChunk(event.data, context.server);
      if (event.event === "error" || chunk.error) throw midStreamError(chunk, context);
      const partial = applyChunk(draft, chunk);
      if (partial.text || partial.thinking || chunk.choices?.some((c) => c.delta?.tool_calls?.length)) context.markStreamed();
      context.report(partial);
    }
  } catch (err) {
    if (context.signal?.aborted) throw abortError();
    if (err instanceof ModelError) throw err;
    throw new ModelError("unavailable", `The connection to the OpenAI-compatible server at ${context.server} broke in the middle of the answer; try again.`);
  }
  // llama-server ends a failed stream without [DONE]; a finish reason means the answer itself was whole.
  if (!done && draft.finishReason === undefined) {
    throw new ModelError("unavailable", `The OpenAI-compatible server at ${context.server} closed the stream before the answer was complete; try again.`);
  }
  return toResult(draft, { request: context.request, model: context.model });
}

/** Reads a whole JSON answer (no streaming, or a server that answered JSON anyway) into a result. */
export async function readWhole(response: Response, context: ReadContext): Promise<Attempt> {
  let json: unknown;
  try {
    json = JSON.parse(await response.text());
  } catch {
    if (context.signal?.aborted) throw abortError();
    throw new ModelError("invalid_response", `The OpenAI-compatible server at ${context.server} sent an answer that is not JSON; try again.`);
  }
  const parsed = WireCompletionSchema.safeParse(json);
  if (!parsed.success) {
    if (readErrorBody(JSON.stringify(json))) throw midStreamError({ error: json as WireChunk["error"] }, context);
    throw new ModelError("invalid_response", `The OpenAI-compatible server at ${context.server} sent a chat completion in a shape we cannot read.`);
  }
  const choice = parsed.data.choices.find((c) => (c.index ?? 0) === 0) ?? parsed.data.choices[0];
  const draft: AssistantDraft = emptyDraft();
  if (choice) {
    const { tool_calls: calls, ...message } = choice.message;
    context.report(applyDelta(draft, message));
    // A whole message lists each call once; indexes there are not keys to merge on.
    draft.calls = (calls ?? []).map(wholeCall);
    draft.finishReason = choice.finish_reason ?? undefined;
  }
  draft.usage = parsed.data.usage ?? undefined;
  return toResult(draft, { request: context.request, model: context.model });
}

function parseChunk(data: string, server: string): WireChunk {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    throw new ModelError("invalid_response", `The OpenAI-compatible server at ${server} sent a stream event that is not JSON; try again.`);
  }
  const parsed = WireChunkSchema.safeParse(json);
  if (!parsed.success) throw new ModelError("invalid_response", `The OpenAI-compatible server at ${server} sent a stream chunk in a shape we cannot read.`);
  return parsed.data;
}

/** An error the server reports inside a 200 answer: the model or the server failed while answering. */
function midStreamError(chunk: Pick<WireChunk, "error">, context: ReadContext): ModelError {
  const said = serverMessage(readErrorBody(JSON.stringify({ error: chunk.error ?? null })), context.apiKey);
  const setup = refusalNamingFlags({ said, server: context.server });
  if (setup) return setup;
  return new ModelError("unavailable", `The OpenAI-compatible server at ${context.server} failed while answering${said ? `: ${said.replace(/[.\s]+$/, "")}` : ""}. Try again.`);
}
