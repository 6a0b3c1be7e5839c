import type { IncomingMessage, ServerResponse } from "node:http";

/** Headers that describe the Node connection or a body the web Request does not carry. */
const NOT_COPIED = new Set(["host", "connection", "keep-alive", "content-length", "transfer-encoding", "upgrade"]);

/**
 * The web `Request` the SDK serves, built from a Node request whose body was
 * already read (the SDK gets it parsed, as `parsedBody`). Its signal is how
 * the SDK learns that the caller went away.
 */
export function toWebRequest(req: IncomingMessage, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || NOT_COPIED.has(name)) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  // A fixed origin: the SDK routes on the path and the body, and a Host header is the caller's to make up.
  return new Request(new URL(req.url ?? "/", "http://localhost"), { method: req.method ?? "GET", headers, signal });
}

/**
 * Writes the SDK's answer to the Node response. JSON answers go out whole;
 * event streams are copied as they come, until they end or `signal` aborts
 * (the caller left, or the program is stopping).
 */
export async function writeWebResponse(res: ServerResponse, response: Response, signal: AbortSignal): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  const streaming = response.headers.get("content-type")?.startsWith("text/event-stream") ?? false;
  if (!response.body || !streaming) {
    const body = response.body ? Buffer.from(await response.arrayBuffer()) : undefined;
    res.writeHead(response.status, { ...headers, "content-length": String(body?.length ?? 0) });
    res.end(body);
    return;
  }
  res.writeHead(response.status, headers);
  res.flushHeaders();
  const reader = response.body.getReader();
  const stop = () => void reader.cancel().catch(() => {});
  signal.addEventListener("abort", stop, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || signal.aborted) break;
      if (!res.write(value)) await drainedOrClosed(res);
    }
  } catch {
    // The stream was cancelled because the caller left: nothing is owed to anyone.
  } finally {
    signal.removeEventListener("abort", stop);
    res.end();
  }
}

function drainedOrClosed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}
