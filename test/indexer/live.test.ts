import { afterEach, describe, expect, it } from "vitest";
import { waitUntil } from "../support/ha/wait.js";
import { demoHouse, type Simulator } from "@ha-agent/ha-simulator";
import type { HomeIndex } from "../../src/indexer/home-index.js";
import { startLiveIndex } from "../support/indexer/live-index.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function live(): Promise<{ sim: Simulator; index: HomeIndex }> {
  const running = await startLiveIndex(demoHouse());
  cleanups.push(running.close);
  return running;
}

/** HA's states and the index's states, as comparable id → [state, attributes] maps. */
function haStates(sim: Simulator) {
  return Object.fromEntries(sim.home.states().map((s) => [s.entity_id, [s.state, s.attributes]]));
}
function indexStates(index: HomeIndex) {
  return Object.fromEntries([...index.states()].map(([id, s]) => [id, [s.state, s.attributes]]));
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
    await waitUntil(() => index.stats().eventsApplied > 500, "the burst to reach the index");
    expect(index.stats().eventsApplied).toBeLessThan(20_000); // still mid-burst
    await sim.faults.restart({
      downtimeMs: 100,
      whileDown: (home) => {
        for (const id of removed) home.removeEntity(id);
        home.setState("light.kitchen_ceiling", "off");
      },
    });
    await burst;
    await waitUntil(() => index.entity(removed[0]!) === undefined, "a resync after the restart");
    await index.whenIdle();
    await waitUntil(() => JSON.stringify(indexStates(index)) === JSON.stringify(haStates(sim)), "states to match HA");
    expect(indexStates(index)).toEqual(haStates(sim));
    for (const id of removed) expect(index.search(id.split(".")[1]!.replace(/_/g, " ")).map((r) => r.entityId)).not.toContain(id);
  });

  it("puts an entity of a child device without an area in the parent device's area (HA 2026.9)", async () => {
    const { index } = await live();
    expect(index.entity("switch.boiler_relay")).toMatchObject({ areaId: "laundry_room", deviceName: "Boiler Relay", manufacturer: null });
    expect(index.entity("switch.garden_path_lights_relay")?.areaId).toBe("garden");
    expect(index.query({ area: "laundry room", domain: "switch" }).map((e) => e.entityId)).toContain("switch.boiler_relay");
  });

  it("follows registry changes after the debounce", async () => {
    const { sim, index } = await live();
    sim.home.upsertArea({ area_id: "kitchen", name: "Kitchen", floor_id: "ground_floor", aliases: ["scullery"] });
    await waitUntil(() => index.search("scullery")[0]?.area === "Kitchen", "the new alias to be searchable");
    await index.whenIdle();
    expect(index.search("scullery lights")[0]?.domain).toBe("light");
  });
});
