/**
 * What model servers say, made fit to show: URLs without credentials, text
 * without keys, and error bodies read in every shape servers use.
 */

/** A server's error, as far as its body says. */
export interface ServerError {
  message?: string;
  type?: string;
  code?: string | number;
  /** The request field it refuses, when it names one (OpenAI's `param`). */
  param?: string;
  /** Google's `status` (`INVALID_ARGUMENT`). */
  status?: string;
}

/** The base URL as a user may read it: no query, no fragment, no credentials. */
export function displayUrl(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    url.username = "";
    url.password = "";
    url.search = "";
    url.hash = "";
    return url.toString().replace(/\/+$/, "");
  } catch {
    return "(invalid URL)";
  }
}

/**
 * Removes the key, and the masked forms some servers echo back (OpenAI says
 * "Incorrect API key provided: sk-ab***********wxyz"), then cuts the text
 * to one line of at most 300 characters.
 */
export function scrub(text: string, apiKey: string | undefined): string {
  let out = text;
  if (apiKey) out = out.split(apiKey).join("[key]");
  out = out.replace(/\S*\*{3,}\S*/g, "[key]").replace(/\bsk-[A-Za-z0-9_-]{8,}/g, "[key]");
  out = out.replace(/\s+/g, " ").trim();
  return out.length > 300 ? `${out.slice(0, 297)}...` : out;
}

/**
 * Reads an error body in any of the shapes servers send:
 * - `{"error": {"message", "type", "code", "param"}}` (OpenAI, llama-server, vLLM today);
 * - `{"error": "text"}` (Ollama's native API);
 * - `{"object": "error", "message", "type", "code"}` (older vLLM);
 * - `{"detail": "text"}` (FastAPI servers);
 * - a JSON array of those (Google's OpenAI-compatible endpoint: `[{"error": {…}}]`);
 * - a JSON string, or plain text (proxies, `404 page not found`); an HTML page says only that it is one.
 * Undefined for an empty body.
 */
export function readErrorBody(text: string): ServerError | undefined {
  const trimmed = text.trim();
  if (trimmed === "") return undefined;
  let json: unknown;
  try {
    json = JSON.parse(trimmed);
  } catch {
    if (/^<(!doctype|html)/i.test(trimmed)) return { message: "(an HTML page instead of an API answer)" };
    return { message: trimmed };
  }
  return fromJson(json, 0);
}

function fromJson(json: unknown, depth: number): ServerError | undefined {
  if (depth > 3 || json === null || json === undefined) return undefined;
  if (typeof json === "string") return json.trim() ? { message: json } : undefined;
  if (Array.isArray(json)) {
    for (const item of json) {
      const found = fromJson(item, depth + 1);
      if (found) return found;
    }
    return undefined;
  }
  if (typeof json !== "object") return undefined;
  const o = json as Record<string, unknown>;
  if ("error" in o && o.error !== null && o.error !== undefined) {
    const inner = typeof o.error === "string" ? { message: o.error } : fromJson(o.error, depth + 1);
    if (inner) return inner;
  }
  const message = str(o.message) ?? str(o.detail) ?? str(o.msg);
  if (message === undefined && o.code === undefined && o.type === undefined) return undefined;
  const out: ServerError = {};
  if (message !== undefined) out.message = message;
  const type = str(o.type);
  if (type !== undefined) out.type = type;
  if (typeof o.code === "string" || typeof o.code === "number") out.code = o.code;
  const param = str(o.param);
  if (param !== undefined) out.param = param;
  const status = str(o.status);
  if (status !== undefined) out.status = status;
  return out;
}

function str(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value : undefined;
}
