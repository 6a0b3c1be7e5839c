import { describe, expect, it } from "vitest";
import { areaInText } from "./area-in-text.js";
import type { AreaInfo } from "./model.js";
import { whereSpoken } from "./where-spoken.js";

const area = (areaId: string, name: string, aliases: string[] = []): AreaInfo => ({ areaId, name, aliases, floorId: null, floorName: null, labels: [] });

describe("whereSpoken", () => {
  it("takes a persona's area argument first", () => {
    expect(whereSpoken({ pins: ["I am in the kitchen"], personaArea: "Office" })).toBe("Office");
  });

  it("reads where the person is from a pin, in several languages, the last such pin winning", () => {
    expect(whereSpoken({ pins: ["Never touch the heating.", "I'm in the living room."] })).toBe("living room");
    expect(whereSpoken({ pins: ["I am in the kitchen", "Jestem w kuchni"] })).toBe("kuchni");
    expect(whereSpoken({ pins: ["Я на кухне"] })).toBe("кухне");
    expect(whereSpoken({ pins: ["我在客厅"] })).toBe("客厅");
    expect(whereSpoken({ pins: ["Answer briefly."] })).toBeUndefined();
  });
});

describe("areaInText", () => {
  const areas = [area("kitchen", "Kuchnia"), area("living", "Living Room", ["Lounge"]), area("bath", "Ванная"), area("keting", "客厅"), area("room", "Room")];

  it("finds the area a phrase mentions in any form of its words, the longest mention winning", () => {
    expect(areaInText("kuchni", areas)).toBe("kitchen");
    expect(areaInText("the living room, by the window", areas)).toBe("living");
    expect(areaInText("lounge", areas)).toBe("living");
    expect(areaInText("ванной", areas)).toBe("bath");
    expect(areaInText("客厅里", areas)).toBe("keting");
    expect(areaInText("the attic", areas)).toBeUndefined();
  });
});
