import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { JsonValue } from "../../schemas.js";
import { FLAVOURS, faultMessage } from "./flavours.js";
import { checkHistory } from "./history.js";
import { completion, settleCalls, streamChunks, type RenderContext } from "./render.js";
import type { FakeAnswer, FakeChatRequest, FakeFault, FakeFlavour, FakeLogEntry, FakeReply, FakeResponder } from "./types.js";

type Json = { [key: string]: JsonValue };

export interface FakeOpenAiOptions {
  /** Default `openai`. */
  flavour?: FakeFlavour;
  /** The models the server has; default a few in the flavour's naming. */
  models?: string[];
  /** llama-server's context per slot, reported in its model list as `meta.n_ctx`; default 16384. */
  contextSize?: number;
  /** The key it requires, if any. Ollama never checks one. */
  apiKey?: string;
  /** Default 127.0.0.1 and a free port. */
  host?: string;
  port?: number;
  /** Answers requests when the queue is empty. */
  responder?: FakeResponder;
  /** Source of call ids and chat ids; pass a seeded one for repeatable runs. */
  random?: () => number;
  /** `\r\n` to end stream lines as some proxies do; default `\n`. */
  lineEnding?: "\n" | "\r\n";
  /** Sends `: keep-alive` comments before and between events, as proxies do while a model warms up. */
  keepAliveComments?: boolean;
}

export interface FakeOpenAiServer {
  readonly flavour: FakeFlavour;
  /** `http://127.0.0.1:PORT`. */
  readonly url: string;
  /** `http://127.0.0.1:PORT/v1`, what a client is configured with. */
  readonly baseUrl: string;
  readonly apiKey: string | undefined;
  readonly models: string[];
  /** Every request served, oldest first. */
  readonly log: FakeLogEntry[];
  /** The chat completion requests only. */
  chatRequests(): FakeLogEntry[];
  /** Queues replies; each chat request that passes the checks takes the next one. */
  enqueue(...replies: FakeReply[]): void;
  /** Replies still queued. */
  pending(): number;
  respondWith(responder: FakeResponder | undefined): void;
  close(): Promise<void>;
}

/**
 * Starts a fake OpenAI-compatible server on real sockets: `POST
 * /v1/chat/completions` (streaming or not) and `GET /v1/models`, in the
 * manner of OpenAI, Ollama or llama-server. It checks keys, model names and
 * the history rules, and answers from a queue of scripted replies, then a
 * responder; with neither it refuses with a 400 that says so.
 */
export async function startFakeOpenAiServer(options: FakeOpenAiOptions = {}): Promise<FakeOpenAiServer> {
  const flavour = FLAVOURS[options.flavour ?? "openai"];
  const models = options.models ?? flavour.defaultModels;
  const random = options.random ?? Math.random;
  const queue: FakeReply[] = [];
  let responder = options.responder;
  const log: FakeLogEntry[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const le = options.lineEnding ?? "\n";

  const sleep = (ms: number, res: ServerResponse) =>
    new Promise<void>((resolve) => {
      if (ms <= 0 || res.destroyed) return resolve();
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
      res.once("close", () => {
        clearTimeout(timer);
        timers.delete(timer);
        resolve();
      });
    });

  const handle = async (req: IncomingMessage, res: ServerResponse, entry: FakeLogEntry): Promise<void> => {
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    const raw = await readBody(req);
    const send = (status: number, body: Json | string, outcome: string, headers: Record<string, string> = {}) => {
      entry.status = status;
      entry.outcome = outcome;
      const text = typeof body === "string" ? body : JSON.stringify(body);
      res.writeHead(status, { "content-type": typeof body === "string" ? "text/plain; charset=utf-8" : "application/json", ...headers });
      res.end(text);
    };
    const keyProblem = (): Json | undefined => {
      if (!flavour.checksKey || options.apiKey === undefined) return undefined;
      const header = req.headers.authorization ?? "";
      const sent = /^Bearer\s+(.+)$/i.exec(header)?.[1]?.trim();
      if (!sent) return flavour.missingKey();
      return sent === options.apiKey ? undefined : flavour.wrongKey(sent);
    };

    const modelsPath = path === "/v1/models" || (flavour.name === "llama-server" && path === "/models");
    const chatPath = path === "/v1/chat/completions" || (flavour.name === "llama-server" && path === "/chat/completions");
    if (req.method === "GET" && modelsPath) {
      const problem = flavour.publicModelList ? undefined : keyProblem();
      if (problem) return send(401, problem, "auth");
      return send(200, flavour.modelList(models, 1767225600, options.contextSize ?? 16_384), "models");
    }
    if (req.method !== "POST" || !chatPath) {
      if (flavour.name === "ollama") return send(404, "404 page not found", "not_found");
      return send(404, flavour.error(404, flavour.name === "openai" ? `Invalid URL (${req.method} ${path})` : "File Not Found"), "not_found");
    }

    const problem = keyProblem();
    if (problem) return send(401, problem, "auth");
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

    const stream = body.stream === true;
    const request: FakeChatRequest = { model, messages: body.messages as Json[], stream, body };
    const reply = queue.shift() ?? (responder ? await responder(request) : undefined);
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

  const fault = async (
    reply: FakeFault,
    context: RenderContext,
    stream: boolean,
    res: ServerResponse,
    entry: FakeLogEntry,
    send: (status: number, body: Json, outcome: string, headers?: Record<string, string>) => void,
  ) => {
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
        await writeEvent(res, flavour.error(500, faultMessage(flavour.name, "mid_stream", model)));
        res.end();
        return;
      }
    }
  };

  const answer = async (reply: FakeAnswer, context: RenderContext, body: Json, stream: boolean, res: ServerResponse, entry: FakeLogEntry) => {
    const calls = settleCalls(reply, flavour, random, body.parallel_tool_calls === true);
    entry.outcome = "answer";
    await sleep(reply.delayMs ?? 0, res);
    if (res.destroyed) return;
    entry.status = 200;
    if (!stream) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(completion(reply, calls, context)));
      return;
    }
    startStream(res);
    const chunks = streamChunks(reply, calls, context);
    for (const [i, chunk] of chunks.entries()) {
      if (res.destroyed) return;
      // The opening chunk (a bare role, or an empty content) goes out together with the first content.
      if (i > 1) await sleep(reply.chunkDelayMs ?? 0, res);
      await writeEvent(res, chunk);
    }
    if (res.destroyed) return;
    res.end(`data: [DONE]${le}${le}`);
  };

  const startStream = (res: ServerResponse) => {
    res.writeHead(200, {
      "content-type": flavour.name === "openai" ? "text/event-stream; charset=utf-8" : "text/event-stream",
      "cache-control": "no-cache",
      connection: "keep-alive",
    });
    if (options.keepAliveComments) res.write(`: keep-alive${le}${le}`);
  };

  const writeEvent = async (res: ServerResponse, data: Json) => {
    if (res.destroyed) return;
    if (options.keepAliveComments) res.write(`: keep-alive${le}${le}`);
    res.write(`data: ${JSON.stringify(data)}${le}${le}`);
  };

  const server: Server = createServer((req, res) => {
    const entry: FakeLogEntry = {
      method: req.method ?? "GET",
      path: (req.url ?? "/").split("?")[0] ?? "/",
      body: undefined,
      authorized: /^Bearer\s+\S/i.test(req.headers.authorization ?? ""),
      status: 0,
      outcome: "",
      disconnected: false,
    };
    log.push(entry);
    res.on("close", () => {
      if (!res.writableFinished) entry.disconnected = true;
    });
    handle(req, res, entry).catch((err: unknown) => {
      entry.outcome = `crash: ${(err as Error).message}`;
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify(flavour.error(500, "fake server failure")));
      else res.destroy();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("The fake OpenAI server has no TCP address");
  const host = options.host ?? "127.0.0.1";
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${address.port}`;

  return {
    flavour: flavour.name,
    url,
    baseUrl: `${url}/v1`,
    apiKey: flavour.checksKey ? options.apiKey : undefined,
    models,
    log,
    chatRequests: () => log.filter((e) => e.path.endsWith("/chat/completions")),
    enqueue: (...replies) => void queue.push(...replies),
    pending: () => queue.length,
    respondWith: (next) => {
      responder = next;
    },
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on("data", (part: Buffer) => parts.push(part));
    req.on("end", () => resolve(Buffer.concat(parts).toString("utf8")));
    req.on("error", reject);
  });
}

function randomId(random: () => number): string {
  const chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  let s = "";
  for (let i = 0; i < 29; i++) s += chars[Math.floor(random() * chars.length)];
  return s;
}

