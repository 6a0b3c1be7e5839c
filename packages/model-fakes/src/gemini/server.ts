import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { badKey, internal, invalid, overloaded, rateLimited, unknownModel } from "./errors.js";
import { checkHistory } from "./history.js";
import { renderChunks } from "./render.js";
import { SignatureBook } from "./signatures.js";
import type { GeminiReply, GeminiRequestBody, GeminiRequestLog, GeminiResponder } from "./types.js";
import { listen } from "../listen.js";

/** The models a fake serves when it is given none. */
export const DEFAULT_GEMINI_MODELS = ["gemini-3.8-flash", "gemini-3.5-flash"];

export interface FakeGeminiOptions {
  /** The key it accepts; any key when left out. */
  apiKey?: string;
  /** The models it serves. */
  models?: string[];
  /** Answers, one per generate call, before the responder is asked. */
  replies?: GeminiReply[];
  responder?: GeminiResponder;
  host?: string;
  port?: number;
}

export interface FakeGemini {
  /** The base URL to give `@google/genai` (`httpOptions.baseUrl`). */
  url: string;
  readonly requests: GeminiRequestLog[];
  /** Queues more answers. */
  script(...replies: GeminiReply[]): void;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A local stand-in for the Gemini API (`/v1beta/models/{model}:…`) that
 * speaks its wire format: SSE streams of GenerateContentResponse chunks,
 * Google's error bodies, thought signatures it issues and checks, and the
 * history rules of function calling. The demo model runs on it too.
 */
export async function startFakeGemini(options: FakeGeminiOptions = {}): Promise<FakeGemini> {
  const queue = [...(options.replies ?? [])];
  const requests: GeminiRequestLog[] = [];
  const signatures = new SignatureBook();
  const models = new Set(options.models ?? DEFAULT_GEMINI_MODELS);

  const send = (res: ServerResponse, code: number, body: unknown) => {
    res.writeHead(code, { "content-type": "application/json; charset=UTF-8" });
    res.end(JSON.stringify(body));
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://fake");
    const key = req.headers["x-goog-api-key"] ?? url.searchParams.get("key");
    if (options.apiKey !== undefined && key !== options.apiKey) {
      const e = badKey();
      return send(res, e.code, e.body);
    }
    if (req.method === "GET" && /\/models\/?$/.test(url.pathname)) {
      return send(res, 200, { models: [...models].map((m) => ({ name: `models/${m}`, supportedGenerationMethods: ["generateContent", "countTokens"] })) });
    }
    const match = /\/models\/([^/:]+):(generateContent|streamGenerateContent|countTokens)$/.exec(url.pathname);
    if (req.method !== "POST" || !match) return send(res, 404, { error: { code: 404, message: `Method not found: ${req.method} ${url.pathname}`, status: "NOT_FOUND" } });
    const [, model, method] = match as unknown as [string, string, string];
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    let body: GeminiRequestBody;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as GeminiRequestBody;
    } catch {
      const e = invalid("Invalid JSON payload received.");
      return send(res, e.code, e.body);
    }
    const entry: GeminiRequestLog = { model, method, stream: method === "streamGenerateContent", body, status: 200, disconnected: false };
    requests.push(entry);
    res.on("close", () => {
      if (!res.writableFinished) entry.disconnected = true;
    });
    const fail = (e: { code: number; body: unknown }) => {
      entry.status = e.code;
      send(res, e.code, e.body);
    };
    if (!models.has(model)) return fail(unknownModel(model));
    if (method === "countTokens") {
      const contents = (body as { contents?: unknown; generateContentRequest?: { contents?: unknown } }).contents ?? (body as { generateContentRequest?: { contents?: unknown } }).generateContentRequest?.contents;
      return send(res, 200, { totalTokens: Math.ceil(JSON.stringify(contents ?? []).length / 4) });
    }
    const broken = checkHistory(body, signatures);
    if (broken) return fail(broken);

    const reply = queue.shift() ?? (options.responder ? await options.responder(body, { model }) : undefined);
    if (!reply) return fail(invalid("The fake Gemini server has no scripted answer left for this request."));
    if (reply.delayMs) await sleep(reply.delayMs);
    if (res.destroyed) return;
    if (reply.fault === "rate_limit") return fail(rateLimited(reply.retryDelay ?? "2s"));
    if (reply.fault === "server_error") return fail(internal());
    if (reply.fault === "unavailable") return fail(overloaded());
    if (reply.fault === "prompt_blocked") {
      const blocked = { promptFeedback: { blockReason: "SAFETY" }, usageMetadata: { promptTokenCount: 10, totalTokenCount: 10 } };
      if (!entry.stream) return send(res, 200, blocked);
      res.writeHead(200, { "content-type": "text/event-stream" });
      return void res.end(`data: ${JSON.stringify(blocked)}\r\n\r\n`);
    }
    const rendered = renderChunks(reply, body, model, signatures);
    if (!entry.stream) {
      // One answer: every chunk's parts in one candidate.
      const parts = rendered.flatMap((c) => ((c.candidates as { content: { parts: unknown[] } }[])[0]!.content.parts));
      const last = rendered.at(-1)!;
      const candidate = (last.candidates as Record<string, unknown>[])[0]!;
      return send(res, 200, { ...last, candidates: [{ ...candidate, content: { role: "model", parts } }] });
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    for (let i = 0; i < rendered.length; i++) {
      if (res.destroyed) return;
      if (reply.fault === "mid_stream_error" && i === 1) {
        // Google ends a broken stream with an error object as the last event.
        res.end(`data: ${JSON.stringify({ error: { code: 503, message: "The model is overloaded. Please try again later.", status: "UNAVAILABLE" } })}\r\n\r\n`);
        return;
      }
      res.write(`data: ${JSON.stringify(rendered[i])}\r\n\r\n`);
      if (reply.chunkDelayMs && i < rendered.length - 1) await sleep(reply.chunkDelayMs);
    }
    res.end();
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) send(res, 500, { error: { code: 500, message: String(err), status: "INTERNAL" } });
      else res.destroy();
    });
  });
  await listen(server, options.port, options.host);
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? "127.0.0.1"}:${port}`,
    requests,
    script: (...replies) => queue.push(...replies),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
