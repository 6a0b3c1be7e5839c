import { afterEach, describe, expect, it } from "vitest";
import { createHaClient } from "../ha/index.js";
import { silentLogger } from "../shared/index.js";
import { demoHouse, startSimulator, type Simulator } from "../simulator/index.js";
import { createHomeIndex, type HomeIndex } from "./home-index.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function live(): Promise<{ sim: Simulator; index: HomeIndex }> {
  const sim = await startSimulator({ house: demoHouse() });
  cleanups.push(() => sim.close());
  const ha = createHaClient({ wsUrl: sim.wsUrl, apiUrl: sim.apiUrl, token: sim.users.tokenFor(), logger: silentLogger, backoff: { initialMs: 20, maxMs: 100 } });
  cleanups.push(() => ha.close());
  await ha.connect();
  const index = createHomeIndex({ ha, logger: silentLogger, registryDebounceMs: 20 });
  cleanups.push(() => index.stop());
  await index.start();
  return { sim, index };
}

/** HA's states and the index's states, as comparable id → [state, attributes] maps. */
function haStates(sim: Simulator) {
  return Object.fromEntries(sim.home.states().map((s) => [s.entity_id, [s.state, s.attributes]]));
}
function indexStates(index: HomeIndex) {
  return Object.fromEntries([...index.states()].map(([id, s]) => [id, [s.state, s.attributes]]));
}

async function until(what: string, check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe("the index over a live Home Assistant", () => {
  it("mirrors HA's states and registries after start", async () => {
    const { sim, index } = await live();
    expect(indexStates(index)).toEqual(haStates(sim));
    expect(index.stats().areas).toBe(demoHouse().areas.length);
    expect(index.search("fountain")[0]?.entityId).toBe("switch.garden_fountain_pump");
  });

  it("equals HA exactly after the connection dies mid-burst and entities vanish while HA is down", async () => {
    const { sim, index } = await live();
    const removed = ["switch.garden_fountain_pump", "light.porch_light"];
    // The burst skips the entities to remove: it would bring their states back otherwise.
    const churn = sim.home.states().map((s) => s.entity_id).filter((id) => !removed.includes(id));
    const burst = sim.faults.burst({ changes: 20_000, entityIds: churn });
    await until("the burst to reach the index", () => index.stats().eventsApplied > 500);
    expect(index.stats().eventsApplied).toBeLessThan(20_000); // still mid-burst
    await sim.faults.restart({
      downtimeMs: 100,
      whileDown: (home) => {
        for (const id of removed) home.removeEntity(id);
        home.setState("light.kitchen_ceiling", "off");
      },
    });
    await burst;
    await until("a resync after the restart", () => index.entity(removed[0]!) === undefined);
    await index.whenIdle();
    await until("states to match HA", () => JSON.stringify(indexStates(index)) === JSON.stringify(haStates(sim)));
    expect(indexStates(index)).toEqual(haStates(sim));
    for (const id of removed) expect(index.search(id.split(".")[1]!.replace(/_/g, " ")).map((r) => r.entityId)).not.toContain(id);
  });

  it("follows registry changes after the debounce", async () => {
    const { sim, index } = await live();
    sim.home.upsertArea({ area_id: "kitchen", name: "Kitchen", floor_id: "ground_floor", aliases: ["scullery"] });
    await until("the new alias to be searchable", () => index.search("scullery")[0]?.area === "Kitchen");
    await index.whenIdle();
    expect(index.search("scullery lights")[0]?.domain).toBe("light");
  });
});
