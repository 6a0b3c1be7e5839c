import { ModelError } from "../errors.js";
import { readErrorBody, scrub, type ServerError } from "../server-words.js";
import { refusalNamingFlags } from "./setup-refusals.js";

export { scrub } from "../server-words.js";

/** What an error message may say about the server and the call. */
export interface ErrorContext {
  /** The base URL as a user may read it. */
  server: string;
  model: string;
  /** Scrubbed from every message. */
  apiKey: string | undefined;
}

/** The server's own words for a failed answer, without keys, cut to one readable line. */
export function serverMessage(error: ServerError | undefined, apiKey: string | undefined): string | undefined {
  const text = error?.message?.trim();
  if (!text) return undefined;
  return scrub(text, apiKey);
}

/** Reads an error body in any shape (an object, a JSON array, plain text); undefined when it is empty. */
export function parseErrorBody(text: string): ServerError | undefined {
  return readErrorBody(text);
}

/** A failure to reach the server at all: refused, reset, DNS, TLS. */
export function unreachable(err: unknown, context: ErrorContext): ModelError {
  const cause = (err as { cause?: { code?: unknown } } | undefined)?.cause;
  const code = typeof cause?.code === "string" ? ` (${cause.code})` : "";
  return new ModelError(
    "unavailable",
    `Cannot reach the OpenAI-compatible server at ${context.server}${code}. Check openai_base_url and that the server is running.`,
  );
}

/**
 * Maps an HTTP error answer to a `ModelError` that says what to fix. 404
 * needs the server's model list to tell an unknown model from a wrong URL,
 * so it is passed in as a function.
 */
export async function errorFromStatus(
  status: number,
  body: string,
  context: ErrorContext & { retryAfterMs: number | undefined; listModels: () => Promise<string[] | undefined> },
): Promise<ModelError> {
  const error = parseErrorBody(body);
  const said = serverMessage(error, context.apiKey);
  // Our sentence goes on after the server's words, so their own full stop goes.
  const saying = said ? `: ${said.replace(/[.\s]+$/, "")}` : "";
  const code = typeof error?.code === "string" ? error.code : undefined;

  // Refusals no retry can fix come first, whatever their status: llama-server says "--jinja" with a 500.
  const setup = refusalNamingFlags({ said, server: context.server, status });
  if (setup) return setup;
  // A chat template that raises on the conversation answers the same way every time.
  if (said && /roles must alternate/i.test(said)) {
    return new ModelError("bad_request", `The chat template of the model at ${context.server} refused the conversation (HTTP ${status})${saying}. Retrying cannot help.`, { status });
  }
  if (said && /does not support tools/i.test(said)) {
    return new ModelError("bad_request", `The model "${context.model}" at ${context.server} cannot call tools (HTTP ${status})${saying}. Set model to one that can (on Ollama: ollama.com/search?c=tools).`, { status });
  }

  // Google answers a wrong key with 400 INVALID_ARGUMENT, in words.
  if (said && status >= 400 && status < 500 && /api key not valid|invalid api key/i.test(said)) {
    return new ModelError("auth", `The OpenAI-compatible server at ${context.server} refused the API key (HTTP ${status})${saying}. Set openai_api_key to a key this server accepts.`, { status });
  }
  if (status === 401 || (status === 403 && !said)) {
    const fix = context.apiKey ? "Set openai_api_key to a key this server accepts." : "It needs a key: set openai_api_key.";
    return new ModelError("auth", `The OpenAI-compatible server at ${context.server} refused the API key (HTTP ${status}). ${fix}`, { status });
  }
  if (status === 403) {
    return new ModelError("auth", `The OpenAI-compatible server at ${context.server} denied access (HTTP 403)${saying}. Check openai_api_key and what it may use.`, { status });
  }
  if (status === 429 && code === "insufficient_quota") {
    // Retrying cannot help: the account behind the key has run out of credit.
    return new ModelError("auth", `The account behind openai_api_key has no quota left (HTTP 429)${saying}. Check its plan and billing.`, { status });
  }
  if (status === 429) {
    const wait = context.retryAfterMs !== undefined ? ` and asks to wait ${formatSeconds(context.retryAfterMs)}` : "";
    return new ModelError("rate_limited", `The OpenAI-compatible server at ${context.server} is limiting requests (HTTP 429)${wait}. Try again later.`, {
      status,
      retryAfterMs: context.retryAfterMs,
    });
  }
  if (status === 404 || code === "model_not_found") {
    return notFound(status, saying, context);
  }
  if (status === 408 || status === 409 || status >= 500) {
    return new ModelError(
      "unavailable",
      `The OpenAI-compatible server at ${context.server} failed (HTTP ${status})${saying}. It may be busy or still loading the model; try again.`,
      { status, retryAfterMs: context.retryAfterMs },
    );
  }
  if (status === 405) {
    return new ModelError("bad_request", `There is no OpenAI-compatible API at ${context.server} (HTTP 405). Check openai_base_url (Ollama: http://HOST:11434/v1).`, { status });
  }
  return new ModelError("bad_request", `The OpenAI-compatible server at ${context.server} rejected the request (HTTP ${status})${saying}.`, { status });
}

async function notFound(status: number, saying: string, context: Parameters<typeof errorFromStatus>[2]): Promise<ModelError> {
  const models = await context.listModels();
  if (models === undefined) {
    return new ModelError(
      "bad_request",
      `The OpenAI-compatible server at ${context.server} answered HTTP ${status}${saying}, and it lists no models either. Check openai_base_url (Ollama: http://HOST:11434/v1).`,
      { status },
    );
  }
  if (models.includes(context.model)) {
    return new ModelError("bad_request", `The OpenAI-compatible server at ${context.server} answered HTTP ${status}${saying}, though it lists the model "${context.model}".`, { status });
  }
  const shown = models.slice(0, 20).map((m) => `"${m}"`).join(", ");
  const more = models.length > 20 ? ` and ${models.length - 20} more` : "";
  const has =
    models.length === 0 ? `It has no models yet; pull or load one first (Ollama: ollama pull ${context.model}).` : `It has ${shown}${more}. Set model to one of them.`;
  return new ModelError("model_not_found", `The OpenAI-compatible server at ${context.server} has no model "${context.model}". ${has}`, {
    status,
  });
}

function formatSeconds(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}
