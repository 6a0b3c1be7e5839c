import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { EntitiesMessage, HassState } from "./common/index.js";
import { demoHouse } from "./demo/index.js";
import { generateHouse } from "./generate-house.js";
import { startSimulator, type Simulator } from "./index.js";
import { applyEntitiesMessage, comparable } from "../test/support/entities-reducer.js";
import { RawClient } from "../test/support/raw-client.js";

let sim: Simulator;
let clients: RawClient[] = [];
const authed = async () => {
  const c = await RawClient.authed(sim.wsUrl, sim.users.tokenFor());
  clients.push(c);
  return c;
};

afterEach(async () => {
  for (const c of clients) c.close();
  clients = [];
  await sim.close();
});

describe("freeze, slow and refuse", () => {
  beforeEach(async () => {
    sim = await startSimulator({ house: demoHouse() });
  });

  it("freeze keeps the socket open but answers nothing, not even ping, until thawed", async () => {
    const c = await authed();
    sim.faults.freeze(true);
    c.send({ id: 1, type: "ping" });
    await expect(c.next(300)).rejects.toThrow(/no message/);
    expect(sim.stats().connections).toBe(1);
    let answered = false;
    const rest = fetch(`${sim.apiUrl}/`, { headers: { Authorization: `Bearer ${sim.users.tokenFor()}` } }).finally(() => (answered = true));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(answered).toBe(false);
    sim.faults.freeze(false);
    expect((await rest).status).toBe(200);
    c.send({ id: 2, type: "ping" });
    expect(await c.next()).toEqual({ id: 2, type: "pong" });
  });

  it("delayCommand answers only that command late, while the others go on", async () => {
    const c = await authed();
    sim.faults.delayCommand("get_config", 400);
    c.send({ id: 1, type: "get_config" });
    c.send({ id: 2, type: "ping" });
    expect(await c.next()).toEqual({ id: 2, type: "pong" });
    await expect(c.next(150)).rejects.toThrow(/no message/);
    expect(await c.next(1_000)).toMatchObject({ id: 1, type: "result", success: true });
    sim.faults.delayCommand("get_config", 0);
    c.send({ id: 3, type: "get_config" });
    expect(await c.next(150)).toMatchObject({ id: 3, success: true });
  });

  it("slow delays answers but keeps their order", async () => {
    const c = await authed();
    sim.faults.slow(250);
    c.send({ id: 1, type: "ping" });
    c.send({ id: 2, type: "get_config" });
    await expect(c.next(50)).rejects.toThrow(/no message/);
    expect(await c.next()).toEqual({ id: 1, type: "pong" });
    expect((await c.next()).id).toBe(2);
    sim.faults.slow(0);
  });
});

describe("burst", () => {
  beforeEach(async () => {
    sim = await startSimulator({ house: generateHouse({ entities: 2_000, seed: 3 }) });
  });

  it("sends every change of a burst to subscribers, coalesced, and the rebuilt states equal get_states", async () => {
    const c = await authed();
    await c.command({ id: 1, type: "supported_features", features: { coalesce_messages: 1 } });
    c.send({ id: 2, type: "subscribe_entities" });
    await c.next();
    const states = new Map<string, HassState>();
    applyEntitiesMessage(states, (await c.next()).event as EntitiesMessage);
    expect(states.size).toBe(sim.home.states().length);

    const changes = 5_000;
    await sim.faults.burst({ changes });
    let seen = 0;
    while (seen < changes) {
      const m = await c.until((x) => x.id === 2 && x.type === "event");
      seen += Object.keys(m.event.c ?? {}).length;
      applyEntitiesMessage(states, m.event as EntitiesMessage);
    }
    expect(seen).toBe(changes);
    expect(c.frames.length).toBeLessThan(changes / 10);
    const truth = (await c.command({ id: 3, type: "get_states" })).result as HassState[];
    const byId = (a: { entity_id: string }, b: { entity_id: string }) => a.entity_id.localeCompare(b.entity_id);
    expect([...states.values()].map(comparable).sort(byId)).toEqual(truth.map(comparable).sort(byId));
  });

  it("drops a client that lets more than 4096 messages pile up, like HA", async () => {
    const c = await authed();
    c.send({ id: 1, type: "subscribe_events", event_type: "state_changed" });
    await c.next();
    const ids = sim.home.states().map((s) => s.entity_id);
    // All in one tick: nothing can be flushed in between.
    for (let i = 0; i < 5000; i++) sim.home.setState(ids[i % ids.length]!, `v${i}`);
    await c.closed;
    expect(sim.stats().connections).toBe(0);
  });

  it("limits a burst to the given entities", async () => {
    const c = await authed();
    c.send({ id: 1, type: "subscribe_events", event_type: "state_changed" });
    await c.next();
    const target = sim.home.states()[0]!.entity_id;
    await sim.faults.burst({ changes: 10, entityIds: [target] });
    const ids = new Set<string>();
    for (let i = 0; i < 10; i++) ids.add((await c.next()).event.data.entity_id);
    expect([...ids]).toEqual([target]);
    await expect(sim.faults.burst({ changes: 1, entityIds: ["light.nowhere"] })).rejects.toThrow(/no state for light.nowhere/);
  });
});
