import type { IncomingMessage } from "node:http";
import { HaAgentError } from "../shared/index.js";

export class BodyError extends HaAgentError {
  constructor(
    readonly status: 400 | 413,
    message: string,
  ) {
    super(status === 413 ? "body_too_large" : "bad_json", message);
  }
}

/** Reads a JSON request body, refusing bodies larger than `maxBytes`. Empty bodies are `undefined`. */
export async function readJsonBody(req: IncomingMessage, maxBytes: number): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw new BodyError(413, `The request body is larger than ${maxBytes} bytes.`);
    chunks.push(chunk);
  }
  if (size === 0) return undefined;
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    throw new BodyError(400, "The request body is not valid JSON.");
  }
}
