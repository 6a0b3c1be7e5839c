import { afterEach, describe, expect, it } from "vitest";
import { MAX_PENDING_MSG } from "./connection.js";
import { generateHouse } from "./generate-house.js";
import { startSimulator, type Simulator } from "./index.js";
import { RawClient } from "../test/support/raw-client.js";

/**
 * HA's limits for a client that does not read fast enough
 * (`websocket_api/http.py`): messages wait in HA's queue once the socket holds
 * more than the 1 MiB writer limit; the client is dropped when that queue
 * reaches 4,096, or when it stays above 1,024 for PENDING_MSG_PEAK_TIME.
 * The client here stops reading (ws `pause()`), so nothing depends on timing;
 * the peak timer is fired by hand through the simulator's `schedule` seam.
 */

interface Timer {
  ms: number;
  run: () => void;
  cancelled: boolean;
}

let sim: Simulator;
const clients: RawClient[] = [];
const timers: Timer[] = [];

async function start(): Promise<RawClient> {
  timers.length = 0;
  sim = await startSimulator({
    house: generateHouse({ entities: 50, seed: 9 }),
    schedule: (ms, run) => {
      const t: Timer = { ms, run, cancelled: false };
      timers.push(t);
      return () => (t.cancelled = true);
    },
  });
  const c = await RawClient.authed(sim.wsUrl, sim.users.tokenFor());
  clients.push(c);
  c.send({ id: 1, type: "subscribe_entities", entity_ids: ["sensor.probe"] });
  sim.home.addEntity({ entity_id: "sensor.probe", state: "0" });
  await c.next(); // result
  await c.next(); // snapshot
  return c;
}

afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await sim.close();
});

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));
const armed = () => timers.filter((t) => !t.cancelled);

/** Changes `sensor.probe` `perTick` times per event-loop turn, each diff about `bytes` long, until `done()` or `max` changes. */
async function pump(o: { perTick: number; bytes: number; max: number; done: () => boolean }): Promise<number> {
  const pad = "x".repeat(o.bytes);
  let n = 0;
  while (n < o.max && !o.done()) {
    for (let i = 0; i < o.perTick; i++, n++) sim.home.setState("sensor.probe", String(n), { pad: `${n}${pad}` });
    await tick();
  }
  return n;
}

describe("a client that stops reading", () => {
  it("is dropped once more than 1,024 messages stay pending for the peak time", async () => {
    const c = await start();
    c.socket.pause();
    await pump({ perTick: 200, bytes: 16_384, max: 20_000, done: () => armed().length > 0 });
    const [check] = armed();
    expect(check?.ms).toBe(10_000);
    expect(sim.stats().connections).toBe(1);
    check!.run();
    expect(sim.stats().connections).toBe(0);
  });

  it("is kept when it catches up before the peak time is over", async () => {
    const c = await start();
    c.socket.pause();
    const sent = await pump({ perTick: 200, bytes: 16_384, max: 20_000, done: () => armed().length > 0 });
    const [check] = armed();
    c.socket.resume();
    await c.until((m) => m.type === "event" && m.event.c?.["sensor.probe"]?.["+"]?.s === String(sent - 1), 30_000);
    check!.run();
    expect(sim.stats().connections).toBe(1);
    c.send({ id: 2, type: "ping" });
    expect(await c.until((m) => m.id === 2)).toEqual({ id: 2, type: "pong" });
  });

  it(`is dropped at ${MAX_PENDING_MSG} pending messages, long before its socket holds megabytes`, async () => {
    const c = await start();
    c.socket.pause();
    // Small messages, fewer than the peak per turn: only the count of pending messages can stop this.
    const sent = await pump({ perTick: 500, bytes: 100, max: 400_000, done: () => sim.stats().connections === 0 });
    expect(sim.stats().connections).toBe(0);
    // 64 MiB of these messages (the old byte limit) would have taken about 300,000.
    expect(sent).toBeLessThan(150_000);
  });
});
