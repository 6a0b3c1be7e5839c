import { describe, expect, it } from "vitest";
import type { SearchResult } from "./graph.js";
import { searchNote } from "./note.js";

const hit = (i: number): SearchResult => ({ entityId: `sensor.t${i}`, score: 13.4, why: "", named: true, name: `Kitchen ${i} Temperature`, domain: "sensor", areaId: `kitchen_${i}`, area: `Kitchen ${i}`, state: "20" });

describe("searchNote", () => {
  it("names the first three of many equal fits and counts the rest, in plain ASCII", () => {
    const note = searchNote({ query: "kitchen temperature", results: [1, 2, 3, 4, 5].map(hit) });
    expect(note).toBe("Ambiguous: 5 fit equally well (Kitchen 1 Temperature (Kitchen 1), Kitchen 2 Temperature (Kitchen 2), Kitchen 3 Temperature (Kitchen 3) and 2 more); ask which one is meant, or act on all if that is what was asked.");
    // A character beyond Latin-1 would make every answer carrying the note a two-byte string.
    expect(note).toMatch(/^[\x20-\x7e]*$/);
  });
});
