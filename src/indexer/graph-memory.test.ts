import { describe, expect, it } from "vitest";
import { gc, heapUsed } from "../../test/support/heap.js";
import type { CompressedState } from "../ha/index.js";
import { HomeGraph } from "./graph.js";
import type { Registries } from "./model.js";
import { fixtureRegistries, fixtureStates } from "../../test/support/indexer/fixture-home.js";


/** The fixture home copied `times` times, each copy's entities with their own ids: a home of realistic shapes at scale. */
function bigHome(times: number): HomeGraph {
  const reg = fixtureRegistries();
  const states = fixtureStates();
  const entities: Registries["entities"] = [];
  const bigStates: Record<string, CompressedState> = {};
  for (let i = 0; i < times; i++) {
    for (const e of reg.entities) entities.push({ ...e, id: `${e.id}_${i}`, entity_id: `${e.entity_id}_${i}`, unique_id: `${e.unique_id}_${i}` });
    for (const [id, s] of Object.entries(states)) bigStates[`${id}_${i}`] = { ...s, a: { ...s.a } };
  }
  const g = new HomeGraph();
  g.load({ ...reg, entities }, bigStates);
  return g;
}

describe("HomeGraph memory", () => {
  it("keeps a reused view small: reading every entity of a big home costs well under 1 KB a view", () => {
    const g = bigHome(400);
    const before = heapUsed();
    const views = g.query({ includeHidden: true });
    const perView = (heapUsed() - before) / views.length;
    expect(views.length).toBeGreaterThan(4000);
    // Views built by spreading the structure took about 1 KB each here, most of it a hidden class per view.
    expect(perView).toBeLessThan(600);
  });

  it("does not keep an entity's previous state alive in its cached view once the state changes", async () => {
    const g = bigHome(1);
    // Read once, so the view (holding the state) is cached; only a WeakRef stays here.
    const old = ((): WeakRef<object> => new WeakRef(g.entity("light.kitchen_spots_0")!.state!))();
    g.applyDiff({ c: { "light.kitchen_spots_0": { "+": { s: "off", lc: 1_700_000_100 } } } });
    expect(g.states().get("light.kitchen_spots_0")?.state).toBe("off");
    // A WeakRef holds its target until the current job ends.
    await new Promise((r) => setImmediate(r));
    gc();
    expect(old.deref(), "the view cache still holds the entity's previous state").toBeUndefined();
    expect(g.entity("light.kitchen_spots_0")?.state?.state).toBe("off");
  });
});
