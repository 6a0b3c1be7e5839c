import type { IncomingMessage } from "node:http";

/** Request bodies past this are refused: the auth endpoints take a few short fields. */
const MAX_BODY_BYTES = 64 * 1024;

/**
 * A POST body as aiohttp's `request.post()` reads it for HA: form fields when
 * the body is `application/x-www-form-urlencoded`, and nothing otherwise (a
 * JSON body gives no fields, so HA answers as if they were all missing).
 * The first value of a repeated field wins. Undefined when the body is too large.
 */
export function readForm(req: IncomingMessage): Promise<Map<string, string> | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) tooLarge = true;
      else chunks.push(c);
    });
    req.on("error", () => resolve(undefined));
    req.on("end", () => {
      if (tooLarge) return resolve(undefined);
      const fields = new Map<string, string>();
      const type = (req.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
      if (type !== "application/x-www-form-urlencoded") return resolve(fields);
      for (const [k, v] of new URLSearchParams(Buffer.concat(chunks).toString("utf8"))) if (!fields.has(k)) fields.set(k, v);
      resolve(fields);
    });
  });
}
