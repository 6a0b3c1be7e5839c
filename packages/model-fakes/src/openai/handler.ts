import type { IncomingMessage, ServerResponse } from "node:http";
import type { JsonValue } from "../json.js";
import type { SignatureBook } from "../gemini/index.js";
import { fullView, type SeenPrompt } from "../prompt-view.js";
import { refusal, type ServerSetup } from "./checks.js";
import { faultMessage, type Flavour } from "./flavours.js";
import { checkHistory } from "./history.js";
import { completion, settleCalls, streamChunks, toolCallsAsText, type RenderContext } from "./render.js";
import { extraRoute } from "./routes.js";
import type { FakeAnswer, FakeChatRequest, FakeFault, FakeLogEntry, FakeReply, FakeResponder } from "./types.js";

type Json = { [key: string]: JsonValue };

/** Replies waiting for requests, shared by every route that answers chats (Ollama's fake has two). */
export interface ReplyQueue {
  items: FakeReply[];
  responder: FakeResponder | undefined;
}

/** Everything a fake OpenAI-compatible endpoint needs to answer. */
export interface FakeState {
  flavour: Flavour;
  models: string[];
  random: () => number;
  queue: ReplyQueue;
  log: FakeLogEntry[];
  timers: Set<NodeJS.Timeout>;
  setup: ServerSetup;
  apiKey: string | undefined;
  lineEnding: "\n" | "\r\n";
  keepAliveComments: boolean;
  signatures: SignatureBook;
  /** What the model sees, and at which temperature it runs; all of it and the request's own by default. */
  view?: (body: Json) => { seen: SeenPrompt; temperature: number | undefined } | { refusal: { status: number; body: JsonValue } };
}

/** Answers one HTTP request to an OpenAI-compatible API, as `state.flavour`'s server does. */
export function openAiHandler(state: FakeState): (req: IncomingMessage, res: ServerResponse, entry: FakeLogEntry, raw: string) => Promise<void> {
  const { flavour, models, random, queue, setup } = state;
  const le = state.lineEnding;

  const sleep = (ms: number, res: ServerResponse) =>
    new Promise<void>((resolve) => {
      if (ms <= 0 || res.destroyed) return resolve();
      const timer = setTimeout(() => {
        state.timers.delete(timer);
        resolve();
      }, ms);
      state.timers.add(timer);
      res.once("close", () => {
        clearTimeout(timer);
        state.timers.delete(timer);
        resolve();
      });
    });

  const startStream = (res: ServerResponse) => {
    res.writeHead(200, {
      "content-type": flavour.name === "openai" ? "text/event-stream; charset=utf-8" : "text/event-stream",
      "cache-control": "no-cache",
      connection: "keep-alive",
    });
    if (state.keepAliveComments) res.write(`: keep-alive${le}${le}`);
  };

  const writeEvent = async (res: ServerResponse, data: JsonValue) => {
    if (res.destroyed) return;
    if (state.keepAliveComments) res.write(`: keep-alive${le}${le}`);
    res.write(`data: ${JSON.stringify(data)}${le}${le}`);
  };

  return async (req, res, entry, raw) => {
    const path = entry.path;
    const send = (status: number, body: JsonValue, outcome: string, headers: Record<string, string> = {}) => {
      entry.status = status;
      entry.outcome = outcome;
      const text = typeof body === "string" ? body : JSON.stringify(body);
      res.writeHead(status, { "content-type": typeof body === "string" ? "text/plain; charset=utf-8" : "application/json", ...headers });
      res.end(text);
    };
    const keyProblem = (): JsonValue | undefined => {
      if (!flavour.checksKey || state.apiKey === undefined) return undefined;
      const sent = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? "")?.[1]?.trim();
      if (!sent) return flavour.missingKey();
      return sent === state.apiKey ? undefined : flavour.wrongKey(sent);
    };
    const under = (suffix: string) => flavour.prefixes.some((p) => path === `${p}${suffix}`);

    if (req.method === "GET" && under("/models")) {
      const problem = flavour.publicModelList ? undefined : keyProblem();
      if (problem) return send(flavour.keyStatus, problem, "auth");
      return send(200, flavour.modelList(models, 1767225600, setup.contextSize ?? 16_384), "models");
    }
    const extra = req.method === "GET" ? extraRoute(flavour, path, models, setup) : undefined;
    if (extra !== undefined) return send(200, extra, "info");
    if (req.method !== "POST" || !under("/chat/completions")) {
      const missing = flavour.notFound(req.method ?? "GET", path);
      return send(missing.status, missing.body, "not_found");
    }

    const problem = keyProblem();
    if (problem) return send(flavour.keyStatus, problem, "auth");
    let body: Json;
    try {
      const parsed: unknown = JSON.parse(raw);
      if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("not an object");
      body = parsed as Json;
    } catch {
      return send(400, flavour.error(400, "We could not parse the JSON body of your request. The OpenAI API expects a JSON payload."), "invalid");
    }
    entry.body = body;
    if (typeof body.model !== "string" || body.model === "") return send(400, flavour.error(400, "you must provide a model parameter"), "invalid");
    if (!Array.isArray(body.messages) || body.messages.length === 0) return send(400, flavour.error(400, "[] is too short - 'messages'"), "invalid");
    const model = body.model;
    if (!flavour.anyModelName && !models.includes(model)) {
      const unknown = flavour.unknownModel(model);
      return send(unknown.status, unknown.body, "unknown_model");
    }
    const history = checkHistory(body.messages, flavour);
    if (history) return send(400, history, "history");
    const refused = refusal({ flavour, body, setup, signatures: state.signatures });
    if (refused) return send(refused.status, refused.body, refused.outcome);

    const viewed = state.view?.(body) ?? { seen: fullView(body.messages as Json[], body.tools), temperature: typeof body.temperature === "number" ? body.temperature : undefined };
    if ("refusal" in viewed) return send(viewed.refusal.status, viewed.refusal.body, "context_length");
    entry.seen = viewed.seen;
    entry.temperature = viewed.temperature;
    const stream = body.stream === true;
    const request: FakeChatRequest = { model, messages: body.messages as Json[], stream, body, seen: viewed.seen, temperature: viewed.temperature };
    const reply = queue.items.shift() ?? (queue.responder ? await queue.responder(request) : undefined);
    if (!reply) return send(400, flavour.error(400, "The fake OpenAI-compatible server has no scripted reply left: enqueue one or set a responder."), "no_script");

    const streamOptions = body.stream_options;
    const context: RenderContext = {
      flavour,
      // llama-server names the model it serves, whatever was asked.
      model: flavour.anyModelName ? (models[0] ?? model) : model,
      id: flavour.name === "ollama" ? `chatcmpl-${Math.floor(random() * 999)}` : `chatcmpl-${randomId(random)}`,
      created: Math.floor(Date.now() / 1000),
      includeUsage: typeof streamOptions === "object" && streamOptions !== null && !Array.isArray(streamOptions) && streamOptions.include_usage === true,
      promptChars: JSON.stringify(body.messages).length,
    };
    if ("fault" in reply) return fault(reply, context, stream, res, entry, send);
    await answer(reply, context, body, stream, res, entry);
  };

  async function fault(reply: FakeFault, context: RenderContext, stream: boolean, res: ServerResponse, entry: FakeLogEntry, send: (status: number, body: JsonValue, outcome: string, headers?: Record<string, string>) => void) {
    const model = context.model;
    switch (reply.fault) {
      case "rate_limit": {
        const headers: Record<string, string> = {};
        if (reply.retryAfter !== undefined) headers["retry-after"] = String(reply.retryAfter);
        if (reply.retryAfterMs !== undefined) headers["retry-after-ms"] = String(reply.retryAfterMs);
        return send(429, flavour.error(429, faultMessage(flavour.name, "rate_limit", model), { code: "rate_limit_exceeded" }), reply.fault, headers);
      }
      case "quota":
        return send(429, flavour.error(429, faultMessage(flavour.name, "quota", model), { type: "insufficient_quota", code: "insufficient_quota" }), reply.fault);
      case "server_error":
        return send(500, flavour.error(500, faultMessage(flavour.name, "server_error", model)), reply.fault);
      case "unavailable":
        return send(503, flavour.error(503, faultMessage(flavour.name, "unavailable", model)), reply.fault);
      case "bad_request":
        return send(400, flavour.error(400, reply.message ?? "Invalid request."), reply.fault);
      case "mid_stream_error":
      case "drop": {
        if (!stream) {
          if (reply.fault === "drop") {
            entry.outcome = reply.fault;
            res.socket?.destroy();
            return;
          }
          return send(500, flavour.error(500, faultMessage(flavour.name, "mid_stream", model)), reply.fault);
        }
        entry.status = 200;
        entry.outcome = reply.fault;
        startStream(res);
        for (const chunk of streamChunks({ text: reply.text ?? "" }, [], context, { cut: true })) await writeEvent(res, chunk);
        if (reply.fault === "drop") {
          // Let the chunks reach the client before the connection goes.
          await sleep(20, res);
          res.socket?.destroy();
          return;
        }
        // An error event is one object, even from a server whose error bodies are arrays.
        const event = flavour.error(500, faultMessage(flavour.name, "mid_stream", model));
        await writeEvent(res, Array.isArray(event) ? (event[0] ?? null) : event);
        res.end();
        return;
      }
    }
  }

  async function answer(reply: FakeAnswer, context: RenderContext, body: Json, stream: boolean, res: ServerResponse, entry: FakeLogEntry) {
    // Google puts the thought signature of each call in its extra_content, and wants it back.
    const extra = flavour.name === "gemini-openai" ? (call: { name: string; arguments: string }) => ({ extra_content: { google: { thought_signature: state.signatures.sign({ name: call.name, arguments: call.arguments }) } } }) : undefined;
    let calls = settleCalls(reply, flavour, random, body.parallel_tool_calls === true, extra);
    let shown = reply;
    if (stream && flavour.streamsToolCallsAsText && calls.length > 0) {
      shown = { ...reply, text: toolCallsAsText(reply.text, calls), finishReason: "stop" };
      calls = [];
    }
    entry.outcome = "answer";
    await sleep(reply.delayMs ?? 0, res);
    if (res.destroyed) return;
    entry.status = 200;
    if (!stream) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(completion(shown, calls, context)));
      return;
    }
    startStream(res);
    const chunks = streamChunks(shown, calls, context);
    for (const [i, chunk] of chunks.entries()) {
      if (res.destroyed) return;
      // The opening chunk (a bare role, or an empty content) goes out together with the first content.
      if (i > 1) await sleep(reply.chunkDelayMs ?? 0, res);
      await writeEvent(res, chunk);
    }
    if (res.destroyed) return;
    res.end(`data: [DONE]${le}${le}`);
  }
}

function randomId(random: () => number): string {
  const chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  let s = "";
  for (let i = 0; i < 29; i++) s += chars[Math.floor(random() * chars.length)];
  return s;
}
