import { describe, expect, it } from "vitest";
import { FairGate } from "./fair-gate.js";

describe("FairGate", () => {
  it("never runs more than the limit and serves waiting sessions round-robin", async () => {
    const gate = new FairGate(1);
    const order: string[] = [];
    let peak = 0;
    const first = await gate.acquire("busy");
    const work = (session: string, label: string) =>
      gate.acquire(session).then(async (release) => {
        peak = Math.max(peak, gate.running);
        order.push(label);
        await new Promise((r) => setImmediate(r));
        release();
      });
    const all = [work("busy", "busy1"), work("busy", "busy2"), work("busy", "busy3"), work("quiet", "quiet")];
    expect(gate.waiting).toBe(4);
    first();
    await Promise.all(all);
    expect(peak).toBe(1);
    // The quiet session is served right after the busy session's first waiter, not after all three.
    expect(order).toEqual(["busy1", "quiet", "busy2", "busy3"]);
    expect(gate.running).toBe(0);
  });

  it("drops a waiter whose signal aborts", async () => {
    const gate = new FairGate(1);
    const release = await gate.acquire("a");
    const controller = new AbortController();
    const waiting = gate.acquire("b", controller.signal);
    controller.abort(new Error("cancelled"));
    await expect(waiting).rejects.toThrow("cancelled");
    expect(gate.waiting).toBe(0);
    release();
    expect(gate.running).toBe(0);
  });
});
