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

/** GET `{apiUrl}/{path}` with the bearer token; the answer body as text. */
async function get(options: RestOptions, path: string, accept: string): Promise<string> {
  const url = urlFor(options.apiUrl, path);
  let response: Response;
  try {
    response = await options.fetch(url, {
      headers: { authorization: `Bearer ${options.token}`, accept },
      signal: AbortSignal.timeout(options.timeoutMs),
    });
  } catch (err) {
    const reason =
      err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError")
        ? `no answer within ${options.timeoutMs} ms`
        : describeError(err instanceof Error && err.cause !== undefined ? err.cause : err);
    throw new HaRestError(null, `GET ${url} failed: ${reason}. Check HA_URL and that Home Assistant is running.`, { cause: err });
  }
  const body = await response.text();
  if (response.status === 401 || response.status === 403) {
    throw new HaAuthError(`REST GET ${url} answered ${response.status}`);
  }
  if (!response.ok) {
    const excerpt = body.length > 200 ? `${body.slice(0, 200)}…` : body;
    throw new HaRestError(response.status, `GET ${url} answered ${response.status} ${response.statusText}: ${excerpt}`);
  }
  return body;
}

export async function restGetJson<T>(options: RestOptions, path: string): Promise<T> {
  const body = await get(options, path, "application/json");
  try {
    return JSON.parse(body) as T;
  } catch (err) {
    throw new HaRestError(200, `GET ${urlFor(options.apiUrl, path)} did not return JSON; is apiUrl HA's /api base?`, { cause: err });
  }
}

export function restGetText(options: RestOptions, path: string): Promise<string> {
  return get(options, path, "text/plain");
}
