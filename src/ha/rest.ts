import { describeError } from "../shared/index.js";
import { HaAuthError, HaRestError } from "./errors.js";

export interface RestOptions {
  apiUrl: string;
  token: string;
  fetch: typeof fetch;
  timeoutMs: number;
}

function urlFor(apiUrl: string, path: string): string {
  return `${apiUrl.replace(/\/+$/, "")}/${path.replace(/^\/+/, "")}`;
}

/** `method` `{apiUrl}/{path}` with the bearer token (and a JSON body for a POST); the answer body as text. */
async function send(options: RestOptions, request: { method: "GET" | "POST"; path: string; accept: string; json?: unknown }): Promise<string> {
  const { method } = request;
  const url = urlFor(options.apiUrl, request.path);
  let response: Response;
  try {
    response = await options.fetch(url, {
      method,
      headers: { authorization: `Bearer ${options.token}`, accept: request.accept, ...(request.json !== undefined ? { "content-type": "application/json" } : {}) },
      ...(request.json !== undefined ? { body: JSON.stringify(request.json) } : {}),
      signal: AbortSignal.timeout(options.timeoutMs),
    });
  } catch (err) {
    const reason =
      err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError")
        ? `no answer within ${options.timeoutMs} ms`
        : describeError(err instanceof Error && err.cause !== undefined ? err.cause : err);
    throw new HaRestError(null, `${method} ${url} failed: ${reason}. Check HA_URL and that Home Assistant is running.`, { cause: err });
  }
  const body = await response.text();
  if (response.status === 401 || response.status === 403) {
    throw new HaAuthError(`REST ${method} ${url} answered ${response.status}`);
  }
  if (!response.ok) {
    const excerpt = body.length > 200 ? `${body.slice(0, 200)}…` : body;
    throw new HaRestError(response.status, `${method} ${url} answered ${response.status} ${response.statusText}: ${excerpt}`, { body });
  }
  return body;
}

function parsed<T>(options: RestOptions, method: string, path: string, body: string): T {
  try {
    return JSON.parse(body) as T;
  } catch (err) {
    throw new HaRestError(200, `${method} ${urlFor(options.apiUrl, path)} did not return JSON; is apiUrl HA's /api base?`, { cause: err });
  }
}

export async function restGetJson<T>(options: RestOptions, path: string): Promise<T> {
  return parsed<T>(options, "GET", path, await send(options, { method: "GET", path, accept: "application/json" }));
}

/** POST a JSON body; the JSON answer. A refusal keeps HA's answer in the error's `body` (HA's config views say what was wrong there). */
export async function restPostJson<T>(options: RestOptions, path: string, json: unknown): Promise<T> {
  return parsed<T>(options, "POST", path, await send(options, { method: "POST", path, accept: "application/json", json }));
}

export function restGetText(options: RestOptions, path: string): Promise<string> {
  return send(options, { method: "GET", path, accept: "text/plain" });
}
