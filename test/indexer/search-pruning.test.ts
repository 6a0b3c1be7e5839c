import { describe, expect, it } from "vitest";
import { createRng } from "@ha-agent/ha-simulator";
import { HomeGraph, type SearchOptions } from "../../src/indexer/graph.js";
import type { SearchCost } from "../../src/indexer/search.js";
import { smallHome, type SmallEntity } from "../support/indexer/small-home.js";

/**
 * The search skips candidates whose words cannot reach the top. These tests
 * hold it to answering exactly as scoring every candidate does (same hits,
 * scores, reasons), on a home big enough for the skipping to matter, and
 * check that it does skip.
 */
const AREAS: [string, string][] = [
  ["living_room", "Living Room"],
  ["kitchen", "Kitchen"],
  ["bedroom", "Bedroom"],
  ["office", "Office"],
  ["hallway", "Hallway"],
  ["garage", "Garage"],
  ["bathroom", "Bathroom"],
  ["garden", "Garden"],
  ["kids_room", "Kids Room"],
  ["attic", "Attic"],
];

function entities(copies: number): SmallEntity[] {
  const rng = createRng(27);
  const out: SmallEntity[] = [];
  for (const [area, name] of AREAS) {
    const key = area;
    for (let i = 1; i <= copies; i++) {
      out.push(
        { id: `light.${key}_ceiling_${i}`, name: `${name} Ceiling ${i}`, area, state: rng.pick(["on", "off"]) },
        { id: `light.${key}_lamp_${i}`, name: `${name} Lamp ${i}`, area, state: rng.pick(["on", "off", "unavailable"]) },
        { id: `sensor.${key}_temperature_${i}`, name: `${name} Temperature ${i}`, area, state: String(rng.int(15, 25)), attrs: { device_class: "temperature", unit_of_measurement: "°C" } },
        { id: `sensor.${key}_humidity_${i}`, name: `${name} Humidity ${i}`, area, state: String(rng.int(30, 70)), attrs: { device_class: "humidity", unit_of_measurement: "%" } },
        { id: `binary_sensor.${key}_motion_${i}`, name: `${name} Motion ${i}`, area, state: rng.pick(["on", "off"]), attrs: { device_class: "motion" } },
        { id: `media_player.${key}_speaker_${i}`, name: `${name} Speaker ${i}`, area, state: rng.pick(["playing", "paused", "idle", "off"]), attrs: { device_class: "speaker" } },
        { id: `cover.${key}_blind_${i}`, name: `${name} Blind ${i}`, area, state: rng.pick(["open", "closed"]) },
        { id: `switch.${key}_plug_${i}`, name: `${name} Plug ${i}`, area, state: rng.pick(["on", "off"]), attrs: { device_class: "outlet" } },
      );
    }
  }
  // Names said in full by common words, and names that are everyday words.
  out.push(
    { id: "switch.kitchen", name: "Kitchen", area: "garage", state: "off" },
    { id: "sensor.temperature", name: "Temperature", area: "attic", state: "12", attrs: { device_class: "temperature", unit_of_measurement: "°C" } },
    { id: "climate.nest", name: "Nest", area: "hallway", state: "heat", attrs: { current_temperature: 19, temperature: 20 } },
    { id: "light.lamp", name: "Lamp", state: "on" },
  );
  return out;
}

function home(options: { exhaustive?: boolean; observe?: (cost: SearchCost) => void } = {}): HomeGraph {
  const g = new HomeGraph(options);
  const { registries, states } = smallHome({ areas: AREAS, entities: entities(18) });
  g.load(registries, states);
  return g;
}

const QUERIES = [
  ...AREAS.flatMap(([, name]) => {
    const area = name.toLowerCase();
    return [`${area} temperature`, `${area} lights`, `turn off the ${area} lights`, `is the ${area} blind open`, `how warm is it in the ${area}`, area, `${area} lamp 3`, `pause the ${area} speaker`];
  }),
  "pause the music",
  "next song",
  "louder",
  "which lights are on",
  "which blinds are open",
  "are any motion sensors on",
  "temperature",
  "lamp",
  "kitchen",
  "kichen temprature",
  "livng room lamp",
  "ceiling 3",
  "set the bedroom to 21 degrees",
  "open the garage blinds",
  "close all the blinds",
  "what is the humidity in the bathroom",
  "nest",
  "kitchen plug 12 power",
  "living room kitchen bedroom office hallway garage bathroom garden attic lights lamps speakers",
  "turn on",
  "on",
];

/** Words of the home, of requests and of the vocabulary, drawn into random requests: they reach the close calls a list written by hand misses. */
const WORDS = ["kitchen", "living", "room", "bedroom", "garden", "lamp", "lights", "ceiling", "temperature", "humidity", "motion", "speaker", "blind", "plug", "3", "12", "on", "off", "open", "here", "in", "this", "turn", "pause", "is", "the", "warm", "how", "add", "milk", "to", "play", "jazz", "nest", "kids", "attic", "garage", "which", "are", "set", "21", "degrees", "please", "hallway"];

function randomRequests(count: number): { query: string; options: SearchOptions }[] {
  const rng = createRng(2027);
  return Array.from({ length: count }, () => ({
    query: Array.from({ length: rng.int(2, 5) }, () => rng.pick(WORDS)).join(" "),
    options: { limit: rng.pick([1, 3, 10, 25, 40]), ...(rng.chance(0.4) ? { nearArea: rng.pick(AREAS)[0] } : {}) },
  }));
}

const OPTIONS: SearchOptions[] = [{ limit: 1 }, { limit: 5 }, {}, { limit: 40 }, { nearArea: "kitchen" }, { nearArea: "attic", limit: 3 }, { domain: "light" }, { area: "bedroom" }, { deviceClass: "temperature", limit: 5 }];

describe("skipping candidates that cannot reach the top", () => {
  it("answers exactly as scoring every candidate does", () => {
    const pruned = home();
    const exhaustive = home({ exhaustive: true });
    let compared = 0;
    for (const query of QUERIES) {
      for (const options of OPTIONS) {
        expect(pruned.search(query, options), `${query} ${JSON.stringify(options)}`).toEqual(exhaustive.search(query, options));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(700);
  });

  it("answers random requests exactly as scoring every candidate does, near an area or not", () => {
    const pruned = home();
    const exhaustive = home({ exhaustive: true });
    const differ = randomRequests(3000).filter(({ query, options }) => JSON.stringify(pruned.search(query, options)) !== JSON.stringify(exhaustive.search(query, options)));
    expect(differ.slice(0, 5)).toEqual([]);
  });

  it("scores only a small share of the candidates of common words", () => {
    const costs: SearchCost[] = [];
    const g = home({ observe: (c) => costs.push(c) });
    for (const query of ["kitchen temperature", "turn off the living room lights", "garden speaker"]) {
      costs.length = 0;
      const hits = g.search(query, { limit: 10 });
      expect(hits).toHaveLength(10);
      const [cost] = costs;
      expect(cost!.candidates, query).toBeGreaterThan(150);
      expect(cost!.scored, query).toBeLessThan(cost!.candidates / 4);
    }
  });

  it("scores every candidate when the filters turn away the best ones", () => {
    const costs: SearchCost[] = [];
    const g = home({ observe: (c) => costs.push(c) });
    const hits = g.search("kitchen temperature", { limit: 10, area: "garden" });
    expect(hits.map((h) => h.entityId)).toContain("sensor.garden_temperature_1");
    expect(costs[0]!.scored).toBe(costs[0]!.candidates);
  });

  it("weighs words afresh when entities come: a search after new entities answers as if nothing had been cached", () => {
    // Only words the home already has, so the index gains documents but no term.
    const added = Object.fromEntries(
      Array.from({ length: 180 }, (_, i) => [
        `sensor.kitchen_temperature_${(i % 18) + 1}_${Math.floor(i / 18) + 1}`,
        { s: "11", a: { friendly_name: "Kitchen Temperature", device_class: "temperature", unit_of_measurement: "°C" }, c: "ctx", lc: 1_700_000_000 },
      ]),
    );
    const queries = ["kitchen temperature", "temperature", "garden temperature 3"];
    const cached = home();
    const fresh = home();
    for (const query of queries) cached.search(query, { limit: 10 });
    cached.applyDiff({ a: added });
    fresh.applyDiff({ a: added });
    for (const query of queries) expect(cached.search(query, { limit: 10 }), query).toEqual(fresh.search(query, { limit: 10 }));
  });

  it("finds a name said in full on an entity that came after the same words were searched", () => {
    const cached = home();
    const fresh = home();
    const query = "garden motion";
    const first = { "sensor.attic_clock": { s: "12:00", a: { friendly_name: "Attic Clock" }, c: "ctx", lc: 1_700_000_000 } };
    const added = { "binary_sensor.garden_motion": { s: "off", a: { friendly_name: "Garden Motion", device_class: "motion" }, c: "ctx", lc: 1_700_000_000 } };
    // The second entity comes into room the first one made, which a table of documents keeps.
    for (const diff of [first, added]) {
      cached.search(query, { limit: 20 });
      cached.applyDiff({ a: diff });
      fresh.applyDiff({ a: diff });
    }
    expect(cached.search(query, { limit: 20 })).toEqual(fresh.search(query, { limit: 20 }));
    expect(cached.search(query, { limit: 20 }).find((h) => h.entityId === "binary_sensor.garden_motion")).toMatchObject({ why: 'name "Garden Motion" matches "garden motion"', named: true });
  });
});
