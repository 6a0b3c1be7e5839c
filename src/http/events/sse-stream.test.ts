import { EventEmitter } from "node:events";
import type { ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { AgentEvents, type AgentEvent } from "../../agent/index.js";
import { MAX_QUEUED_EVENTS, SseStream } from "./sse-stream.js";

/** A response whose reader stops reading once `capacity` bytes are buffered, and never reads again. */
function stalledResponse(capacity: number) {
  const res = new EventEmitter() as EventEmitter & { buffered: number; ended?: string; destroyed: boolean; writableNeedDrain: boolean; writeHead(): void; write(s: string): boolean; end(s?: string): void; destroy(): void };
  Object.assign(res, {
    buffered: 0,
    destroyed: false,
    writableNeedDrain: false,
    writeHead() {},
    write(s: string) {
      res.buffered += Buffer.byteLength(s);
      res.writableNeedDrain = res.buffered >= capacity;
      return !res.writableNeedDrain;
    },
    end(s?: string) {
      res.ended = s ?? "";
    },
    destroy() {
      res.destroyed = true;
    },
  });
  return res;
}

const event = (type: AgentEvent["type"], seq: number, payload: AgentEvent["payload"] = {}): Omit<AgentEvent, "ts"> => ({ type, session_id: "S", continuation_id: "C", seq, payload });

describe("SseStream", () => {
  it("keeps 100 readers that never read bounded while a long turn runs, and closes them with the reason", () => {
    const events = new AgentEvents(() => 0);
    const capacity = 16 * 1024;
    const readers = Array.from({ length: 100 }, () => {
      const res = stalledResponse(capacity);
      const stream = new SseStream(res as unknown as ServerResponse, { keepAliveMs: 60_000 });
      events.subscribe("S", (e) => stream.send(e));
      return { res, stream };
    });
    let maxQueued = 0;
    // A long turn: 2,000 steps, each with text streamed in between.
    for (let seq = 1; seq <= 2_000; seq++) {
      events.emit(event("partial", seq - 1, { partial_response: "x".repeat(200) }));
      events.emit(event("step", seq, { step: { type: "tool_result", number: seq, detail: { name: "state_query", isError: false } } }));
      maxQueued = Math.max(maxQueued, ...readers.map((r) => r.stream.queued));
    }
    expect(maxQueued).toBeLessThanOrEqual(MAX_QUEUED_EVENTS);
    for (const { res, stream } of readers) {
      expect(stream.closed).toBe(true);
      expect(res.buffered).toBeLessThan(capacity + 1_024);
      expect(res.ended).toMatch(/^: closed: .*Last-Event-ID/);
    }
  });

  it("merges queued text of a turn into one partial, and never drops a step or a final", () => {
    const res = stalledResponse(0);
    const stream = new SseStream(res as unknown as ServerResponse, { keepAliveMs: 60_000 });
    const sent: string[] = [];
    res.write = (s: string) => (sent.push(s), false);
    for (let i = 0; i < 50; i++) stream.send({ ...event("partial", 3, { partial_response: `${i},` }), ts: 0 });
    stream.send({ ...event("step", 4), ts: 0 });
    stream.send({ ...event("final", 5, { status: "completed" }), ts: 0 });
    expect(stream.queued).toBe(3);
    res.writableNeedDrain = false;
    res.write = (s: string) => (sent.push(s), true);
    res.emit("drain");
    expect(sent.map((s) => /event: (\w+)/.exec(s)?.[1])).toEqual(["partial", "step", "final"]);
    expect(sent[0]).toContain(Array.from({ length: 50 }, (_, i) => `${i},`).join(""));
    expect(sent[0]).not.toMatch(/^id:/);
    expect(sent[1]).toMatch(/^id: C:4\n/);
  });
});
