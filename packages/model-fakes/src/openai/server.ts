import { createServer, type IncomingMessage, type Server } from "node:http";
import { SignatureBook } from "../gemini/index.js";
import type { ServerSetup } from "./checks.js";
import { FLAVOURS } from "./flavours.js";
import { openAiHandler, type FakeState, type ReplyQueue } from "./handler.js";
import type { FakeFlavour, FakeLogEntry, FakeReply, FakeResponder } from "./types.js";
import { listen } from "../listen.js";

export interface FakeOpenAiOptions extends ServerSetup {
  /** Default `openai`. */
  flavour?: FakeFlavour;
  /** The models the server has; default a few in the flavour's naming. */
  models?: string[];
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
  /** What a client is configured with: `http://127.0.0.1:PORT/v1` (Google's: `…/v1beta/openai`). */
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

/** A fake endpoint's state from its options, for this server or another that mounts the same routes (Ollama's /v1). */
export function fakeState(options: FakeOpenAiOptions, queue: ReplyQueue = { items: [], responder: options.responder }): FakeState {
  const flavour = FLAVOURS[options.flavour ?? "openai"];
  return {
    flavour,
    models: options.models ?? flavour.defaultModels,
    random: options.random ?? Math.random,
    queue,
    log: [],
    timers: new Set(),
    setup: { ...(options.jinja !== undefined ? { jinja: options.jinja } : {}), ...(options.autoToolChoice !== undefined ? { autoToolChoice: options.autoToolChoice } : {}), ...(options.chatTemplate ? { chatTemplate: options.chatTemplate } : {}), ...(options.contextSize ? { contextSize: options.contextSize } : {}) },
    apiKey: flavour.checksKey ? options.apiKey : undefined,
    lineEnding: options.lineEnding ?? "\n",
    keepAliveComments: options.keepAliveComments ?? false,
    signatures: new SignatureBook(),
  };
}

/**
 * Starts a fake OpenAI-compatible server on real sockets: `POST
 * /v1/chat/completions` (streaming or not) and `GET /v1/models`, in the
 * manner of OpenAI, Ollama's /v1, llama-server, vLLM, LM Studio or Gemini's
 * OpenAI endpoint. It checks keys, model names, the history rules and each
 * server's own refusals, and answers from a queue of scripted replies, then
 * a responder; with neither it refuses with a 400 that says so.
 */
export async function startFakeOpenAiServer(options: FakeOpenAiOptions = {}): Promise<FakeOpenAiServer> {
  const state = fakeState(options);
  const handle = openAiHandler(state);
  const server: Server = createServer((req, res) => {
    const entry = logEntry(req);
    state.log.push(entry);
    res.on("close", () => {
      if (!res.writableFinished) entry.disconnected = true;
    });
    readBody(req)
      .then((raw) => handle(req, res, entry, raw))
      .catch((err: unknown) => {
        entry.outcome = `crash: ${(err as Error).message}`;
        if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify(state.flavour.error(500, "fake server failure")));
        else res.destroy();
      });
  });

  await listen(server, options.port, options.host);
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("The fake OpenAI server has no TCP address");
  const host = options.host ?? "127.0.0.1";
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${address.port}`;

  return {
    flavour: state.flavour.name,
    url,
    baseUrl: `${url}${state.flavour.prefixes[0] ?? "/v1"}`,
    apiKey: state.apiKey,
    models: state.models,
    log: state.log,
    chatRequests: () => state.log.filter((e) => e.path.endsWith("/chat/completions")),
    enqueue: (...replies) => void state.queue.items.push(...replies),
    pending: () => state.queue.items.length,
    respondWith: (next) => {
      state.queue.responder = next;
    },
    close: async () => {
      for (const timer of state.timers) clearTimeout(timer);
      state.timers.clear();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}

/** A log entry for a request, before it is answered. */
export function logEntry(req: IncomingMessage): FakeLogEntry {
  return {
    method: req.method ?? "GET",
    path: (req.url ?? "/").split("?")[0] ?? "/",
    body: undefined,
    authorized: /^Bearer\s+\S/i.test(req.headers.authorization ?? ""),
    status: 0,
    outcome: "",
    disconnected: false,
  };
}

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on("data", (part: Buffer) => parts.push(part));
    req.on("end", () => resolve(Buffer.concat(parts).toString("utf8")));
    req.on("error", reject);
  });
}
