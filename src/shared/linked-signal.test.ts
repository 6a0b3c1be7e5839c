import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { linkedSignal } from "./linked-signal.js";

describe("linkedSignal", () => {
  it("aborts the call's signal with the reason of the source that aborted", () => {
    const turn = new AbortController();
    const drain = new AbortController();
    const call = linkedSignal([turn.signal, drain.signal]);
    drain.abort(new Error("shutting down"));
    expect(call.signal!.aborted).toBe(true);
    expect((call.signal!.reason as Error).message).toBe("shutting down");
  });

  it("leaves no listener on its sources once released, so Node keeps neither a composite source nor the call", () => {
    const source = AbortSignal.any([new AbortController().signal, AbortSignal.timeout(60_000)]);
    const drain = new AbortController().signal;
    const call = linkedSignal([source, drain]);
    expect(getEventListeners(source, "abort")).toHaveLength(1);
    call.release();
    expect(getEventListeners(source, "abort")).toHaveLength(0);
    expect(getEventListeners(drain, "abort")).toHaveLength(0);
  });

  it("is aborted at once when a source is aborted already, and has no signal without a source", () => {
    expect(linkedSignal([new AbortController().signal, AbortSignal.abort()]).signal!.aborted).toBe(true);
    expect(linkedSignal([undefined]).signal).toBeUndefined();
  });
});
