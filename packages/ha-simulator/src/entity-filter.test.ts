import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { demoHouse } from "./demo/index.js";
import { entityFilter, globToRegExp } from "./entity-filter.js";
import { startSimulator, type Simulator } from "./index.js";
import { RawClient } from "../test/support/raw-client.js";

const side = (o: Partial<{ domains: string[]; entity_globs: string[]; entities: string[] }> = {}) => ({ domains: [], entity_globs: [], entities: [], ...o });

describe("HA's include/exclude entity filter", () => {
  it("follows HA's cases: includes only, excludes only, and domain or glob includes that beat glob excludes", () => {
    expect(entityFilter(side(), side())).toBeUndefined();
    const inc = entityFilter(side({ domains: ["light"], entities: ["switch.a"] }), side())!;
    expect(["light.x", "switch.a", "switch.b"].filter(inc)).toEqual(["light.x", "switch.a"]);
    const exc = entityFilter(side(), side({ domains: ["sensor"], entity_globs: ["light.*_test"] }))!;
    expect(["sensor.t", "light.a_test", "light.a"].filter(exc)).toEqual(["light.a"]);
    const both = entityFilter(side({ domains: ["light"], entities: ["light.keep_test"] }), side({ entity_globs: ["light.*_test"], entities: ["light.gone"] }))!;
    expect(["light.a", "light.b_test", "light.keep_test", "light.gone", "switch.a"].filter(both)).toEqual(["light.a", "light.keep_test"]);
    const excludeDomainIncludeEntity = entityFilter(side({ entities: ["sensor.kept"] }), side({ domains: ["sensor"] }))!;
    expect(["sensor.kept", "sensor.other", "light.a"].filter(excludeDomainIncludeEntity)).toEqual(["sensor.kept", "light.a"]);
  });

  it("matches globs as fnmatch does, against the whole entity id", () => {
    expect(globToRegExp("sensor.*_temp?").test("sensor.kitchen_temp1")).toBe(true);
    expect(globToRegExp("sensor.*_temp?").test("sensor.kitchen_temp12")).toBe(false);
    expect(globToRegExp("light.[!k]*").test("light.kitchen")).toBe(false);
    expect(globToRegExp("light.[!k]*").test("light.porch")).toBe(true);
    expect(globToRegExp("a.b+c").test("a.bbc")).toBe(false);
  });
});

describe("subscribe_entities with include and exclude", () => {
  let sim: Simulator;
  let c: RawClient;
  beforeEach(async () => {
    sim = await startSimulator({ house: demoHouse() });
    c = await RawClient.authed(sim.wsUrl, sim.users.tokenFor());
  });
  afterEach(async () => {
    c.close();
    await sim.close();
  });

  it("filters the snapshot and the changes, as HA does", async () => {
    c.send({ id: 1, type: "subscribe_entities", include: { domains: ["light"] }, exclude: { entity_globs: ["light.kitchen_*"] } });
    expect((await c.next()).success).toBe(true);
    const ids = Object.keys((await c.next()).event.a);
    const lights = sim.home.states().map((s) => s.entity_id).filter((id) => id.startsWith("light.") && !id.startsWith("light.kitchen_"));
    expect(ids.sort()).toEqual(lights.sort());
    sim.home.setState("light.kitchen_ceiling", "off");
    sim.home.setState("switch.kitchen_dishwasher", "on");
    sim.home.setState("light.porch_light", sim.home.getState("light.porch_light")!.state === "on" ? "off" : "on");
    expect(Object.keys((await c.until((m) => m.type === "event")).event.c)).toEqual(["light.porch_light"]);
  });

  it("takes an empty entity_ids list as every entity, and refuses HA's flat filter keys", async () => {
    c.send({ id: 1, type: "subscribe_entities", entity_ids: [] });
    await c.next();
    expect(Object.keys((await c.next()).event.a)).toHaveLength(sim.home.states().length);
    expect((await c.command({ id: 2, type: "subscribe_entities", include_domains: ["light"] })).error).toEqual({
      code: "invalid_format",
      message: "extra keys not allowed @ data['include_domains']. Got ['light']",
    });
    expect((await c.command({ id: 3, type: "subscribe_entities", include: { domain: ["light"] } })).error.message).toBe(
      "extra keys not allowed @ data['include']['domain']. Got ['light']",
    );
  });
});
