import { describe, expect, it } from "vitest";
import { HomeGraph } from "./graph.js";
import { renderEntities } from "./render.js";
import { fixtureRegistries, fixtureStates } from "../../test/support/indexer/fixture-home.js";

describe("renderEntities", () => {
  it("groups entities by area with device lines, one line per entity, and estimates tokens", () => {
    const g = new HomeGraph();
    g.load(fixtureRegistries(), fixtureStates());
    const out = renderEntities(g.query({ floor: "ground" }), { title: "Ground floor" });
    expect(out.text).toContain("## Living Room (Ground Floor)");
    expect(out.text).toContain("device Living Room Climate (Xiaomi LYWSD03MMC):");
    expect(out.text).toContain('- sensor.living_room_temperature "Living Room Climate Temperature": 21.5 °C');
    expect(out.text.indexOf("## Hallway")).toBeLessThan(out.text.indexOf("## Living Room"));
    // About four characters per token.
    expect(out.tokenEstimate).toBe(Math.ceil(out.text.length / 4));
    expect(out.entityCount).toBe(g.query({ floor: "ground" }).length);
  });

  it("says how many entities it left out", () => {
    const g = new HomeGraph();
    g.load(fixtureRegistries(), fixtureStates());
    const all = g.query({});
    const out = renderEntities(all, { maxEntities: 3 });
    expect(out.omitted).toBe(all.length - 3);
    expect(out.text).toContain(`… and ${all.length - 3} more entities not shown`);
  });
});
