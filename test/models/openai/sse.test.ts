import { describe, expect, it } from "vitest";
import { sseEvents, type SseEvent } from "../../../src/models/openai/sse.js";
import { streamOf } from "../../support/models/openai-harness.js";

async function collect(body: ReadableStream<Uint8Array>): Promise<SseEvent[]> {
  const out: SseEvent[] = [];
  for await (const event of sseEvents(body)) out.push(event);
  return out;
}

describe("sseEvents", () => {
  it("reads data events and the [DONE] sentinel", async () => {
    const events = await collect(streamOf(['data: {"a":1}\n\n', "data: [DONE]\n\n"]));
    expect(events).toEqual([
      { event: undefined, data: '{"a":1}' },
      { event: undefined, data: "[DONE]" },
    ]);
  });

  it("reads CRLF line ends, also when a CR and its LF arrive in different reads", async () => {
    // Read as two line ends, the split CRLF would end the first event after its first data line.
    const events = await collect(streamOf(['data: {"a":\r', "\ndata: 1}\r\n\r\n", 'data: {"b":2}\r\n\r\n']));
    expect(events.map((e) => e.data)).toEqual(['{"a":\n1}', '{"b":2}']);
  });

  it("joins an event split across reads, a multi-byte character included", async () => {
    const bytes = new TextEncoder().encode('data: {"t":"Küche 22 °C"}\n\n');
    const pieces = Array.from(bytes, (b) => new Uint8Array([b]));
    const events = await collect(streamOf(pieces));
    expect(events).toEqual([{ event: undefined, data: '{"t":"Küche 22 °C"}' }]);
  });

  it("skips comment lines used as keep-alives", async () => {
    const events = await collect(streamOf([": OPENROUTER PROCESSING\n\n", ": ping\n", 'data: {"a":1}\n\n']));
    expect(events.map((e) => e.data)).toEqual(['{"a":1}']);
  });

  it("joins multi-line data, keeps event names, and reads a last event with no blank line after it", async () => {
    const events = await collect(streamOf(["event: error\ndata: {\"x\":\ndata: 1}\n\n", "data:{\"tail\":true}"]));
    expect(events).toEqual([
      { event: "error", data: '{"x":\n1}' },
      { event: undefined, data: '{"tail":true}' },
    ]);
  });

  it("reads llama-server's old bare `error:` line as an error event", async () => {
    const events = await collect(streamOf(['error: {"code":500,"message":"boom"}\n\n']));
    expect(events).toEqual([{ event: "error", data: '{"code":500,"message":"boom"}' }]);
  });
});
