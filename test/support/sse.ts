/** One SSE event as a client parsed it. */
export interface SseEvent {
  id?: string;
  event: string;
  data: { type: string; session_id: string; continuation_id: string; seq: number; payload: Record<string, unknown> };
}

/** An open `/events/{session_id}` stream: events as they arrive, comments too. */
export interface SseReader {
  status: number;
  headers: Headers;
  events: SseEvent[];
  comments: string[];
  /** Resolves once an event satisfies `accept` (or the stream ends). */
  until(accept: (event: SseEvent) => boolean, timeoutMs?: number): Promise<SseEvent>;
  /** Drops the connection, as a network failure would. */
  close(): void;
  ended: Promise<void>;
}

/** Connects to an event stream with a token, and `Last-Event-ID` when given. */
export async function openEvents(url: string, token: string, lastEventId?: string): Promise<SseReader> {
  const abort = new AbortController();
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}`, ...(lastEventId ? { "last-event-id": lastEventId } : {}) }, signal: abort.signal });
  const events: SseEvent[] = [];
  const comments: string[] = [];
  const waiters = new Set<() => void>();
  const wake = () => waiters.forEach((w) => w());
  const ended = (async () => {
    if (!res.body || !res.headers.get("content-type")?.startsWith("text/event-stream")) return;
    const decoder = new TextDecoder();
    let buffer = "";
    try {
      for await (const chunk of res.body) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        let cut;
        while ((cut = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const fields: Record<string, string> = {};
          for (const line of block.split("\n")) {
            if (line.startsWith(":")) comments.push(line.slice(1).trim());
            else {
              const at = line.indexOf(":");
              fields[line.slice(0, at)] = line.slice(at + 1).trimStart();
            }
          }
          if (fields.data) events.push({ ...(fields.id ? { id: fields.id } : {}), event: fields.event ?? "message", data: JSON.parse(fields.data) as SseEvent["data"] });
          wake();
        }
      }
    } catch {
      // Aborted by close().
    } finally {
      wake();
    }
  })();
  let done = false;
  void ended.then(() => (done = true));
  return {
    status: res.status,
    headers: res.headers,
    events,
    comments,
    ended,
    close: () => abort.abort(),
    until(accept, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => finish(() => reject(new Error(`no such event within ${timeoutMs} ms; got ${events.map((e) => e.event).join(",")}`))), timeoutMs);
        const finish = (then: () => void) => {
          clearTimeout(timer);
          waiters.delete(check);
          then();
        };
        const check = () => {
          const hit = events.find(accept);
          if (hit) finish(() => resolve(hit));
          else if (done) finish(() => reject(new Error(`the stream ended; got ${events.map((e) => e.event).join(",")}`)));
        };
        waiters.add(check);
        check();
      });
    },
  };
}
