import { ApiError } from "@google/genai";
import { describeError } from "../../shared/index.js";
import { ModelError } from "../errors.js";

interface GoogleErrorBody {
  error?: { code?: number; message?: string; status?: string; details?: { "@type"?: string; retryDelay?: string; reason?: string }[] };
}

/** `"7s"` or `"1.5s"` → milliseconds. */
function delayMs(text: string | undefined): number | undefined {
  const match = text ? /^(\d+(?:\.\d+)?)s$/.exec(text) : null;
  return match ? Math.round(Number(match[1]) * 1000) : undefined;
}

function bodyOf(err: ApiError): GoogleErrorBody {
  try {
    return JSON.parse(err.message) as GoogleErrorBody;
  } catch {
    return { error: { message: err.message } };
  }
}

/**
 * The SDK's failures as our typed errors, with messages that name the option
 * to fix. The key never appears: Google's messages do not echo it, and ours
 * do not quote requests.
 */
export function geminiError(err: unknown, context: { model: string; signal?: AbortSignal }): ModelError {
  if (err instanceof ModelError) return err;
  if (context.signal?.aborted || (err instanceof Error && err.name === "AbortError")) return new ModelError("aborted", "The model call was cancelled.");
  if (!(err instanceof ApiError)) {
    return new ModelError("unavailable", `Gemini could not be reached (${describeError(err).slice(0, 200)}). Check the network, or gemini_base_url if you set one.`, { cause: err });
  }
  const body = bodyOf(err).error ?? {};
  const said = (body.message ?? "").slice(0, 300);
  const status = err.status;
  const keyProblem = body.details?.some((d) => d.reason === "API_KEY_INVALID") || /api key/i.test(said);
  if (status === 401 || status === 403 || (status === 400 && keyProblem)) {
    return new ModelError("auth", `Gemini refused the API key: ${said || "not authorised"}. Check gemini_api_key.`, { status });
  }
  if (status === 404) return new ModelError("model_not_found", `Gemini has no model "${context.model}" (${said}). Set model to one your key can use, such as gemini-3.8-flash.`, { status });
  if (status === 429) {
    const retryAfterMs = delayMs(body.details?.find((d) => d["@type"]?.endsWith("google.rpc.RetryInfo"))?.retryDelay);
    return new ModelError("rate_limited", `Gemini is rate-limiting this key: ${said || "too many requests"}.${retryAfterMs ? ` Retry in ${Math.ceil(retryAfterMs / 1000)} s.` : ""}`, { status, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) });
  }
  if (status >= 500) return new ModelError("unavailable", `Gemini failed (HTTP ${status}): ${said || "server error"}.`, { status });
  return new ModelError("bad_request", `Gemini rejected the request (HTTP ${status}): ${said}`, { status });
}
