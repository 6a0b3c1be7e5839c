import { describe, expect, it } from "vitest";
import { allowedEdits, editDistance } from "./fuzzy.js";
import { queryTokens, stem, tokens } from "./tokenize.js";

describe("tokens", () => {
  it("splits snake_case, camelCase and punctuation, folding accents and case", () => {
    expect(tokens("binary_sensor.KücheTür")).toEqual(["binary", "sensor", "kuche", "tur"]);
    expect(tokens("Living-Room  Lamps")).toEqual(["living", "room", "lamp"]);
  });

  it("reduces plurals to singulars without merging distinct words", () => {
    expect(["lights", "batteries", "switches", "boxes", "status", "glass", "blinds"].map(stem)).toEqual([
      "light", "battery", "switch", "box", "status", "glass", "blind",
    ]);
  });

  it("drops query stopwords but keeps state words", () => {
    expect(queryTokens("what's on upstairs")).toEqual(["on", "upstair"]);
    expect(queryTokens("the")).toEqual(["the"]);
  });
});

describe("editDistance", () => {
  it("counts an adjacent swap as one edit and stops past the bound", () => {
    expect(editDistance("kitchen", "kithcen", 2)).toBe(1);
    expect(editDistance("kichen", "kitchen", 1)).toBe(1);
    expect(editDistance("bedroom", "bathroom", 1)).toBe(2);
    expect(editDistance("abc", "xyzxyz", 1)).toBe(2);
  });

  it("allows no edits on short words and two on long ones", () => {
    expect([allowedEdits(3), allowedEdits(5), allowedEdits(9)]).toEqual([0, 1, 2]);
  });
});
