import type { ServerResponse } from "node:http";
import type { OAuthError } from "./errors.js";

const NO_STORE = { "cache-control": "no-store", pragma: "no-cache" };

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(text), ...NO_STORE });
  res.end(text);
}

export function sendOAuthError(res: ServerResponse, error: OAuthError): void {
  sendJson(res, error.status, error.toJSON());
}

/**
 * An HTML page that no other site may frame (the consent buttons must not be clickjacked).
 * `same-origin`, not `no-referrer`: with `no-referrer` a browser posts the consent form with
 * `Origin: null`, which the listener's origin check rightly refuses; `same-origin` sends the page's
 * own origin back to it and still tells no other site where the browser came from.
 */
export function sendHtml(res: ServerResponse, status: number, html: string, headers: Record<string, string | string[]> = {}): void {
  res.writeHead(status, {
    "content-type": "text/html; charset=utf-8",
    "content-length": Buffer.byteLength(html),
    "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; form-action 'self' http: https:; frame-ancestors 'none'; base-uri 'none'",
    "x-frame-options": "DENY",
    "referrer-policy": "same-origin",
    ...NO_STORE,
    ...headers,
  });
  res.end(html);
}

export function redirect(res: ServerResponse, location: string, headers: Record<string, string | string[]> = {}): void {
  res.writeHead(302, { location, ...NO_STORE, ...headers }).end();
}

/** A redirect URI with parameters added, its own query kept. */
export function withParams(uri: string, params: Record<string, string | undefined>): string {
  const url = new URL(uri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  return url.toString();
}
