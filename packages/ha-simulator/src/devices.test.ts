import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { demoHouse } from "./demo/index.js";
import { HouseSchema, startSimulator, type HouseInput, type Simulator } from "./index.js";
import { RawClient } from "../test/support/raw-client.js";

/** The keys HA 2026.9 sends for a child device, and nothing else. */
const CHILD_KEYS = [
  "area_id", "config_entry_id", "config_subentry_id", "created_at", "disabled_by", "id", "identifiers", "labels", "modified_at", "name", "name_by_user",
  "parent_device_id",
];

describe("the device registry as HA 2026.8 and 2026.9 list it", () => {
  let sim: Simulator;
  let c: RawClient;
  beforeEach(async () => {
    sim = await startSimulator({ house: demoHouse() });
    c = await RawClient.authed(sim.wsUrl, sim.users.tokenFor());
  });
  afterEach(async () => {
    c.close();
    await sim.close();
  });

  it("gives every device config_entry_id and config_subentry_id, with the deprecated fields derived from them", async () => {
    const devices = (await c.command({ id: 1, type: "config/device_registry/list" })).result as Record<string, unknown>[];
    const regular = devices.filter((d) => !d.parent_device_id);
    expect(regular.length).toBeGreaterThan(50);
    for (const d of regular) {
      expect(d, String(d.id)).toMatchObject({ config_entry_id: expect.any(String), config_subentry_id: null });
      expect(d.config_entries).toEqual([d.config_entry_id]);
      expect(d.config_entries_subentries).toEqual({ [d.config_entry_id as string]: [null] });
      expect(d.primary_config_entry).toBe(d.config_entry_id);
      expect(d).not.toHaveProperty("parent_device_id");
    }
  });

  it("lists child devices in their smaller shape, in their parent's config entry", async () => {
    const devices = (await c.command({ id: 1, type: "config/device_registry/list" })).result as Record<string, unknown>[];
    const children = devices.filter((d) => d.parent_device_id);
    expect(children.map((d) => d.name).sort()).toEqual(["Boiler Relay", "Garden Path Lights Relay"]);
    for (const child of children) {
      expect(Object.keys(child).sort()).toEqual(CHILD_KEYS);
      const parent = devices.find((d) => d.id === child.parent_device_id)!;
      expect(parent).toMatchObject({ manufacturer: "Shelly", model: "Shelly Pro 2PM", area_id: "laundry_room" });
      expect(child.config_entry_id).toBe(parent.config_entry_id);
    }
  });

  it("targets an area's child devices without an area of their own, as HA does through the parent", async () => {
    sim.home.setState("switch.boiler_relay", "on");
    sim.home.setState("switch.garden_path_lights_relay", "on");
    const reply = await c.command({ id: 1, type: "call_service", domain: "switch", service: "turn_off", target: { area_id: "laundry_room" } });
    expect(reply.success).toBe(true);
    expect(sim.home.getState("switch.boiler_relay")?.state).toBe("off");
    expect(sim.home.getState("switch.garden_path_lights_relay")?.state).toBe("on");
  });
});

describe("house documents with devices", () => {
  const base = (devices: NonNullable<HouseInput["devices"]>): HouseInput => ({
    config_entries: [{ entry_id: "e1", domain: "shelly", title: "Shelly" }, { entry_id: "e2", domain: "hue", title: "Hue" }],
    devices,
    entities: [],
  });
  const parent = { id: "p", name: "Relay", manufacturer: "Shelly", config_entry_id: "e1" };
  const problems = (input: HouseInput) => {
    const r = HouseSchema.safeParse(input);
    return r.success ? [] : r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
  };

  it("refuses what HA refuses in a child device", () => {
    expect(problems(base([parent, { id: "c", name: "Left", parent_device_id: "p", manufacturer: "Shelly" }]))).toEqual([
      "devices.1.manufacturer: a child device has no manufacturer (HA 2026.9); remove it, or drop parent_device_id",
    ]);
    expect(problems(base([parent, { id: "c", name: "Left", parent_device_id: "p", config_entry_id: "e2" }]))).toEqual([
      "devices.1.config_entry_id: a child device belongs to its parent's config entry; leave config_entry_id out",
    ]);
    expect(problems(base([parent, { id: "c", name: "Left", parent_device_id: "p" }, { id: "g", name: "Grandchild", parent_device_id: "c" }]))).toEqual([
      'devices.2.parent_device_id: "c" is itself a child device; name a regular device',
    ]);
    expect(problems(base([{ id: "c", name: "Left", parent_device_id: "nope" }]))).toEqual([
      'devices.0.parent_device_id: unknown device "nope"; add it to devices or fix the id',
    ]);
  });

  it("reads older house files' config_entries, one entry per device", () => {
    const house = HouseSchema.parse(base([{ id: "d", name: "Old", config_entries: ["e2"], primary_config_entry: "e2" }]));
    expect(house.devices[0]).toMatchObject({ config_entry_id: "e2" });
    expect(house.devices[0]).not.toHaveProperty("config_entries");
    expect(problems(base([{ id: "d", name: "Old", config_entries: ["e1", "e2"] }]))).toEqual([
      "devices.0.config_entries: a device belongs to one config entry since HA 2026.8; keep one, or give config_entry_id",
    ]);
  });
});
