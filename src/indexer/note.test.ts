import { describe, expect, it } from "vitest";
import type { SearchResult } from "./graph.js";
import { searchNote } from "./note.js";
import { asksAboutSet } from "./set-question.js";

const hit = (i: number): SearchResult => ({ entityId: `sensor.t${i}`, score: 13.4, why: "", named: true, name: `Kitchen ${i} Temperature`, domain: "sensor", deviceClass: "temperature", areaId: `kitchen_${i}`, area: `Kitchen ${i}`, state: "20" });
const of = (domain: string, deviceClass: string | null, names: string[]): SearchResult[] =>
  names.map((name, i) => ({ entityId: `${domain}.e${i}`, score: 14.4, why: "", named: true, name, domain, deviceClass, areaId: null, area: null, state: "off" }));
const windows = of("binary_sensor", "window", ["Office Window", "Kitchen Window", "Emma's Room Window", "Living Room Window", "Master Bedroom Window"]);
const lights = of("light", null, ["Kitchen Ceiling", "Kitchen Pendant", "Kitchen Worktop"]);

describe("searchNote", () => {
  it("names the first three of many equal fits and counts the rest, in plain ASCII", () => {
    const note = searchNote({ query: "kitchen temperature", results: [1, 2, 3, 4, 5].map(hit) });
    expect(note).toBe("Ambiguous: 5 fit equally well (Kitchen 1 Temperature (Kitchen 1), Kitchen 2 Temperature (Kitchen 2), Kitchen 3 Temperature (Kitchen 3) and 2 more); ask which one is meant, or act on all if that is what was asked.");
    // A character beyond Latin-1 would make every answer carrying the note a two-byte string.
    expect(note).toMatch(/^[\x20-\x7e]*$/);
  });

  it("presents equal fits as the set a question about any, all, every, each, which or how many asks about, not as an ambiguity", () => {
    expect(searchNote({ query: "Is any window open?", results: windows })).toBe("5 windows match; the question is about all of them.");
    for (const query of ["Are all windows closed?", "is every window shut", "Check each window", "Which window is open?", "How many windows are open?", "Are there windows open?"]) {
      const note = searchNote({ query, results: windows });
      expect(note, query).toMatch(/^5 windows match; the (question|request) is about all of them\.$/);
    }
    expect(searchNote({ query: "which kitchen lights are on", results: lights })).toBe("3 lights match; the question is about all of them.");
  });

  it("reads a plural of the results' domain, device class or name as the whole set, commands included", () => {
    expect(searchNote({ query: "turn off the kitchen lights", results: lights })).toBe("3 lights match; the request is about all of them.");
    expect(searchNote({ query: "are the bedroom windows open", results: windows })).toBe("5 windows match; the question is about all of them.");
    const doors = of("cover", "garage_door", ["Left Garage Door", "Right Garage Door"]);
    expect(searchNote({ query: "close the garage doors", results: doors })).toBe("2 garage doors match; the request is about all of them.");
    const batteries = of("sensor", "battery", ["Hall Motion Battery", "Door Contact Battery"]);
    expect(searchNote({ query: "show me the batteries", results: batteries })).toBe("2 batteries match; the request is about all of them.");
    const switches = of("switch", null, ["Fan Plug", "Heater Plug"]);
    expect(searchNote({ query: "what are the switches doing", results: switches })).toBe("2 switches match; the question is about all of them.");
  });

  it("keeps a singular reference to one of several equal fits ambiguous", () => {
    for (const query of ["Is the kitchen light on?", "turn on the kitchen light", "Which one is the kitchen light?"]) {
      expect(searchNote({ query, results: lights }), query).toMatch(/^Ambiguous: 3 fit equally well \(Kitchen Ceiling, Kitchen Pendant, Kitchen Worktop\); ask which one is meant/);
    }
    expect(searchNote({ query: "Is the office window open?", results: windows })).toMatch(/^Ambiguous: 5 fit equally well/);
  });
});

describe("asksAboutSet", () => {
  it("finds simple English plurals of a kind, and no plural in a singular word", () => {
    expect(asksAboutSet("the garage doors", [{ domain: "cover", deviceClass: "garage_door", name: "Garage" }])).toEqual({ set: true, plural: "garage doors" });
    expect(asksAboutSet("media players", [{ domain: "media_player", deviceClass: "speaker", name: "Speaker" }])).toEqual({ set: true, plural: "media players" });
    expect(asksAboutSet("kitchen lamps", [{ domain: "light", deviceClass: null, name: "Kitchen Lamp" }])).toEqual({ set: true, plural: "lamps" });
    expect(asksAboutSet("the kitchen light", [{ domain: "light", deviceClass: null, name: "Kitchen Lights" }])).toEqual({ set: false });
  });
});
