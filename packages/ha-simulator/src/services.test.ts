import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { demoHouse } from "./demo/index.js";
import { startSimulator, type Simulator } from "./index.js";
import { RawClient } from "../test/support/raw-client.js";

let sim: Simulator;
let c: RawClient;
let nextId = 1;

beforeEach(async () => {
  sim = await startSimulator({ house: demoHouse() });
  c = await RawClient.authed(sim.wsUrl, sim.users.tokenFor());
  nextId = 1;
});

afterEach(async () => {
  c.close();
  await sim.close();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const call = (domain: string, service: string, extra: Record<string, unknown> = {}): Promise<any> =>
  c.command({ id: nextId++, type: "call_service", domain, service, ...extra });
const state = (id: string) => sim.home.getState(id);

describe("call_service", () => {
  it("turns a light on with brightness and colour temperature, then off, with the caller's context", async () => {
    await c.command({ id: nextId++, type: "subscribe_events", event_type: "state_changed" });
    const res = await call("light", "turn_on", { target: { entity_id: "light.kitchen_ceiling" }, service_data: { brightness_pct: 50, color_temp_kelvin: 3000 } });
    expect(res.success).toBe(true);
    // Like HA's handle_call_service: no `response` key unless return_response was asked for.
    expect(res.result).toEqual({ context: { id: expect.any(String), parent_id: null, user_id: expect.any(String) } });
    expect(state("light.kitchen_ceiling")).toMatchObject({ state: "on", attributes: { brightness: 128, color_temp_kelvin: 3000, color_mode: "color_temp" } });
    const event = await c.until((m) => m.type === "event" && m.event.data.entity_id === "light.kitchen_ceiling");
    expect(event.event.context.id).toBe(res.result.context.id);
    expect(event.event.data.new_state.context.user_id).toBe(res.result.context.user_id);

    await call("light", "turn_off", { target: { entity_id: "light.kitchen_ceiling" } });
    expect(state("light.kitchen_ceiling")).toMatchObject({ state: "off", attributes: { brightness: null, color_mode: null } });
  });

  it("resolves area, floor, device and label targets, skipping hidden and config entities", async () => {
    await call("light", "turn_on", { target: { area_id: "kitchen" } });
    for (const id of ["light.kitchen_ceiling", "light.kitchen_worktop_lights", "light.kitchen_island_pendant"]) expect(state(id)?.state).toBe("on");
    await call("light", "turn_off", { target: { floor_id: "ground_floor" } });
    expect(state("light.kitchen_ceiling")?.state).toBe("off");
    await call("switch", "turn_off", { target: { area_id: "kitchen" } });
    expect(state("switch.kitchen_sonos_loudness")?.state).toBe("on"); // config entity, not expanded
    expect(state("switch.kitchen_coffee_machine")?.state).toBe("off");
    await call("switch", "turn_on", { target: { label_id: "energy" } });
    expect(state("switch.kitchen_dishwasher")?.state).toBe("on");
    const lock = sim.home as unknown as { registries: { entities: Map<string, { device_id: string }> } };
    const deviceId = lock.registries.entities.get("lock.front_door")!.device_id;
    await call("lock", "unlock", { target: { device_id: deviceId } });
    expect(state("lock.front_door")?.state).toBe("unlocked");
  });

  it("reaches a labelled config entity through its label but never a hidden one", async () => {
    sim.home.updateEntityRegistry("switch.kitchen_sonos_loudness", { labels: ["energy"] });
    sim.home.updateEntityRegistry("switch.kitchen_coffee_machine", { labels: ["energy"], hidden_by: "user" });
    await call("switch", "turn_on", { target: { entity_id: "switch.kitchen_coffee_machine" } });
    expect(state("switch.kitchen_sonos_loudness")?.state).toBe("on");
    await call("switch", "turn_off", { target: { label_id: "energy" } });
    expect(state("switch.kitchen_sonos_loudness")?.state).toBe("off");
    expect(state("switch.kitchen_coffee_machine")?.state).toBe("on");
  });

  it("offers a domain's services only while the house has an entity in it", async () => {
    for (const s of sim.home.states()) if (s.entity_id.startsWith("lock.")) sim.home.removeEntity(s.entity_id);
    expect((await call("lock", "lock", { target: { entity_id: "lock.front_door" } })).error.code).toBe("not_found");
    sim.home.addEntity({ entity_id: "lock.shed", state: "unlocked" });
    expect((await call("lock", "lock", { target: { entity_id: "lock.shed" } })).success).toBe(true);
    expect(state("lock.shed")?.state).toBe("locked");
  });

  it("drives covers, climate, toggles and homeassistant.turn_off across domains", async () => {
    await call("cover", "set_cover_position", { target: { entity_id: "cover.master_bedroom_blinds" }, service_data: { position: 0 } });
    expect(state("cover.master_bedroom_blinds")).toMatchObject({ state: "closed", attributes: { current_position: 0 } });
    await call("cover", "open_cover", { service_data: { entity_id: "cover.master_bedroom_blinds" } });
    expect(state("cover.master_bedroom_blinds")).toMatchObject({ state: "open", attributes: { current_position: 100 } });
    await call("climate", "set_temperature", { target: { entity_id: "climate.living_room_thermostat" }, service_data: { temperature: 22.5 } });
    expect(state("climate.living_room_thermostat")?.attributes.temperature).toBe(22.5);
    await call("climate", "set_hvac_mode", { target: { entity_id: "climate.living_room_thermostat" }, service_data: { hvac_mode: "off" } });
    expect(state("climate.living_room_thermostat")?.state).toBe("off");
    const bad = await call("climate", "set_hvac_mode", { target: { entity_id: "climate.living_room_thermostat" }, service_data: { hvac_mode: "dry" } });
    expect(bad.error.code).toBe("service_validation_error");
    const before = state("input_boolean.guest_mode")?.state;
    await call("input_boolean", "toggle", { target: { entity_id: "input_boolean.guest_mode" } });
    expect(state("input_boolean.guest_mode")?.state).not.toBe(before);
    await call("homeassistant", "turn_off", { target: { entity_id: ["switch.kitchen_dishwasher", "light.living_room_floor_lamp", "fan.living_room_air_purifier"] } });
    for (const id of ["switch.kitchen_dishwasher", "light.living_room_floor_lamp", "fan.living_room_air_purifier"]) expect(state(id)?.state).toBe("off");
  });

  it("applies a scene's member states and runs a script's sequence", async () => {
    await call("scene", "turn_on", { target: { entity_id: "scene.movie_night" } });
    expect(state("light.living_room_floor_lamp")).toMatchObject({ state: "on", attributes: { brightness: 60, color_temp_kelvin: 2700 } });
    expect(state("cover.living_room_shutter_left")?.state).toBe("closed");
    expect(state("scene.movie_night")?.state).toMatch(/^\d{4}-/);

    await call("light", "turn_on", { target: { area_id: "living_room" } });
    await call("script", "turn_on", { target: { entity_id: "script.goodnight" } });
    expect(state("light.living_room_ceiling")?.state).toBe("off");
    expect(state("lock.front_door")?.state).toBe("locked");
    expect(state("input_boolean.kids_asleep")?.state).toBe("on");
    expect(state("script.goodnight")).toMatchObject({ state: "off", attributes: { last_triggered: expect.stringMatching(/^\d{4}-/) } });
    await call("script", "kitchen_all_off");
    expect(state("switch.kitchen_coffee_machine")?.state).toBe("off");
  });

  it("reports unknown services, bad data and response mismatches with HA's error codes", async () => {
    expect((await call("light", "explode")).error).toEqual({
      code: "not_found",
      message: "Service light.explode not found.",
      translation_domain: "homeassistant",
      translation_key: "service_not_found",
      translation_placeholders: { domain: "light", service: "explode" },
    });
    expect((await call("light", "turn_on", { target: { entity_id: "light.kitchen_ceiling" }, service_data: { brightness: 900 } })).error.code).toBe("invalid_format");
    expect((await call("light", "turn_on", { target: { entity_id: "light.kitchen_ceiling" }, return_response: true })).error.code).toBe("service_validation_error");
    expect((await call("cover", "set_cover_position", { target: { entity_id: "cover.master_bedroom_blinds" } })).error).toEqual({
      code: "invalid_format",
      message: "required key not provided @ data['position']",
    });
    expect((await call("weather", "get_forecasts", { target: { entity_id: "weather.forecast_home" }, service_data: { type: "daily" } })).error.code).toBe("service_validation_error");
    const forecast = await call("weather", "get_forecasts", { target: { entity_id: "weather.forecast_home" }, service_data: { type: "daily" }, return_response: true });
    expect(forecast.result.response["weather.forecast_home"].forecast).toHaveLength(5);
  });

  it("fires call_service events and lists services with fields and targets", async () => {
    await c.command({ id: nextId++, type: "subscribe_events", event_type: "call_service" });
    await call("switch", "turn_on", { target: { entity_id: "switch.kitchen_dishwasher" } });
    const ev = await c.until((m) => m.type === "event");
    expect(ev.event).toMatchObject({ event_type: "call_service", origin: "LOCAL", data: { domain: "switch", service: "turn_on", service_data: { entity_id: ["switch.kitchen_dishwasher"] } } });
    const services = (await c.command({ id: nextId++, type: "get_services" })).result;
    expect(services.light.turn_on.fields.brightness_pct).toBeDefined();
    expect(services.light.turn_on.target).toEqual({ entity: [{ domain: ["light"] }] });
    expect(services.script.goodnight).toBeDefined();
    expect(services.homeassistant.turn_off).toBeDefined();
  });
});
