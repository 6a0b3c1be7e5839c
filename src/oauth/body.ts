import type { IncomingMessage } from "node:http";
import { OAuthError } from "./errors.js";

/** OAuth requests are small: a form or a registration document. */
export const MAX_OAUTH_BODY_BYTES = 16 * 1024;

/** The raw body, refused past `maxBytes` (the rest is not read; the caller closes the connection). */
export function readBody(req: IncomingMessage, maxBytes = MAX_OAUTH_BODY_BYTES): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        req.off("data", onData);
        req.pause();
        reject(new OAuthError("invalid_request", `The request body is larger than ${maxBytes} bytes.`, 413));
        return;
      }
      chunks.push(chunk);
    };
    req.on("data", onData);
    req.once("error", reject);
    req.once("end", () => resolve(Buffer.concat(chunks)));
  });
}

/** An `application/x-www-form-urlencoded` body, as OAuth's token and revoke endpoints take. */
export async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const type = (req.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded") {
    throw new OAuthError("invalid_request", "Send the parameters as application/x-www-form-urlencoded (OAuth 2.1, section 3.2).");
  }
  const params = new URLSearchParams((await readBody(req)).toString("utf8"));
  for (const key of new Set(params.keys())) {
    // RFC 6749 §3.1: a parameter sent twice makes the request invalid.
    if (params.getAll(key).length > 1) throw new OAuthError("invalid_request", `The parameter ${key} was sent more than once; send it once.`);
  }
  return params;
}

/** A JSON body, as dynamic client registration takes. */
export async function readJson(req: IncomingMessage): Promise<unknown> {
  const text = (await readBody(req)).toString("utf8");
  try {
    return JSON.parse(text);
  } catch {
    throw new OAuthError("invalid_client_metadata", "The registration body is not valid JSON; send a JSON object (RFC 7591).");
  }
}
