import { request as httpRequest, type IncomingMessage } from "node:http";
import { isIP, type LookupFunction } from "node:net";
import { Readable } from "node:stream";

/**
 * One network's name table: which host names resolve there, and to what.
 * IP literals need no resolution and always connect; every other name not
 * in the table fails as DNS fails, with ENOTFOUND.
 */
export interface Network {
  /** Who stands on this network, for error messages ("HA Core", "the person's browser"). */
  who: string;
  names: Readonly<Record<string, string>>;
}

/** The error a name outside the table gets: undici's shape (TypeError "fetch failed", cause with code ENOTFOUND). */
export class HostNotFound extends TypeError {
  constructor(readonly network: Network, readonly url: string, readonly hostname: string) {
    super(`fetch failed: ${network.who} cannot resolve "${hostname}" (getaddrinfo ENOTFOUND ${hostname}) while opening ${url}; it resolves ${Object.keys(network.names).length ? `only ${Object.keys(network.names).join(", ")} and IP literals` : "IP literals only"}`, {
      cause: Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND", hostname }),
    });
  }
}

/** Throws HostNotFound unless `url`'s host is an IP literal or a name of this network. */
export function resolveOrFail(network: Network, url: URL): string {
  const hostname = url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(hostname)) return hostname;
  const address = network.names[hostname.toLowerCase()];
  if (address === undefined) throw new HostNotFound(network, url.toString(), hostname);
  return address;
}

function bodyOf(body: RequestInit["body"]): Buffer | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === "string") return Buffer.from(body);
  if (body instanceof URLSearchParams) return Buffer.from(body.toString());
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  if (ArrayBuffer.isView(body)) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  throw new TypeError(`networkFetch sends strings, URLSearchParams and bytes, not ${Object.prototype.toString.call(body)}`);
}

function headersOf(input: Request | string | URL, init: RequestInit): Headers {
  const headers = new Headers(input instanceof Request ? input.headers : undefined);
  new Headers(init.headers).forEach((value, key) => headers.set(key, value));
  if (init.body instanceof URLSearchParams && !headers.has("content-type")) headers.set("content-type", "application/x-www-form-urlencoded;charset=UTF-8");
  return headers;
}

function responseOf(res: IncomingMessage, url: string): Response {
  const headers = new Headers();
  for (let i = 0; i < res.rawHeaders.length; i += 2) headers.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
  const status = res.statusCode ?? 0;
  const nullBody = status === 204 || status === 304;
  if (nullBody) res.resume();
  // Streamed, not buffered: an MCP server's answer may be an SSE stream that stays open.
  const response = new Response(nullBody ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>), { status, statusText: res.statusMessage ?? "", headers });
  Object.defineProperty(response, "url", { value: url });
  return response;
}

/**
 * A `fetch` for one network, over node:http. Node's fetch cannot be told how
 * to resolve a name, so this connects to the address the table gives while the
 * request keeps the real name in its Host header, as a container on Home
 * Assistant's Docker network reaches `local-ha-agent:8765`. It does not follow
 * redirects (everything here asks for `redirect: "manual"` or gets none).
 */
export function networkFetch(network: Network): typeof fetch {
  const fetchOnNetwork = (input: Request | string | URL, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : input.toString());
    if (url.protocol !== "http:") return Promise.reject(new TypeError(`networkFetch speaks http only, not ${url.protocol} (${url.toString()})`));
    let address: string;
    try {
      address = resolveOrFail(network, url);
    } catch (error) {
      return Promise.reject(error as Error);
    }
    const lookup: LookupFunction = (_name, options, callback) => {
      if (options.all) callback(null, [{ address, family: isIP(address) }]);
      else callback(null, address, isIP(address));
    };
    const method = (init.method ?? (input instanceof Request ? input.method : "GET")).toUpperCase();
    const headers = headersOf(input, init);
    const body = bodyOf(init.body);
    const signal = init.signal ?? (input instanceof Request ? input.signal : undefined);
    return new Promise<Response>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason as Error);
      const req = httpRequest(url, { method, headers: Object.fromEntries(headers), lookup, signal: signal ?? undefined }, (res) => resolve(responseOf(res, url.toString())));
      req.on("error", (error) => reject(signal?.aborted ? (signal.reason as Error) : new TypeError("fetch failed", { cause: error })));
      req.end(body);
    });
  };
  return fetchOnNetwork as typeof fetch;
}
