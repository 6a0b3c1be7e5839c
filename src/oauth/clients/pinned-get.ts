import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import { Readable } from "node:stream";

/** An address a host name was resolved to and checked. */
export interface CheckedAddress {
  address: string;
  family: 4 | 6;
}

/**
 * One GET of `url`. With `address`, the connection goes to that address,
 * whatever the name resolves to by the time of the connect; the URL's host
 * stays the TLS server name and the Host header.
 */
export type DocumentGet = (url: URL, o: { address?: CheckedAddress; signal: AbortSignal }) => Promise<Response>;

/**
 * The GET metadata documents are fetched with: Node's own http(s) client, its
 * DNS lookup replaced by the address that was checked, so no second lookup
 * can lead the connection to another host (DNS rebinding). No redirects are
 * followed; the answer comes back as a fetch Response.
 */
export const pinnedGet: DocumentGet = (url, { address, signal }) =>
  new Promise<Response>((resolve, reject) => {
    const lookup: LookupFunction | undefined = address
      ? (_hostname, options, callback) => {
          if (options.all) callback(null, [address]);
          else callback(null, address.address, address.family);
        }
      : undefined;
    const send = url.protocol === "https:" ? httpsRequest : httpRequest;
    const req = send(url, { method: "GET", headers: { accept: "application/json" }, signal, agent: false, ...(lookup ? { lookup } : {}) }, (res) => {
      try {
        resolve(asResponse(res));
      } catch (err) {
        res.destroy();
        reject(err instanceof Error ? err : new Error(String(err)));
      }
    });
    req.once("error", reject);
    req.end();
  });

function asResponse(res: IncomingMessage): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  const status = res.statusCode ?? 0;
  if (status < 200 || status > 599) throw new Error(`the server answered with status ${status}`);
  const empty = status === 204 || status === 205 || status === 304;
  if (empty) res.resume();
  return new Response(empty ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>), { status, headers });
}
