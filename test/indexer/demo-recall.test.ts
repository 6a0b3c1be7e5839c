import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoHouse } from "@ha-agent/ha-simulator";
import { recallAtK, type LabelledQuery } from "../../bench/index/recall.js";
import type { HomeIndex } from "../../src/indexer/home-index.js";
import { startLiveIndex, type LiveIndex } from "../support/indexer/live-index.js";

/**
 * Everyday questions about the demo house, whose names, aliases and makers
 * are realistic (unlike the generated benchmark homes), with the entities a
 * person would expect in the first five results.
 */
const QUERIES: LabelledQuery[] = [
  { kind: "area alias", query: "lounge lights", expected: ["light.living_room_floor_lamp", "light.living_room_ceiling", "light.living_room_tv_backlight"] },
  { kind: "typo", query: "kichen lights", expected: ["light.kitchen_ceiling", "light.kitchen_worktop_lights", "light.kitchen_island_pendant"] },
  { kind: "area alias", query: "study temperature", expected: ["sensor.office_temperature"] },
  { kind: "area alias", query: "utility room leak", expected: ["binary_sensor.laundry_room_leak_sensor_moisture"] },
  { kind: "area alias", query: "patio heater", expected: ["switch.terrace_patio_heater"] },
  { kind: "area alias", query: "kids room lights", expected: ["light.emma_s_room_ceiling", "light.emma_s_room_night_light"] },
  { kind: "area alias", query: "downstairs toilet light", expected: ["light.guest_toilet"] },
  { kind: "name", query: "fountain pump", expected: ["switch.garden_fountain_pump"] },
  { kind: "name", query: "front door lock", expected: ["lock.front_door"] },
  { kind: "name", query: "porch light", expected: ["light.porch_light"] },
  { kind: "name", query: "driveway camera", expected: ["camera.driveway_camera_high"] },
  { kind: "name", query: "noah speaker", expected: ["media_player.noah_room_speaker"] },
  { kind: "name", query: "bedside lamps", expected: ["light.master_bedroom_bedside_left", "light.master_bedroom_bedside_right"] },
  { kind: "name", query: "coffee machine power", expected: ["sensor.kitchen_coffee_machine_power"] },
  { kind: "typo", query: "wahsing machine", expected: ["switch.washing_machine_power", "binary_sensor.washing_machine_door", "sensor.washing_machine_operation_state"] },
  { kind: "typo", query: "fountian", expected: ["switch.garden_fountain_pump"] },
  { kind: "synonym", query: "robot vacuum", expected: ["vacuum.robot_vacuum"] },
  { kind: "synonym", query: "upstairs thermostat", expected: ["climate.upstairs_thermostat"] },
  { kind: "domain", query: "blinds", expected: ["cover.living_room_shutter_left", "cover.living_room_shutter_right", "cover.master_bedroom_blinds"] },
  { kind: "domain", query: "smoke detectors", expected: ["binary_sensor.kitchen_smoke_detector_smoke", "binary_sensor.hallway_smoke_detector_smoke", "binary_sensor.landing_smoke_detector_smoke"] },
  { kind: "manufacturer", query: "ikea air purifier", expected: ["fan.living_room_air_purifier", "fan.master_bedroom_air_purifier"] },
  { kind: "manufacturer", query: "nuki", expected: ["lock.front_door", "binary_sensor.front_door_door"] },
  { kind: "label", query: "kids lights", expected: ["light.emma_s_room_ceiling", "light.emma_s_room_night_light", "light.noah_s_room_ceiling", "light.noah_s_room_desk_strip"] },
  { kind: "floor", query: "upstairs bathroom light", expected: ["light.bathroom_ceiling", "light.bathroom_mirror_light"] },
  { kind: "floor", query: "garden lights", expected: ["light.garden_path_lights"] },
  { kind: "entity id", query: "cover.master_bedroom_blinds", expected: ["cover.master_bedroom_blinds"] },
];

describe("search on the demo house", () => {
  let live: LiveIndex | undefined;
  let index: HomeIndex;
  beforeAll(async () => {
    live = await startLiveIndex(demoHouse());
    index = live.index;
    await index.whenIdle();
  });
  afterAll(() => live?.close());

  it("puts what a person means in the top five for everyday questions", () => {
    for (const q of QUERIES) for (const id of q.expected) expect(index.entity(id), `${q.query}: ${id}`).toBeDefined();
    const r = recallAtK(QUERIES, (q) => index.search(q, { limit: 5 }).map((h) => h.entityId));
    expect(r.recall, `missed: ${JSON.stringify(r.misses)}`).toBeGreaterThanOrEqual(0.95);
  });
});
