import { describe, expect, it } from "vitest";
import { HomeGraph } from "./graph.js";
import { smallHome, type SmallEntity } from "../../test/support/indexer/small-home.js";

/**
 * Requests as people speak them, one group per way a plain word search gets
 * them wrong. The home has several speakers, lamps in different states,
 * battery sensors named alike, and devices whose names are near-misspellings
 * of everyday words (Nest, Sono, Smart, Quarter, Move).
 */
const speaker = (id: string, name: string, area: string, state: string): SmallEntity => ({ id, name, area, state, attrs: { device_class: "speaker" } });

const ENTITIES: SmallEntity[] = [
  speaker("media_player.living_room_speaker", "Living Room Speaker", "living_room", "playing"),
  speaker("media_player.kitchen_speaker", "Kitchen Speaker", "kitchen", "idle"),
  speaker("media_player.bedroom_speaker", "Bedroom Speaker", "bedroom", "paused"),
  { id: "media_player.tv", name: "Television", area: "living_room", state: "idle", attrs: { device_class: "tv" } },
  { id: "light.living_room_ceiling", name: "Living Room Ceiling", area: "living_room", state: "on" },
  { id: "light.bedroom_light", name: "Bedroom Light", area: "bedroom", state: "on" },
  { id: "light.desk_lamp", name: "Desk Lamp", area: "office", state: "on" },
  { id: "light.bedside_lamp", name: "Bedside Lamp", area: "bedroom", state: "off" },
  { id: "light.floor_lamp", name: "Floor Lamp", area: "living_room", state: "off" },
  { id: "light.sono", name: "Sono", area: "bedroom", state: "off" },
  { id: "light.quarter", name: "Quarter Light", area: "office", state: "off" },
  { id: "climate.living_room", name: "Thermostat", area: "living_room", state: "heat", attrs: { current_temperature: 20, temperature: 21 } },
  { id: "climate.nest", name: "Nest", area: "hallway", state: "heat", attrs: { current_temperature: 19, temperature: 20 } },
  { id: "sensor.living_room_temperature", name: "Living Room Temperature", area: "living_room", state: "20.4", attrs: { device_class: "temperature", unit_of_measurement: "°C" } },
  { id: "switch.smart_plug", name: "Smart Plug", area: "office", state: "on", attrs: { device_class: "outlet" } },
  { id: "binary_sensor.move", name: "Move", area: "hallway", state: "off", attrs: { device_class: "motion" } },
  { id: "vacuum.robo", name: "Robo", area: "hallway", state: "docked" },
  { id: "todo.shopping_list", name: "Shopping List", state: "3" },
  { id: "valve.front_yard", name: "Front Yard", area: "front_yard", state: "closed", attrs: { device_class: "water" } },
  { id: "sensor.front_yard_water", name: "Front Yard Water", area: "front_yard", state: "88", attrs: { device_class: "water", unit_of_measurement: "L" } },
  { id: "binary_sensor.hallway_motion", name: "Hallway Motion Sensor", area: "hallway", state: "off", attrs: { device_class: "motion" } },
  { id: "sensor.hallway_motion_battery", name: "Hallway Motion Sensor Battery", area: "hallway", state: "38", attrs: { device_class: "battery", unit_of_measurement: "%" } },
  { id: "binary_sensor.hallway_motion_battery", name: "Hallway Motion Sensor Battery", area: "hallway", state: "off", attrs: { device_class: "battery" } },
];

function home(entities: SmallEntity[] = ENTITIES, areas: [string, string][] = AREAS): HomeGraph {
  const g = new HomeGraph();
  const { registries, states } = smallHome({ areas, entities });
  g.load(registries, states);
  return g;
}

const AREAS: [string, string][] = [
  ["living_room", "Living Room"],
  ["kitchen", "Kitchen"],
  ["bedroom", "Bedroom"],
  ["office", "Office"],
  ["hallway", "Hallway"],
  ["front_yard", "Front Yard"],
];

const ids = (g: HomeGraph, q: string, opts = {}) => g.search(q, opts).map((r) => r.entityId);
const MEDIA = (id: string) => id.startsWith("media_player.");

describe("search links what a device does to what it is", () => {
  it("finds media players for pausing, skipping and volume", () => {
    const g = home();
    expect(ids(g, "pause the music")[0]).toBe("media_player.living_room_speaker");
    expect(ids(g, "skip to the next track")[0]).toBe("media_player.living_room_speaker");
    expect(ids(g, "volume 50").slice(0, 3).every(MEDIA)).toBe(true);
  });

  it("finds the list for an item to add, though the list is not named", () => {
    const g = home();
    expect(ids(g, "add milk to my list")[0]).toBe("todo.shopping_list");
    expect(ids(g, "put apples on the shopping list")[0]).toBe("todo.shopping_list");
  });

  it("finds the thermostat to heat a room or set degrees, above the room's lights", () => {
    const g = home();
    expect(ids(g, "heat the living room")[0]).toBe("climate.living_room");
    expect(ids(g, "set it to 21 degrees", { nearArea: "living_room" })[0]).toBe("climate.living_room");
  });

  it("finds the vacuum and the valve from verbs, with their -ing forms reduced", () => {
    const g = home();
    expect(ids(g, "start vacuuming")[0]).toBe("vacuum.robo");
    expect(ids(g, "start the watering in the front yard")[0]).toBe("valve.front_yard");
  });
});

describe("search does not bend correctly spelt words onto names", () => {
  it("reads everyday words as themselves, not as the names they resemble", () => {
    const g = home();
    const asked: [string, string][] = [
      ["next", "climate.nest"],
      ["play a song", "light.sono"],
      ["start vacuuming", "switch.smart_plug"],
      ["quieter", "light.quarter"],
      ["play a movie", "binary_sensor.move"],
    ];
    for (const [q, lookalike] of asked) {
      const hits = g.search(q);
      expect(hits.length, q).toBeGreaterThan(0);
      expect(hits.map((h) => h.entityId), q).not.toContain(lookalike);
      expect(hits.some((h) => h.why.includes("typo for")), q).toBe(false);
    }
  });

  it("still reads an unknown word as a misspelling, below an exact match of another word", () => {
    const g = home();
    expect(ids(g, "bedrom light")[0]).toBe("light.bedroom_light");
    const hits = g.search("thermostat smaart");
    expect(hits[0]!.entityId).toBe("climate.living_room");
    expect(hits.find((h) => h.entityId === "switch.smart_plug")?.why).toContain('typo for "smart"');
  });
});

describe("search tells commands from questions", () => {
  it("does not take the state a command asks for as evidence: the lamp that is on comes first for turn off", () => {
    const g = home();
    expect(ids(g, "turn off the lamp")[0]).toBe("light.desk_lamp");
    expect(ids(g, "turn on the lamp")[0]).not.toBe("light.desk_lamp");
  });

  it("still takes state words of a question as evidence", () => {
    const g = home();
    const on = ids(g, "which lamps are on");
    expect(on[0]).toBe("light.desk_lamp");
  });

  it("answers a question about a level with the sensor that measures it", () => {
    const g = home();
    expect(ids(g, "what is the battery level of the motion sensor")[0]).toBe("sensor.hallway_motion_battery");
    expect(ids(g, "how warm is it in the living room")[0]).toBe("sensor.living_room_temperature");
  });

  it("gives a command to what can carry it out, not to what reports on it", () => {
    const g = home();
    expect(ids(g, "water the front yard")[0]).toBe("valve.front_yard");
  });
});

describe("search answers requests that name no device", () => {
  it("returns the media players for pause, next and louder, the one playing first, and says why", () => {
    const g = home();
    for (const q of ["pause", "next", "louder"]) {
      const hits = g.search(q);
      expect(hits.length, q).toBeGreaterThanOrEqual(3);
      expect(hits.slice(0, 3).every((h) => MEDIA(h.entityId)), q).toBe(true);
      expect(hits[0]!.entityId, q).toBe("media_player.living_room_speaker");
      expect(hits[0]!.named, q).toBe(false);
      expect(hits[0]!.why, q).toMatch(/media player/);
    }
    expect(g.search("pause")[0]!.why).toContain('state "playing"');
  });

  it("prefers a paused player to resume", () => {
    expect(ids(home(), "resume")[0]).toBe("media_player.bedroom_speaker");
  });
});

describe("search prefers the area a request was spoken in", () => {
  it("puts the lights of the room first when the request names no room", () => {
    const g = home();
    expect(ids(g, "turn off the light", { nearArea: "living_room" })[0]).toBe("light.living_room_ceiling");
    expect(ids(g, "turn off the light", { nearArea: "Bedroom" })[0]).toBe("light.bedroom_light");
    expect(g.search("turn off the light", { nearArea: "living_room" })[0]!.why).toContain('in "Living Room", where the request was made');
  });

  it("lets a room the request names win over the room it was spoken in", () => {
    const g = home();
    expect(ids(g, "turn off the bedroom light", { nearArea: "living_room" })[0]).toBe("light.bedroom_light");
  });

  it("is a preference, not a filter: a device named elsewhere is still found", () => {
    const g = home();
    expect(ids(g, "robo", { nearArea: "kitchen" })[0]).toBe("vacuum.robo");
  });
});

describe("search matches names in any language and script", () => {
  const AREAS_INTL: [string, string][] = [
    ["kuchnia", "Kuchnia"],
    ["lazienka", "Łazienka"],
    ["kuhnya", "Кухня"],
    ["gostinaya", "Гостиная"],
    ["keting", "客厅"],
    ["chufang", "厨房"],
  ];
  const INTL: SmallEntity[] = [
    { id: "light.kuchnia", name: "Światło w kuchni", area: "kuchnia", state: "off" },
    { id: "light.lazienka", name: "Lampa", area: "lazienka", state: "off" },
    { id: "light.kuhnya", name: "Свет", area: "kuhnya", state: "off" },
    { id: "light.lyustra", name: "Люстра", area: "gostinaya", state: "on" },
    { id: "light.keting", name: "吸顶灯", area: "keting", state: "on" },
    { id: "light.chufang", name: "厨房灯", area: "chufang", state: "off" },
    { id: "switch.chufang", name: "电水壶", area: "chufang", state: "off" },
  ];

  it("finds Polish names from inflected forms and without diacritics", () => {
    const g = home(INTL, AREAS_INTL);
    expect(ids(g, "włącz lampę w łazience")[0]).toBe("light.lazienka");
    expect(ids(g, "zgas swiatlo w kuchni")[0]).toBe("light.kuchnia");
  });

  it("finds Cyrillic names and areas in their case forms", () => {
    const g = home(INTL, AREAS_INTL);
    expect(ids(g, "включи свет на кухне")[0]).toBe("light.kuhnya");
    expect(ids(g, "выключи люстру в гостиной")[0]).toBe("light.lyustra");
  });

  it("finds Chinese names and areas written without spaces", () => {
    const g = home(INTL, AREAS_INTL);
    expect(ids(g, "打开客厅的灯")[0]).toBe("light.keting");
    expect(ids(g, "关掉厨房灯")[0]).toBe("light.chufang");
  });
});

describe("search reads words of Hebrew and Arabic without the prefixes written onto them", () => {
  it("finds the kitchen in במטבח and المطبخ", () => {
    const g = home(
      [
        { id: "light.mitbach", name: "תאורה", area: "mitbach", state: "off" },
        { id: "light.salon", name: "תאורה", area: "salon", state: "off" },
        { id: "light.matbakh", name: "ضوء", area: "matbakh", state: "off" },
        { id: "light.ghurfa", name: "ضوء", area: "ghurfa", state: "off" },
      ],
      [
        ["mitbach", "מטבח"],
        ["salon", "סלון"],
        ["matbakh", "مطبخ"],
        ["ghurfa", "غرفة"],
      ],
    );
    expect(ids(g, "הדלק את האור במטבח")[0]).toBe("light.mitbach");
    expect(ids(g, "شغل الضوء في المطبخ")[0]).toBe("light.matbakh");
  });
});
