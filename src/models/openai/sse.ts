/** One server-sent event: its `event:` name (if any) and its `data:` lines joined by newlines. */
export interface SseEvent {
  event: string | undefined;
  data: string;
}

/**
 * Splits a byte stream into server-sent events. Handles what real servers
 * do: LF, CRLF or CR line ends (Gemini and some proxies use CRLF), an event
 * or a multi-byte character split across reads, `:` comment lines used as
 * keep-alives (OpenRouter), and a last event with no blank line after it.
 * llama-server once wrote errors as a bare `error: {...}` line; that
 * non-standard field is read as the data of an `error` event.
 */
export async function* sseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let data: string[] = [];
  let event: string | undefined;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      let start = 0;
      for (;;) {
        const end = lineEnd(buffer, start, done);
        if (end === undefined) break;
        const line = buffer.slice(start, end.at);
        start = end.next;
        if (line === "") {
          if (data.length > 0) yield { event, data: data.join("\n") };
          data = [];
          event = undefined;
          continue;
        }
        if (line.startsWith(":")) continue;
        const colon = line.indexOf(":");
        const field = colon === -1 ? line : line.slice(0, colon);
        let text = colon === -1 ? "" : line.slice(colon + 1);
        if (text.startsWith(" ")) text = text.slice(1);
        if (field === "data") data.push(text);
        else if (field === "event") event = text;
        else if (field === "error") {
          event = "error";
          data.push(text);
        }
      }
      buffer = buffer.slice(start);
      if (done) {
        if (buffer !== "") {
          // A last line with no line end at all.
          const colon = buffer.indexOf(":");
          if (buffer.slice(0, colon) === "data") data.push(buffer.slice(colon + 1).replace(/^ /, ""));
        }
        if (data.length > 0) yield { event, data: data.join("\n") };
        return;
      }
    }
  } finally {
    // Stops the download when the consumer leaves early (an error event, an abort).
    await reader.cancel().catch(() => undefined);
  }
}

/** Finds the next line end at or after `from`. A lone CR at the end of the buffer waits for the next read, which may start with LF. */
function lineEnd(buffer: string, from: number, final: boolean): { at: number; next: number } | undefined {
  for (let i = from; i < buffer.length; i++) {
    const c = buffer.charCodeAt(i);
    if (c === 10) return { at: i, next: i + 1 };
    if (c === 13) {
      if (i + 1 < buffer.length) return { at: i, next: buffer.charCodeAt(i + 1) === 10 ? i + 2 : i + 1 };
      return final ? { at: i, next: i + 1 } : undefined;
    }
  }
  return undefined;
}
