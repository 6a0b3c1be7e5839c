import { createServer, type Server, type ServerResponse } from "node:http";
import type { JsonValue } from "../json.js";
import { fakeState, logEntry, openAiHandler, readBody, type FakeLogEntry, type FakeReply, type FakeResponder, type ReplyQueue } from "../openai/index.js";
import { ollamaView } from "../prompt-view.js";
import { nativeChat, nativeInfo, windowFor, type NativeState } from "./native.js";
import { listen } from "../listen.js";

type Json = { [key: string]: JsonValue };

export interface FakeOllamaOptions {
  /** The models pulled; default qwen3:8b. An empty list is a fresh install. */
  models?: string[];
  /** `OLLAMA_CONTEXT_LENGTH`: the window of a request that sets no num_ctx, and of every /v1 request. Default 4096. */
  defaultContext?: number;
  /** What `/api/version` says. */
  version?: string;
  responder?: FakeResponder;
  random?: () => number;
  host?: string;
  port?: number;
}

export interface FakeOllama {
  /** Ollama's root, `http://127.0.0.1:PORT`: what `ollama_url` is set to. */
  readonly url: string;
  /** `http://127.0.0.1:PORT/v1`: what people configure as an OpenAI-compatible server. */
  readonly v1Url: string;
  readonly models: string[];
  /** Every request served, oldest first, from both APIs. */
  readonly log: FakeLogEntry[];
  /** The chat requests (`/api/chat` and `/v1/chat/completions`) that reached the model. */
  chatRequests(): FakeLogEntry[];
  enqueue(...replies: FakeReply[]): void;
  pending(): number;
  respondWith(responder: FakeResponder | undefined): void;
  close(): Promise<void>;
}

/**
 * A fake Ollama on real sockets, with both of its APIs: its own (`/api/chat`
 * NDJSON, `/api/show`, `/api/tags`, `/api/version`, `/api/ps`) and the
 * OpenAI-compatible `/v1`, answering from one queue of replies. Like
 * Ollama, it runs a request with a 4,096-token window unless the request
 * (native API only) or the server setting says otherwise, and cuts a longer
 * prompt from the start; /v1 runs at temperature 1.0 when a request sets
 * none. Responders see what the model would see (`request.seen`).
 */
export async function startFakeOllama(options: FakeOllamaOptions = {}): Promise<FakeOllama> {
  const models = options.models ?? ["qwen3:8b"];
  const queue: ReplyQueue = { items: [], responder: options.responder };
  const timers = new Set<NodeJS.Timeout>();
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
        resolve();
      });
    });
  const native: NativeState = { models, defaultContext: options.defaultContext ?? 4_096, version: options.version ?? "0.13.5", queue, random: options.random ?? Math.random, loaded: new Map(), sleep };
  const v1 = fakeState({ flavour: "ollama", models, ...(options.random ? { random: options.random } : {}) }, queue);
  // openai/openai.go, FromChatRequest: /v1 cannot set num_ctx, and without a temperature it sends 1.0.
  v1.view = (body: Json) => {
    const model = typeof body.model === "string" ? body.model : "";
    const numCtx = windowFor(native, model, undefined);
    native.loaded.set(model, { contextLength: numCtx, until: Date.now() + 300_000 });
    const seen = ollamaView({ messages: body.messages as Json[], tools: body.tools, numCtx, truncate: true })!;
    return { seen, temperature: typeof body.temperature === "number" ? body.temperature : 1.0 };
  };
  const v1Handle = openAiHandler(v1);
  const log = v1.log;

  const server: Server = createServer((req, res) => {
    const entry = logEntry(req);
    log.push(entry);
    res.on("close", () => {
      if (!res.writableFinished) entry.disconnected = true;
    });
    const answer = async () => {
      const raw = await readBody(req);
      const path = entry.path;
      if (path.startsWith("/v1/")) return v1Handle(req, res, entry, raw);
      if (path === "/" && (req.method === "GET" || req.method === "HEAD")) return void res.writeHead(200, { "content-type": "text/plain; charset=utf-8" }).end("Ollama is running");
      let body: Json | undefined;
      try {
        body = raw ? (JSON.parse(raw) as Json) : undefined;
      } catch {
        return void res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ error: "invalid character in request body" }));
      }
      entry.body = body;
      if (req.method === "POST" && path === "/api/chat") return nativeChat(native, body ?? {}, res, entry);
      const info = nativeInfo(native, req.method ?? "GET", path, body);
      entry.status = info?.status ?? 404;
      entry.outcome = info ? "info" : "not_found";
      // Go's router answers an unknown path with a plain-text 404.
      if (!info) return void res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("404 page not found");
      res.writeHead(info.status, { "content-type": "application/json; charset=utf-8" }).end(JSON.stringify(info.body));
    };
    answer().catch((err: unknown) => {
      entry.outcome = `crash: ${(err as Error).message}`;
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ error: "fake server failure" }));
      else res.destroy();
    });
  });
  await listen(server, options.port, options.host);
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("The fake Ollama server has no TCP address");
  const host = options.host ?? "127.0.0.1";
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${address.port}`;
  return {
    url,
    v1Url: `${url}/v1`,
    models,
    log,
    chatRequests: () => log.filter((e) => (e.path === "/api/chat" || e.path === "/v1/chat/completions") && e.seen !== undefined),
    enqueue: (...replies) => void queue.items.push(...replies),
    pending: () => queue.items.length,
    respondWith: (next) => {
      queue.responder = next;
    },
    close: async () => {
      for (const timer of [...timers, ...v1.timers]) clearTimeout(timer);
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
