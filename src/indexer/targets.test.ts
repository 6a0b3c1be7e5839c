import { describe, expect, it } from "vitest";
import { fixtureRegistries, fixtureStates } from "../../test/support/indexer/fixture-home.js";
import { HomeGraph } from "./graph.js";

/**
 * The fixture home with what target expansion has to get right: an entity
 * whose own area differs from its device's, a hidden one, a child device
 * without an area, a diagnostic entity carrying a label itself, and an
 * old-style group.
 */
function home(): HomeGraph {
  const reg = fixtureRegistries();
  const plug = reg.devices.find((d) => d.id === "dev_plug")!;
  reg.devices.push({ ...plug, id: "dev_plug_led", name: "Kettle Plug LED", area_id: null, labels: [], parent_device_id: "dev_plug" });
  const kettle = reg.entities.find((e) => e.entity_id === "switch.kettle")!;
  reg.entities.push(
    { ...kettle, id: "r1", entity_id: "light.kettle_led", device_id: "dev_plug_led", name: "Kettle LED" },
    { ...kettle, id: "r2", entity_id: "light.porch", device_id: "dev_bulb", area_id: "hallway", name: "Porch" },
    { ...kettle, id: "r3", entity_id: "light.bedroom_night", device_id: "dev_bulb", hidden_by: "user", name: "Night" },
    { ...kettle, id: "r4", entity_id: "sensor.kettle_energy", device_id: "dev_plug", entity_category: "diagnostic", labels: ["security"], name: "Kettle energy" },
  );
  const states = fixtureStates();
  const on = { s: "on", a: {}, c: "ctx", lc: 1_700_000_000 };
  states["light.kettle_led"] = on;
  states["light.porch"] = on;
  states["light.bedroom_night"] = on;
  states["sensor.kettle_energy"] = { ...on, s: "1.2" };
  states["group.downstairs"] = { ...on, a: { entity_id: ["light.kitchen_spots", "switch.kettle", "group.cafe"] } };
  states["group.cafe"] = { ...on, a: { entity_id: ["light.cafe_pendant", "group.downstairs"] } };
  const g = new HomeGraph();
  g.load(reg, states);
  return g;
}

describe("resolveTarget", () => {
  const g = home();
  const ids = (target: Parameters<HomeGraph["resolveTarget"]>[0], domain?: string) => g.resolveTarget(target, domain).entityIds;

  it("covers an area's entities and its devices' entities without an area of their own, leaving out hidden and diagnostic ones", () => {
    expect(ids({ area_id: ["hallway"] })).toEqual(["binary_sensor.front_door", "binary_sensor.hall_motion", "light.bedroom_reading_lamp", "light.porch"]);
    // light.porch is on the bedroom's bulb but placed in the hallway itself; light.bedroom_night is hidden.
    expect(ids({ area_id: ["bedroom"] })).toEqual(["light.bedroom_ceiling", "sensor.bedroom_temperature"]);
  });

  it("covers a device with its child devices, and a child device without an area is in its parent's area", () => {
    expect(ids({ device_id: ["dev_plug"] })).toEqual(["light.kettle_led", "switch.kettle"]);
    expect(ids({ area_id: ["kitchen"] })).toEqual(["light.kettle_led", "light.kitchen_spots", "switch.kettle"]);
  });

  it("covers a floor through its areas", () => {
    expect(ids({ floor_id: ["first"] })).toEqual(["light.bedroom_ceiling", "sensor.bedroom_temperature"]);
  });

  it("covers labelled entities, devices and areas; a label on the entity itself reaches a diagnostic one", () => {
    expect(ids({ label_id: ["energy"] })).toEqual(["light.kettle_led", "switch.kettle"]);
    expect(ids({ label_id: ["security"] })).toEqual(["binary_sensor.front_door", "binary_sensor.hall_motion", "light.bedroom_reading_lamp", "light.porch", "sensor.kettle_energy"]);
  });

  it("narrows to the service's domain when the home has entities of it, and keeps all for homeassistant", () => {
    expect(ids({ area_id: ["hallway"] }, "light")).toEqual(["light.bedroom_reading_lamp", "light.porch"]);
    expect(ids({ area_id: ["hallway"] }, "homeassistant")).toHaveLength(4);
    expect(g.resolveTarget({ entity_id: ["switch.kettle"] }, "light")).toMatchObject({ entityIds: [], otherDomain: ["switch.kettle"] });
    expect(ids({ entity_id: ["switch.kettle"] }, "homeassistant")).toEqual(["switch.kettle"]);
  });

  it("keeps named entities first and in order, hidden ones included, and merges the rest without repeats", () => {
    expect(ids({ entity_id: ["light.porch", "light.bedroom_night"], area_id: ["bedroom"] }, "light")).toEqual(["light.porch", "light.bedroom_night", "light.bedroom_ceiling"]);
  });

  it("stands a named old-style group for its members, nested groups included", () => {
    expect(ids({ entity_id: ["group.downstairs"] }, "light")).toEqual(["light.cafe_pendant", "light.kitchen_spots"]);
  });

  it("reports ids that name nothing and named entities without a state", () => {
    const r = g.resolveTarget({ entity_id: ["light.nowhere", "light.old_lamp"], device_id: ["dev_x"], area_id: ["attic"], floor_id: ["roof"], label_id: ["vip"] });
    expect(r.missing).toEqual([
      { kind: "entity_id", id: "light.nowhere" },
      { kind: "device_id", id: "dev_x" },
      { kind: "area_id", id: "attic" },
      { kind: "floor_id", id: "roof" },
      { kind: "label_id", id: "vip" },
    ]);
    expect(r.unavailable).toEqual(["light.old_lamp"]);
    expect(r.entityIds).toEqual([]);
  });
});
