import { describeError } from "../../shared/index.js";
import { ModelError } from "../errors.js";
import { abortError } from "../retry.js";
import { scrub } from "../server-words.js";

/** What an Ollama error message may name. */
export interface OllamaContext {
  /** Ollama's root as a user may read it. */
  server: string;
  model: string;
  numCtx: number;
  /** The models Ollama has, for a 404; undefined when it will not say. */
  listModels: () => Promise<string[] | undefined>;
}

/** The `ollama` client's error for a non-2xx answer: `error` holds the server's words. */
function responseError(err: unknown): { status: number; said: string } | undefined {
  if (!(err instanceof Error) || err.name !== "ResponseError") return undefined;
  const e = err as Error & { status_code?: unknown; error?: unknown };
  return { status: typeof e.status_code === "number" ? e.status_code : 0, said: scrub(typeof e.error === "string" ? e.error : e.message, undefined) };
}

/**
 * Ollama's failures as typed errors whose messages say what to change.
 * Texts follow Ollama's server/routes.go: `model 'x' not found` (404),
 * `… does not support tools` (400), `server busy` (503), a runner that
 * died (500).
 */
export async function ollamaError(err: unknown, context: OllamaContext & { signal: AbortSignal | undefined }): Promise<ModelError> {
  if (err instanceof ModelError) return err;
  if (context.signal?.aborted || (err instanceof Error && err.name === "AbortError")) return abortError();
  const refused = responseError(err);
  if (!refused) {
    const text = describeError(err);
    if (/did not receive done/i.test(text)) return new ModelError("unavailable", `Ollama at ${context.server} closed the stream before the answer was complete; try again.`);
    if (err instanceof TypeError || /fetch failed|ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ETIMEDOUT/.test(text)) {
      const code = (err as { cause?: { code?: unknown } }).cause?.code;
      return new ModelError(
        "unavailable",
        `Cannot reach Ollama at ${context.server}${typeof code === "string" ? ` (${code})` : ""}. Check ollama_url, and that Ollama listens on the network (OLLAMA_HOST=0.0.0.0) and is running.`,
      );
    }
    // An error line inside the stream ({"error": "…"}), which the client throws as a plain Error.
    return new ModelError("unavailable", `Ollama at ${context.server} failed while answering: ${scrub(text, undefined)}. Try again.`);
  }
  const { status, said } = refused;
  if (status === 404) return notFound(context, said);
  if (/does not support tools/i.test(said)) {
    return new ModelError("bad_request", `The model "${context.model}" on Ollama cannot call tools (${said}). Set model to one that can: ollama.com/search?c=tools lists them.`, { status });
  }
  if (/context|exceeds/i.test(said) && status === 400) {
    return new ModelError("bad_request", `Ollama refused the request because it does not fit num_ctx ${context.numCtx} (${said}). Raise model_context_tokens, if the model and the machine allow it.`, { status });
  }
  if (/system memory|out of memory|cudaMalloc|unable to allocate/i.test(said)) {
    return new ModelError("bad_request", `Ollama could not load "${context.model}" with num_ctx ${context.numCtx} (${said}). Lower model_context_tokens, or pick a smaller model.`, { status });
  }
  if (status === 429) return new ModelError("rate_limited", `Ollama at ${context.server} is limiting requests: ${said}.`, { status });
  if (status >= 500 || status === 408) return new ModelError("unavailable", `Ollama at ${context.server} failed (HTTP ${status}): ${said}. It may be busy or still loading the model; try again.`, { status });
  if (status === 401 || status === 403) {
    return new ModelError("auth", `Ollama at ${context.server} refused the request (HTTP ${status}): ${said}. Ollama itself takes no key: check what stands in front of it at ollama_url.`, { status });
  }
  return new ModelError("bad_request", `Ollama at ${context.server} refused the request (HTTP ${status}): ${said}.`, { status });
}

async function notFound(context: OllamaContext, said: string): Promise<ModelError> {
  const models = await context.listModels();
  if (models === undefined) return new ModelError("bad_request", `Ollama at ${context.server} answered 404 (${said}). Check ollama_url: it is Ollama's root, such as http://192.168.1.20:11434.`, { status: 404 });
  if (models.length === 0) return new ModelError("model_not_found", `Ollama at ${context.server} has no models: pull a model first: \`ollama pull ${context.model}\`.`, { status: 404 });
  const shown = models.slice(0, 20).join(", ");
  const more = models.length > 20 ? ` and ${models.length - 20} more` : "";
  return new ModelError("model_not_found", `Ollama at ${context.server} has no model "${context.model}". It has ${shown}${more}. Set model to one of them, or pull it: \`ollama pull ${context.model}\`.`, { status: 404 });
}
