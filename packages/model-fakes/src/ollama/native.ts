import type { ServerResponse } from "node:http";
import type { JsonValue } from "../json.js";
import type { FakeAnswer, FakeChatRequest, FakeFault, FakeLogEntry, ReplyQueue } from "../openai/index.js";
import { ollamaView } from "../prompt-view.js";
import { catalogModel, fullName } from "./catalog.js";

type Json = { [key: string]: JsonValue };

/** What the native routes share with the server: its models, its default window, what is loaded. */
export interface NativeState {
  models: string[];
  /** `OLLAMA_CONTEXT_LENGTH`: the num_ctx of a request that sets none. */
  defaultContext: number;
  version: string;
  queue: ReplyQueue;
  random: () => number;
  /** Loaded models and the window each runs with, for `/api/ps`. */
  loaded: Map<string, { contextLength: number; until: number }>;
  sleep(ms: number, res: ServerResponse): Promise<void>;
}

const MODIFIED = "2026-10-01T10:00:00.000000000Z";

function details(name: string): Json {
  const m = catalogModel(name);
  return { parent_model: "", format: "gguf", family: m.arch, families: [m.arch], parameter_size: m.parameterSize, quantization_level: "Q4_K_M" };
}

/** The num_ctx a model runs with: the request's or the server's default, never above what the model was trained for. */
export function windowFor(state: NativeState, model: string, asked: number | undefined): number {
  return Math.min(asked ?? state.defaultContext, catalogModel(model).contextLength);
}

/** `GET /api/tags`, `/api/version`, `/api/ps` and `POST /api/show`, in Ollama's shapes (api/types.go). */
export function nativeInfo(state: NativeState, method: string, path: string, body: Json | undefined): { status: number; body: JsonValue } | undefined {
  if (method === "GET" && path === "/api/version") return { status: 200, body: { version: state.version } };
  if (method === "GET" && path === "/api/tags") {
    return { status: 200, body: { models: state.models.map((name) => ({ name, model: name, modified_at: MODIFIED, size: 5_225_387_923, digest: "500a1f067a9f782620b40bee6f7b0c89e17ae61f686b92c24933e4ca4b2b8b41", details: details(name) })) } };
  }
  if (method === "GET" && path === "/api/ps") {
    const now = Date.now();
    return {
      status: 200,
      body: {
        models: [...state.loaded].filter(([, l]) => l.until > now).map(([name, l]) => ({ name, model: name, size: 6_000_000_000, digest: "500a1f067a9f", details: details(name), expires_at: new Date(l.until).toISOString(), size_vram: 6_000_000_000, context_length: l.contextLength })),
      },
    };
  }
  if (method === "POST" && path === "/api/show") {
    const name = typeof body?.model === "string" ? body.model : typeof body?.name === "string" ? body.name : "";
    if (!state.models.includes(name)) return { status: 404, body: { error: `model '${name}' not found` } };
    const m = catalogModel(name);
    return {
      status: 200,
      body: {
        parameters: m.temperature !== undefined ? `temperature                    ${m.temperature}\ntop_k                          20` : "",
        template: "{{ .Prompt }}",
        details: details(name),
        model_info: { "general.architecture": m.arch, "general.parameter_count": 8_190_735_360, [`${m.arch}.context_length`]: m.contextLength, [`${m.arch}.embedding_length`]: 4096 },
        capabilities: m.capabilities,
        modified_at: MODIFIED,
      },
    };
  }
  return undefined;
}

/**
 * `POST /api/chat` as Ollama's ChatHandler answers it (server/routes.go):
 * an unknown model is a 404, tools for a model without the capability a
 * 400, and a prompt over num_ctx is cut as Ollama cuts it, or refused with
 * `truncate: false`. Streaming is the default: NDJSON lines, each call whole
 * in one line with its `id` and object `arguments`, then a `done` line with
 * the counts.
 */
export async function nativeChat(state: NativeState, body: Json, res: ServerResponse, entry: FakeLogEntry): Promise<void> {
  const send = (status: number, payload: JsonValue, outcome: string) => {
    entry.status = status;
    entry.outcome = outcome;
    res.writeHead(status, { "content-type": "application/json; charset=utf-8" }).end(JSON.stringify(payload));
  };
  const model = typeof body.model === "string" ? body.model : "";
  if (!model) return send(400, { error: "model is required" }, "invalid");
  if (!state.models.includes(model)) return send(404, { error: `model '${model}' not found` }, "unknown_model");
  const facts = catalogModel(model);
  const messages = Array.isArray(body.messages) ? (body.messages as Json[]) : [];
  const tools = Array.isArray(body.tools) && body.tools.length > 0 ? body.tools : undefined;
  if (tools && !facts.capabilities.includes("tools")) return send(400, { error: `${fullName(model)} does not support tools` }, "no_tools");
  for (const message of messages) {
    for (const call of Array.isArray(message.tool_calls) ? message.tool_calls : []) {
      const args = (call as Json).function && ((call as Json).function as Json).arguments;
      if (typeof args === "string") return send(400, { error: "json: cannot unmarshal string into Go struct field ToolCallFunction.messages.tool_calls.function.arguments of type map[string]interface {}" }, "invalid");
    }
  }
  const options = (body.options ?? {}) as Json;
  const numCtx = windowFor(state, model, typeof options.num_ctx === "number" ? options.num_ctx : undefined);
  const seen = ollamaView({ messages, tools, numCtx, truncate: body.truncate !== false });
  // llama.cpp's server, which Ollama runs, refuses a prompt over its context when Ollama may not cut it.
  if (!seen) return send(400, { error: "the request exceeds the available context size, try increasing it" }, "context_length");
  entry.seen = seen;
  const temperature = typeof options.temperature === "number" ? options.temperature : (facts.temperature ?? 0.8);
  entry.temperature = temperature;
  state.loaded.set(model, { contextLength: numCtx, until: Date.now() + keepAliveMs(body.keep_alive) });

  const stream = body.stream !== false;
  const request: FakeChatRequest = { model, messages, stream, body, seen, temperature };
  const reply = state.queue.items.shift() ?? (state.queue.responder ? await state.queue.responder(request) : undefined);
  if (!reply) return send(400, { error: "The fake Ollama server has no scripted reply left: enqueue one or set a responder." }, "no_script");
  if ("fault" in reply) return fault(reply, stream, res, entry, send, model);
  await state.sleep(reply.delayMs ?? 0, res);
  if (res.destroyed) return;
  entry.status = 200;
  entry.outcome = "answer";
  const lines = chatLines(reply, { model, promptTokens: Math.min(seen.tokens, numCtx), random: state.random, maxTokens: typeof options.num_predict === "number" ? options.num_predict : undefined });
  if (!stream) {
    res.writeHead(200, { "content-type": "application/json; charset=utf-8" }).end(JSON.stringify(whole(lines)));
    return;
  }
  res.writeHead(200, { "content-type": "application/x-ndjson" });
  for (const [i, line] of lines.entries()) {
    if (res.destroyed) return;
    if (i > 0) await state.sleep(reply.chunkDelayMs ?? 0, res);
    res.write(`${JSON.stringify(line)}\n`);
  }
  res.end();
}

/** keep_alive as api/types.go reads it: seconds, or a duration; negative keeps the model loaded. Default five minutes. */
function keepAliveMs(value: JsonValue | undefined): number {
  if (typeof value === "number") return value < 0 ? 1e12 : value * 1_000;
  if (typeof value !== "string") return 300_000;
  const m = /^(-?\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(value);
  if (!m) return 300_000;
  const n = Number(m[1]);
  const unit = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 }[m[2] ?? "s"] ?? 1_000;
  return n < 0 ? 1e12 : n * unit;
}

function chatLines(answer: FakeAnswer, context: { model: string; promptTokens: number; random: () => number; maxTokens: number | undefined }): Json[] {
  const created = new Date().toISOString();
  const line = (message: Json): Json => ({ model: context.model, created_at: created, message: { role: "assistant", content: "", ...message }, done: false });
  const lines: Json[] = [];
  for (const piece of words(answer.reasoning ?? "")) lines.push(line({ thinking: piece }));
  for (const piece of words(answer.text ?? "")) lines.push(line({ content: piece }));
  const calls = (answer.toolCalls ?? []).map((call, index) => ({
    // server/routes.go, toolCallId: "call_" and eight lower-case letters or digits.
    id: call.id ?? `call_${Array.from({ length: 8 }, () => "abcdefghijklmnopqrstuvwxyz0123456789"[Math.floor(context.random() * 36)]).join("")}`,
    function: { index, name: call.name, arguments: call.argumentsText !== undefined ? safeObject(call.argumentsText) : (call.args ?? {}) },
  }));
  if (calls.length) lines.push(line({ tool_calls: calls }));
  const written = (answer.text ?? "") + (answer.reasoning ?? "") + JSON.stringify(calls);
  const evalCount = answer.usage ? answer.usage.completionTokens : Math.ceil(written.length / 4);
  lines.push({
    model: context.model,
    created_at: created,
    message: { role: "assistant", content: "" },
    done: true,
    done_reason: answer.finishReason === "length" ? "length" : "stop",
    total_duration: 1_200_000_000,
    load_duration: 50_000_000,
    prompt_eval_count: answer.usage ? answer.usage.promptTokens : context.promptTokens,
    prompt_eval_duration: 300_000_000,
    eval_count: evalCount,
    eval_duration: 800_000_000,
  });
  return lines;
}

/** The answer without streaming: one object, the message whole. */
function whole(lines: Json[]): Json {
  const last = lines.at(-1) as Json;
  const message: Json = { role: "assistant", content: "" };
  for (const line of lines.slice(0, -1)) {
    const m = line.message as Json;
    if (m.content) message.content = `${message.content as string}${m.content as string}`;
    if (m.thinking) message.thinking = `${(message.thinking as string | undefined) ?? ""}${m.thinking as string}`;
    if (m.tool_calls) message.tool_calls = m.tool_calls;
  }
  return { ...last, message };
}

function safeObject(text: string): JsonValue {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as JsonValue) : {};
  } catch {
    return {};
  }
}

function words(text: string): string[] {
  return text.match(/\s*\S+|\s+$/g) ?? [];
}

/** Ollama's failures, in its words (server/routes.go, handleScheduleError; the runner's exit). */
async function fault(reply: FakeFault, stream: boolean, res: ServerResponse, entry: FakeLogEntry, send: (status: number, payload: JsonValue, outcome: string) => void, model: string): Promise<void> {
  switch (reply.fault) {
    case "rate_limit":
    case "quota":
      return send(429, { error: "too many requests" }, reply.fault);
    case "server_error":
      return send(500, { error: "llama runner process has terminated: exit status 2" }, reply.fault);
    case "unavailable":
      return send(503, { error: "server busy, please try again.  maximum pending requests exceeded" }, reply.fault);
    case "bad_request":
      return send(400, { error: reply.message ?? "invalid request" }, reply.fault);
    case "mid_stream_error":
    case "drop": {
      entry.status = 200;
      entry.outcome = reply.fault;
      res.writeHead(200, { "content-type": stream ? "application/x-ndjson" : "application/json" });
      const created = new Date().toISOString();
      for (const piece of words(reply.text ?? "")) res.write(`${JSON.stringify({ model, created_at: created, message: { role: "assistant", content: piece }, done: false })}\n`);
      if (reply.fault === "drop") {
        // Let the lines reach the client before the connection goes.
        await new Promise((resolve) => setTimeout(resolve, 20));
        res.socket?.destroy();
        return;
      }
      // An error inside the stream is a line of its own (server/routes.go: ch <- gin.H{"error": …}).
      res.end(`${JSON.stringify({ error: "llama runner process has terminated: exit status 2" })}\n`);
      return;
    }
  }
}
