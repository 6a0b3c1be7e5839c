import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { callSignal } from "./call-signal.js";

describe("callSignal", () => {
  it("aborts the call's signal with the source's reason", () => {
    const source = new AbortController();
    const call = callSignal(source.signal);
    source.abort(new Error("stop"));
    expect(call.signal!.aborted).toBe(true);
    expect((call.signal!.reason as Error).message).toBe("stop");
  });

  it("leaves no listener on the source once released, so Node does not keep a composite source alive", () => {
    const source = AbortSignal.any([new AbortController().signal, AbortSignal.timeout(60_000)]);
    const call = callSignal(source);
    expect(getEventListeners(source, "abort")).toHaveLength(1);
    call.release();
    expect(getEventListeners(source, "abort")).toHaveLength(0);
  });

  it("is aborted at once for a source aborted already, and has no signal without a source", () => {
    expect(callSignal(AbortSignal.abort()).signal!.aborted).toBe(true);
    expect(callSignal(undefined).signal).toBeUndefined();
  });
});
