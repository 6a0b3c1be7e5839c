import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RawClient } from "../../test/support/raw-client.js";
import { demoHouse } from "../demo/index.js";
import { startSimulator, type Simulator } from "../index.js";

let sim: Simulator;
let c: RawClient;
let nextId = 1;

beforeEach(async () => {
  sim = await startSimulator({ house: demoHouse() });
  c = await RawClient.authed(sim.wsUrl, sim.users.tokenFor());
});

afterEach(async () => {
  c.close();
  await sim.close();
});

const registries = () => (sim.home as unknown as { registries: { entities: Map<string, { device_id: string }> } }).registries;

describe("service targets", () => {
  it("cover a targeted device's child devices, as Home Assistant does", async () => {
    // The demo's two-channel relay: each switch sits on a child device of it.
    const relay = registries().entities.get("sensor.laundry_room_pro_2pm_device_temperature")!.device_id;
    await c.command({ id: nextId++, type: "call_service", domain: "switch", service: "turn_off", target: { entity_id: ["switch.boiler_relay", "switch.garden_path_lights_relay"] } });
    const res = await c.command({ id: nextId++, type: "call_service", domain: "switch", service: "turn_on", target: { device_id: relay } });
    expect(res.success).toBe(true);
    expect(sim.home.getState("switch.boiler_relay")?.state).toBe("on");
    expect(sim.home.getState("switch.garden_path_lights_relay")?.state).toBe("on");
  });
});
