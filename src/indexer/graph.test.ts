import { describe, expect, it } from "vitest";
import { HomeGraph } from "./graph.js";
import { fixtureRegistries, fixtureStates } from "../../test/support/indexer/fixture-home.js";

function home(): HomeGraph {
  const g = new HomeGraph();
  g.setRegistries(fixtureRegistries());
  g.replaceStates(fixtureStates());
  return g;
}

const ids = (g: HomeGraph, q: string, opts = {}) => g.search(q, opts).map((r) => r.entityId);

describe("HomeGraph resolution", () => {
  it("resolves names as Home Assistant does", () => {
    const g = home();
    expect(g.entity("binary_sensor.hall_motion")?.name).toBe("Hall Motion Motion");
    expect(g.entity("binary_sensor.front_door")?.name).toBe("Front Door Contact");
    expect(g.entity("switch.kettle")?.name).toBe("Kettle");
    // name_by_user wins over the device's own name
    expect(g.entity("sensor.living_room_temperature")?.name).toBe("Living Room Climate Temperature");
    expect(g.entity("light.kitchen_spots")?.name).toBe("Kitchen Spots");
    expect(g.entity("sun.sun")?.name).toBe("Sun");
  });

  it("takes HA's friendly_name for an entity whose own name is only a translation key", () => {
    const g = new HomeGraph();
    const reg = fixtureRegistries();
    reg.entities = reg.entities.map((e) => (e.entity_id === "binary_sensor.hall_motion" ? { ...e, original_name: null, translation_key: "occupancy" } : e));
    const states = fixtureStates();
    states["binary_sensor.hall_motion"] = { ...states["binary_sensor.hall_motion"]!, a: { friendly_name: "Hall Motion Occupancy" } };
    g.load(reg, states);
    expect(g.entity("binary_sensor.hall_motion")?.name).toBe("Hall Motion Occupancy");
  });

  it("takes the area from the device when the entity has none, and the floor from the area", () => {
    const g = home();
    const e = g.entity("binary_sensor.hall_motion")!;
    expect(e.areaId).toBe("hallway");
    expect(e.floorId).toBe("ground");
    expect(e.floorName).toBe("Ground Floor");
    expect(g.entity("light.bedroom_reading_lamp")?.areaId).toBe("hallway");
  });

  it("collects labels from the entity, its device and its area", () => {
    const g = home();
    expect(g.entity("binary_sensor.front_door")?.labels).toEqual(["security"]);
    expect(g.entity("binary_sensor.hall_motion")?.labels).toEqual(["security"]);
    expect(g.entity("switch.kettle")?.labels).toEqual(["energy"]);
  });

  it("leaves out disabled and diagnostic entities unless asked", () => {
    const g = home();
    expect(ids(g, "old lamp")).not.toContain("light.old_lamp");
    expect(ids(g, "old lamp", { includeHidden: true })[0]).toBe("light.old_lamp");
    expect(g.query({ area: "hallway" }).map((e) => e.entityId)).not.toContain("sensor.hall_motion_battery");
    expect(g.query({ area: "hallway", includeHidden: true }).map((e) => e.entityId)).toContain("sensor.hall_motion_battery");
  });
});

describe("HomeGraph live updates", () => {
  it("applies changes, additions and removals from subscribe_entities", () => {
    const g = home();
    const n = g.applyDiff({
      c: { "light.kitchen_spots": { "+": { s: "off", lc: 1_700_000_100 } } },
      a: { "light.new_strip": { s: "on", a: { friendly_name: "New Strip" }, c: "x", lc: 1_700_000_050 } },
      r: ["sun.sun"],
    });
    expect(n).toBe(3);
    expect(g.states().get("light.kitchen_spots")?.state).toBe("off");
    expect(g.states().get("light.kitchen_spots")?.lastChanged).toBe(1_700_000_100_000);
    expect(ids(g, "new strip")[0]).toBe("light.new_strip");
    expect(g.entity("sun.sun")).toBeUndefined();
    expect(ids(g, "sun")).not.toContain("sun.sun");
  });

  it("renames an unregistered entity when its friendly_name changes", () => {
    const g = home();
    g.applyDiff({ a: { "light.garden": { s: "on", a: { friendly_name: "Garden" }, c: "x", lc: 1 } } });
    g.applyDiff({ c: { "light.garden": { "+": { a: { friendly_name: "Patio Lantern" } } } } });
    expect(g.entity("light.garden")?.name).toBe("Patio Lantern");
    expect(ids(g, "lantern")[0]).toBe("light.garden");
  });

  it("drops every state missing from a new snapshot", () => {
    const g = home();
    const snap = fixtureStates();
    delete snap["light.kitchen_spots"];
    delete snap["sun.sun"];
    g.replaceStates(snap);
    expect(g.states().get("light.kitchen_spots")).toBeUndefined();
    expect(g.entity("sun.sun")).toBeUndefined();
    // still registered, so still known, without a state
    expect(g.entity("light.kitchen_spots")?.state).toBeNull();
    expect(g.states().size).toBe(Object.keys(snap).length);
  });
});

describe("HomeGraph search", () => {
  it("finds an area by its alias", () => {
    const g = home();
    expect(ids(g, "lounge temperature")[0]).toBe("sensor.living_room_temperature");
  });

  it("tolerates typos", () => {
    const g = home();
    expect(ids(g, "kichen light")[0]).toBe("light.kitchen_spots");
    expect(ids(g, "bedrom temprature")[0]).toBe("sensor.bedroom_temperature");
  });

  it("matches manufacturers and plurals", () => {
    const g = home();
    expect(ids(g, "the Aqara sensors").slice(0, 2).sort()).toEqual(["binary_sensor.front_door", "binary_sensor.hall_motion"]);
  });

  it("knows the brand names behind manufacturer strings, and open/closed for contacts", () => {
    const g = new HomeGraph();
    const reg = fixtureRegistries();
    reg.devices = reg.devices.map((d) => (d.id === "dev_bulb" ? { ...d, manufacturer: "Signify Netherlands B.V." } : d.manufacturer === "Aqara" ? { ...d, manufacturer: "LUMI" } : d));
    const states = fixtureStates();
    states["binary_sensor.front_door"] = { ...states["binary_sensor.front_door"]!, s: "on" };
    g.load(reg, states);
    expect(ids(g, "philips hue")[0]).toBe("light.bedroom_ceiling");
    expect(ids(g, "aqara").slice(0, 2).sort()).toEqual(["binary_sensor.front_door", "binary_sensor.hall_motion"]);
    expect(ids(g, "open doors")[0]).toBe("binary_sensor.front_door");
    expect(g.search("open doors")[0]!.why).toContain('state is "open"');
  });

  it("reads a known word's synonym rather than a near-miss spelling", () => {
    const g = home();
    // "heating" is one letter from "reading", but it is a word for climate devices
    g.applyDiff({ a: { "light.reading_lamp": { s: "off", a: { friendly_name: "Reading Lamp" }, c: "x", lc: 1 }, "climate.hall": { s: "heat", a: {}, c: "x", lc: 1 } } });
    const r = ids(g, "heating");
    expect(r).toContain("climate.hall");
    expect(r).not.toContain("light.reading_lamp");
  });

  it("matches labels, including labels inherited from the area", () => {
    const g = home();
    expect(ids(g, "security sensors").slice(0, 2).sort()).toEqual(["binary_sensor.front_door", "binary_sensor.hall_motion"]);
  });

  it("ranks lights in the bedroom above lights merely named bedroom", () => {
    const g = home();
    const r = ids(g, "bedroom lights");
    expect(r[0]).toBe("light.bedroom_ceiling");
    expect(r.indexOf("light.bedroom_ceiling")).toBeLessThan(r.indexOf("light.bedroom_reading_lamp"));
  });

  it("treats upstairs as a floor and on as a state", () => {
    const g = home();
    expect(ids(g, "what's on upstairs")[0]).toBe("light.bedroom_ceiling");
  });

  it("folds accents and splits snake_case", () => {
    const g = home();
    expect(ids(g, "cafe")[0]).toBe("light.cafe_pendant");
    expect(ids(g, "living_room_humidity")[0]).toBe("sensor.living_room_humidity");
    expect(ids(g, "livingroom humidity")[0]).toBe("sensor.living_room_humidity");
  });

  it("applies filters and says why each result matched", () => {
    const g = home();
    const r = g.search("bedroom", { domain: "light" });
    expect(r.map((x) => x.domain)).toEqual(["light", "light"]);
    expect(r[0]!.why).toContain('area "Bedroom"');
    expect(r[0]!.state).toBe("on");
    expect(g.search("", { area: "Lounge" }).map((x) => x.entityId).sort()).toEqual([
      "sensor.living_room_humidity",
      "sensor.living_room_temperature",
    ]);
    expect(g.search("", { state: "on", floor: "upstairs" }).map((x) => x.entityId)).toEqual(["light.bedroom_ceiling"]);
  });

  it("rejects filter values that name nothing, naming the filter", () => {
    const g = home();
    expect(() => g.search("x", { area: "attic" })).toThrow(/area.*"attic"/);
    expect(() => g.query({ domain: "spaceship" })).toThrow(/domain "spaceship"/);
  });
});
