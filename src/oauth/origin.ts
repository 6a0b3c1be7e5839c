import type { IncomingMessage } from "node:http";

// A Host header is a host name or address and an optional port; anything else is refused rather than echoed into URLs.
const HOST = /^(?:[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/**
 * The origin clients reach the add-on at: `public_url` when set (behind a
 * reverse proxy that speaks https), else the plain-http origin the request
 * named in its Host header. Undefined when the Host header is not a host.
 */
export function requestOrigin(req: IncomingMessage, publicUrl: string | undefined): string | undefined {
  if (publicUrl) return publicUrl.replace(/\/+$/, "");
  const host = req.headers.host;
  if (!host || !HOST.test(host)) return undefined;
  return `http://${host.toLowerCase()}`;
}
