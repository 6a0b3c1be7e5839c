import type { IncomingMessage } from "node:http";
import { parseHostHeader } from "../shared/index.js";

/**
 * The origin clients reach the add-on at: `public_url` when set (behind a
 * reverse proxy that speaks https), else the plain-http origin the request
 * named in its Host header, as the URL parser reads it. Undefined when the
 * Host header is not a host (a port over 65535, a path, a user): nothing of
 * it is echoed into metadata, challenges or pages.
 */
export function requestOrigin(req: IncomingMessage, publicUrl: string | undefined): string | undefined {
  if (publicUrl) return publicUrl.replace(/\/+$/, "");
  const host = parseHostHeader(req.headers.host);
  return host ? `http://${host.host}` : undefined;
}
