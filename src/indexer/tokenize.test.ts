import { describe, expect, it } from "vitest";
import { allowedEdits, editDistance } from "./fuzzy.js";
import { fold, stem, tokens, words } from "./tokenize.js";

describe("tokens", () => {
  it("splits snake_case, camelCase and punctuation, folding accents and case", () => {
    expect(tokens("binary_sensor.KücheTür")).toEqual(["binary", "sensor", "kuch", "tur"]);
    expect(tokens("Living-Room  Lamps")).toEqual(["living", "room", "lamp"]);
  });

  it("reduces plurals to singulars without merging distinct words", () => {
    expect(["lights", "batteries", "switches", "boxes", "status", "glass", "blinds"].map(stem)).toEqual([
      "light", "battery", "switch", "box", "status", "glass", "blind",
    ]);
  });

  it("reduces English verb forms to the stem of their noun or verb", () => {
    expect(["vacuuming", "watering", "heating", "heat", "lighting", "paused", "pause", "closing", "closed", "close", "dimmed"].map(stem)).toEqual([
      "vacuum", "water", "heat", "heat", "light", "paus", "paus", "clos", "clos", "clos", "dim",
    ]);
    // Words that only look like verb forms stay apart.
    expect(["thing", "string", "speed", "shed", "bed", "home"].map(stem)).toEqual(["thing", "string", "speed", "shed", "bed", "home"]);
  });

  it("folds letters of any Latin, Greek or Cyrillic alphabet, and full-width forms", () => {
    expect(fold("Łazienka Żółta")).toBe("lazienka zolta");
    expect(fold("Ёлка ЙОГУРТ")).toBe("елка иогурт");
    expect(fold("ＴＶ Straße")).toBe("tv strasse");
  });

  it("keeps words of other scripts, and cuts Chinese and Japanese text into character pairs", () => {
    expect(words("Свет на кухне")).toEqual(["свет", "на", "кухне"]);
    expect(words("客厅吸顶灯")).toEqual(["客", "厅", "吸", "顶", "灯", "客厅", "厅吸", "吸顶", "顶灯"]);
    expect(words("リビングの照明")).toEqual(["照", "明", "リビ", "ビン", "ング", "グの", "の照", "照明"]);
    expect(words("LED灯带")).toEqual(["led", "灯", "带", "灯带"]);
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
