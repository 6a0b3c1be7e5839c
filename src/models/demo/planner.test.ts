import { describe, expect, it } from "vitest";
import { demoPlan } from "./planner.js";

const tools = [{ functionDeclarations: ["index_search", "state_query", "diagnose_entity"].map((name) => ({ name })) }];
const user = (text: string) => ({ role: "user", parts: [{ text }] });
const model = (calls: string[]) => ({ role: "model", parts: calls.map((name) => ({ functionCall: { name } })) });
const responses = (...r: { name: string; response: unknown }[]) => ({ role: "user", parts: r.map((functionResponse) => ({ functionResponse })) });

const hits = [
  { entity_id: "light.kitchen_worktop_lights", name: "Kitchen Worktop Lights", domain: "light", area: "Kitchen", state: "on" },
  { entity_id: "light.kitchen_ceiling", name: "Kitchen Ceiling", domain: "light", area: "Kitchen", state: "off" },
  { entity_id: "switch.kitchen_extractor_fan", name: "Kitchen Extractor Fan", domain: "switch", area: "Kitchen", state: "on" },
  { entity_id: "light.garden_path_lights", name: "Garden Path Lights", domain: "light", area: "Garden", state: "on" },
];

describe("the demo planner", () => {
  const q = "Which lights are on in the kitchen?";

  it("searches first, with the user's words", () => {
    expect(demoPlan({ contents: [user(q)], tools })).toMatchObject({ calls: [{ name: "index_search", args: { query: q } }] });
  });

  it("then reads the states of the matches the question is about, in parallel by domain", () => {
    const plan = demoPlan({ contents: [user(q), model(["index_search"]), responses({ name: "index_search", response: { results: hits } })], tools });
    expect(plan.calls).toEqual([{ name: "state_query", args: { entity_ids: ["light.kitchen_worktop_lights", "light.kitchen_ceiling"], attributes: ["device_class"] } }]);
  });

  it("answers citing the ids of the kitchen lights that are on, and says it is not an AI", () => {
    const plan = demoPlan({
      contents: [user(q), model(["index_search"]), responses({ name: "index_search", response: { results: hits } }), model(["state_query"]), responses({ name: "state_query", response: { entities: hits } })],
      tools,
    });
    expect(plan.text).toContain("not an AI");
    expect(plan.text).toContain("These are on: Kitchen Worktop Lights (light.kitchen_worktop_lights).");
    expect(plan.text).toContain("light.kitchen_ceiling");
    expect(plan.text).not.toContain("garden");
    expect(plan.text).not.toContain("switch.");
  });

  it("asked to act, says it cannot change the home and which options connect a real model, without claiming a state", () => {
    const act = "Turn on the kitchen lights";
    const plan = demoPlan({
      contents: [user(act), model(["index_search"]), responses({ name: "index_search", response: { results: hits } }), model(["state_query"]), responses({ name: "state_query", response: { entities: hits } })],
      tools,
    });
    expect(plan.calls).toBeUndefined();
    expect(plan.text).toMatch(/cannot (change|act)/i);
    expect(plan.text).toContain("I did not turn on");
    for (const option of ["gemini_api_key", "model_provider", "openai_base_url", "allow_actuation"]) expect(plan.text).toContain(option);
    // It names what it would have acted on, with the states as they are.
    expect(plan.text).toContain("light.kitchen_ceiling");
    expect(plan.text).not.toContain("These are on");
  });

  it("says so even when the search found nothing to act on", () => {
    const plan = demoPlan({ contents: [user("Switch off the sauna"), model(["index_search"]), responses({ name: "index_search", response: { results: [] } })], tools });
    expect(plan.text).toMatch(/cannot (change|act)/i);
    expect(plan.text).toContain("gemini_api_key");
  });

  it("says a window sensor is open or closed, and motion detected or clear, as Home Assistant shows them", () => {
    const sensors = [
      { entity_id: "binary_sensor.kitchen_window", name: "Kitchen Window", domain: "binary_sensor", area: "Kitchen", state: "on", attributes: { device_class: "window" } },
      { entity_id: "binary_sensor.hall_window", name: "Hall Window", domain: "binary_sensor", area: "Hall", state: "off", attributes: { device_class: "window" } },
      { entity_id: "binary_sensor.hall_motion", name: "Hall Motion", domain: "binary_sensor", area: "Hall", state: "on", attributes: { device_class: "motion" } },
    ];
    const ask = (q: string) =>
      demoPlan({ contents: [user(q), model(["index_search"]), responses({ name: "index_search", response: { results: sensors } }), model(["state_query"]), responses({ name: "state_query", response: { entities: sensors } })], tools }).text!;
    const open = ask("Which windows are open?");
    expect(open).toContain("These are open: Kitchen Window (binary_sensor.kitchen_window)");
    expect(open).toContain("Hall Window (binary_sensor.hall_window) is closed");
    expect(open).not.toContain("Hall Motion");
    expect(open).not.toMatch(/ is (on|off)\b/);
    expect(ask("Is motion detected in the hall?")).toMatch(/These are detected: Hall Motion \(binary_sensor.hall_motion\)\.$/);
  });

  /** The planner's answer after it searched and read `entities`, as the tools give them. */
  const answered = (q: string, entities: Record<string, unknown>[]) =>
    demoPlan({ contents: [user(q), model(["index_search"]), responses({ name: "index_search", response: { results: entities } }), model(["state_query"]), responses({ name: "state_query", response: { entities } })], tools }).text!;
  const sensor = (entity_id: string, name: string, state: string, device_class: string | null, unit: string | null = null, area = "Hallway") => ({
    entity_id, name, domain: entity_id.split(".")[0], area, state, unit, attributes: device_class ? { device_class } : {},
  });

  it("answers whether a door is locked from its lock alone, not from door contacts or motion sensors", () => {
    const text = answered("Is the front door locked?", [
      sensor("lock.front_door", "Front Door Lock", "locked", null),
      sensor("binary_sensor.front_door_door", "Front Door Lock Door", "off", "door"),
      sensor("binary_sensor.front_door_contact_opening", "Front Door Contact", "off", "door"),
      sensor("binary_sensor.front_door_doorbell_motion", "Front Door Doorbell Motion", "off", "motion"),
      sensor("sensor.front_door_lock_battery", "Front Door Lock Battery", "87", "battery", "%"),
    ]);
    expect(text).toBe("I'm the demo model: I look things up with simple rules, not an AI. These are locked: Front Door Lock (lock.front_door).");
  });

  it("answers whether any window is open from window sensors alone, not from a door's contact", () => {
    const text = answered("Is any window open?", [
      sensor("binary_sensor.office_window_opening", "Office Window", "on", "window", null, "Office"),
      sensor("binary_sensor.kitchen_window_opening", "Kitchen Window", "off", "window", null, "Kitchen"),
      sensor("binary_sensor.front_door_contact_opening", "Front Door Contact", "off", "door"),
      sensor("cover.living_room_shutter", "Living Room Shutter", "open", "shutter", null, "Living Room"),
    ]);
    expect(text).toContain("These are open: Office Window (binary_sensor.office_window_opening). Not open: Kitchen Window (binary_sensor.kitchen_window_opening) is closed.");
    expect(text).not.toMatch(/Front Door|Shutter/);
  });

  it("gives readings with their units as Home Assistant shows them, and only of the quantity asked about", () => {
    const text = answered("What is the temperature in the living room?", [
      sensor("sensor.living_room_temperature", "Living Room Climate Sensor Temperature", "20.6", "temperature", "°C", "Living Room"),
      sensor("sensor.living_room_humidity", "Living Room Climate Sensor Humidity", "47", "humidity", "%", "Living Room"),
      sensor("climate.living_room_thermostat", "Living Room Thermostat", "heat", null, null, "Living Room"),
    ]);
    expect(text).toContain("Here is what I found: Living Room Climate Sensor Temperature (sensor.living_room_temperature) is 20.6 °C.");
    expect(answered("How humid is the living room? Humidity please", [sensor("sensor.living_room_humidity", "Living Room Climate Sensor Humidity", "47", "humidity", "%", "Living Room")])).toContain("is 47%.");
    expect(answered("Is the living room sensor unavailable?", [sensor("sensor.living_room_temperature", "Living Room Temperature", "unavailable", "temperature", "°C", "Living Room")])).toContain("is unavailable");
  });

  it("diagnoses the best match when asked why", () => {
    const plan = demoPlan({ contents: [user("Why is the kitchen ceiling light unavailable?"), model(["index_search"]), responses({ name: "index_search", response: { results: hits } })], tools });
    expect(plan.calls?.map((c) => c.name)).toContain("diagnose_entity");
  });

  it("acts when the session offers call_service: one call on the matches of the domain the request names", () => {
    const acting = [{ functionDeclarations: ["index_search", "state_query", "call_service"].map((name) => ({ name })) }];
    const act = "Turn on the kitchen lights";
    const read = [user(act), model(["index_search"]), responses({ name: "index_search", response: { results: hits } }), model(["state_query"]), responses({ name: "state_query", response: { entities: hits } })];
    const plan = demoPlan({ contents: read, tools: acting });
    expect(plan.calls).toEqual([{ name: "call_service", args: { domain: "light", service: "turn_on", entity_id: ["light.kitchen_worktop_lights", "light.kitchen_ceiling"] } }]);

    const done = demoPlan({ contents: [...read, model(["call_service"]), responses({ name: "call_service", response: { service: "light.turn_on", targets: ["light.kitchen_ceiling"] } })], tools: acting });
    expect(done.text).toContain("Done: I called light.turn_on on Kitchen Ceiling (light.kitchen_ceiling).");
    const denied = demoPlan({ contents: [...read, model(["call_service"]), responses({ name: "call_service", response: { error: { code: "approval_denied", message: "A person denied light.turn_on." } } })], tools: acting });
    expect(denied.text).toContain("it was not done (approval_denied): A person denied light.turn_on.");
    // Named by its whole name, one light is all it acts on.
    const one = "Turn on the kitchen ceiling light";
    expect(demoPlan({ contents: [user(one), ...read.slice(1)], tools: acting }).calls).toEqual([{ name: "call_service", args: { domain: "light", service: "turn_on", entity_id: ["light.kitchen_ceiling"] } }]);
    // A verb it has no service for: it declines, as without call_service.
    expect(demoPlan({ contents: [user("Dim the kitchen lights"), ...read.slice(1)], tools: acting }).text).toContain("I did not dim");
  });
});
