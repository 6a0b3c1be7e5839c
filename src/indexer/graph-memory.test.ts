import { describe, expect, it } from "vitest";
import { gc, heapUsed } from "../../test/support/heap.js";
import type { CompressedState } from "../ha/index.js";
import { HomeGraph } from "./graph.js";
import type { Registries } from "./model.js";
import { fixtureRegistries, fixtureStates } from "../../test/support/indexer/fixture-home.js";


/** The fixture home copied `times` times, each copy's entities with their own ids: a home of realistic shapes at scale. */
function bigHome(times: number): HomeGraph {
  const reg = fixtureRegistries();
  const states = fixtureStates();
  const entities: Registries["entities"] = [];
  const bigStates: Record<string, CompressedState> = {};
  for (let i = 0; i < times; i++) {
    for (const e of reg.entities) entities.push({ ...e, id: `${e.id}_${i}`, entity_id: `${e.entity_id}_${i}`, unique_id: `${e.unique_id}_${i}` });
    for (const [id, s] of Object.entries(states)) bigStates[`${id}_${i}`] = { ...s, a: { ...s.a } };
  }
  const g = new HomeGraph();
  g.load({ ...reg, entities }, bigStates);
  return g;
}

describe("HomeGraph memory", () => {
  it("keeps a reused view small: reading every entity of a big home costs well under 1 KB a view", () => {
    const g = bigHome(400);
    const before = heapUsed();
    const views = g.query({ includeHidden: true });
    const perView = (heapUsed() - before) / views.length;
    expect(views.length).toBeGreaterThan(4000);
    // Views built by spreading the structure took about 1 KB each here, most of it a hidden class per view.
    expect(perView).toBeLessThan(600);
  });

  it("does not keep an entity's previous state alive in its cached view once the state changes", async () => {
    const g = bigHome(1);
    // Read once, so the view (holding the state) is cached; only a WeakRef stays here.
    const old = ((): WeakRef<object> => new WeakRef(g.entity("light.kitchen_spots_0")!.state!))();
    g.applyDiff({ c: { "light.kitchen_spots_0": { "+": { s: "off", lc: 1_700_000_100 } } } });
    expect(g.states().get("light.kitchen_spots_0")?.state).toBe("off");
    // A WeakRef holds its target until the current job ends.
    await new Promise((r) => setImmediate(r));
    gc();
    expect(old.deref(), "the view cache still holds the entity's previous state").toBeUndefined();
    expect(g.entity("light.kitchen_spots_0")?.state?.state).toBe("off");
  });

  it("keeps one copy of the values thousands of entities share, however many copies Home Assistant's messages carried", () => {
    // Each copy of the home comes as its own parsed message, as over the WebSocket: every string is a new one.
    // JSON.parse already shares strings of up to 10 characters ("on", "°C"); longer ones repeat: a config entry's ULID, "measurement", a maker.
    const reg = fixtureRegistries();
    const states = JSON.stringify(Object.fromEntries(Object.entries(fixtureStates()).map(([id, st]) => [id, { ...st, a: { ...st.a, state_class: "measurement", attribution: "Data provided by the Zigbee network" } }])));
    const entries = JSON.stringify(reg.entities.map((e) => ({ ...e, platform: "zigbee_home_automation", config_entry_id: "01JBX3F4Q8ZK7W2M5N9P3R6T8V" })));
    const times = 400;
    const entities: Registries["entities"] = [];
    const bigStates: Record<string, CompressedState> = {};
    for (let i = 0; i < times; i++) {
      for (const e of JSON.parse(entries) as Registries["entities"]) entities.push({ ...e, id: `${e.id}_${i}`, entity_id: `${e.entity_id}_${i}` });
      for (const [id, st] of Object.entries(JSON.parse(states) as Record<string, CompressedState>)) bigStates[`${id}_${i}`] = st;
    }
    const before = heapUsed();
    const g = new HomeGraph();
    g.load({ ...reg, entities }, bigStates);
    const perEntity = (heapUsed() - before) / g.entityCount;
    expect(g.entityCount).toBeGreaterThan(4000);
    // Without the pool each entity held its own copies: about 1,140 bytes here, against 1,040 with it.
    expect(perEntity).toBeLessThan(1_090);
    expect(g.states().get("sensor.hall_motion_battery_7")?.attributes.unit_of_measurement).toBe("%");
  });
});
