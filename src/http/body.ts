import type { IncomingMessage } from "node:http";
import { HaAgentError } from "../shared/index.js";

export class BodyError extends HaAgentError {
  constructor(
    readonly status: 400 | 413,
    message: string,
    /** The rest of the body was not read: the connection must close after the answer. */
    readonly closeConnection = false,
  ) {
    super(status === 413 ? "body_too_large" : "bad_json", message);
  }
}

/** How much past the limit is read and thrown away so the connection stays usable; more than this closes it. */
const DRAIN_BYTES = 1024 * 1024;

/**
 * Reads a JSON request body, refusing bodies larger than `maxBytes`. Empty
 * bodies are `undefined`. An oversized body is read to its end and dropped
 * (up to a bound), so a keep-alive connection can carry the next request;
 * past that bound the caller is told to close the connection.
 */
export function readJsonBody(req: IncomingMessage, maxBytes: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const tooLarge = () => `The request body is larger than ${maxBytes} bytes.`;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) return void chunks.push(chunk);
      chunks.length = 0;
      if (size > maxBytes + DRAIN_BYTES) {
        req.off("data", onData);
        req.pause();
        reject(new BodyError(413, tooLarge(), true));
      }
    };
    req.on("data", onData);
    req.once("error", reject);
    req.once("end", () => {
      if (size > maxBytes) return reject(new BodyError(413, tooLarge()));
      if (size === 0) return resolve(undefined);
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString("utf8")));
      } catch {
        reject(new BodyError(400, "The request body is not valid JSON."));
      }
    });
  });
}
