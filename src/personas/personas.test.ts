import { afterEach, describe, expect, it } from "vitest";
import { createHomeIndex } from "../indexer/index.js";
import { estimateTokens } from "../models/index.js";
// Test support of the indexer: a scripted HaClient and a small home.
import { createFakeHa, type FakeHa } from "../../test/support/indexer/fake-ha.js";
import { fixtureRegistries, fixtureStates } from "../../test/support/indexer/fixture-home.js";
import { manualClock, silentLogger, type Principal } from "../shared/index.js";
import { argumentsOf, builtInPersonas, definePersona, parsePersonaFile, PersonaRegistry, type PersonaContext } from "./index.js";
import { z } from "zod";

const NOW = Date.UTC(2026, 0, 10, 12, 0, 0);
const ADMIN: Principal = { id: "admin", name: "Admin", kind: "user", isAdmin: true };
const sec = (ms: number) => ms / 1000;
const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const s of stops.splice(0)) await s();
});

async function setup(): Promise<{ ha: FakeHa; ctx: PersonaContext; registry: PersonaRegistry }> {
  const ha = createFakeHa(fixtureRegistries());
  const clock = manualClock(NOW);
  const index = createHomeIndex({ ha, logger: silentLogger, clock });
  stops.push(() => index.stop());
  const starting = index.start();
  await new Promise((r) => setImmediate(r));
  ha.pushEntities({ a: fixtureStates() }, true);
  await starting;
  const registry = new PersonaRegistry();
  for (const p of builtInPersonas()) registry.register(p);
  return { ha, ctx: { index, ha, clock, logger: silentLogger, caller: ADMIN }, registry };
}

describe("personas", () => {
  it("lists the four built-ins with their arguments read from the schema", async () => {
    const { registry } = await setup();
    const list = registry.list().map((e) => ({ name: e.spec.name, args: argumentsOf(e.spec).map((a) => `${a.name}${a.required ? "!" : ""}:${a.kind}`) }));
    expect(list).toEqual([
      { name: "automation_helper", args: ["goal!:string", "max_tokens:string"] },
      { name: "energy_analyst", args: ["period!:string", "area:area", "max_tokens:string"] },
      { name: "home_guide", args: ["area:area", "floor:string", "max_tokens:string"] },
      { name: "troubleshooter", args: ["entity:entity", "device:device", "area:area", "max_tokens:string"] },
    ]);
  });

  it("primes the troubleshooter with the entity's state, its changes newest first, and related entities", async () => {
    const { ha, ctx, registry } = await setup();
    ha.historyResult = {
      "binary_sensor.hall_motion": [
        { s: "off", lu: sec(NOW - 5 * 3_600_000) },
        { s: "unavailable", lu: sec(NOW - 3 * 3_600_000) },
        { s: "on", lu: sec(NOW - 2 * 3_600_000) },
        { s: "off", lu: sec(NOW - 60_000) },
      ],
    };
    const out = await registry.resolve({ name: "troubleshooter", args: { entity: "binary_sensor.hall_motion" }, ctx });
    expect(out).toMatchObject({ name: "troubleshooter", version: "2", tools: expect.arrayContaining(["diagnose_entity", "automation_inspect", "trace"]) });
    expect(out.priming).toContain("- state: off");
    const changes = out.priming.split("recent changes")[1]!;
    expect(changes.indexOf("11:59 UTC: off")).toBeGreaterThan(-1);
    expect(changes.indexOf("11:59 UTC: off")).toBeLessThan(changes.indexOf("09:00 UTC: unavailable"));
    expect(out.priming).toContain("sensor.hall_motion_battery");
    expect(estimateTokens(out.priming)).toBeLessThanOrEqual(1_500);
  });

  it("counts the changes it lists, and writes every time in Home Assistant's time zone", async () => {
    const { ha, ctx, registry } = await setup();
    ha.historyResult = {
      "binary_sensor.hall_motion": [
        { s: "off", lu: sec(NOW - 20 * 3_600_000) },
        ...Array.from({ length: 6 }, (_, i) => ({ s: i % 2 ? "off" : "on", lu: sec(NOW - (6 - i) * 3_600_000) })),
      ],
    };
    const out = await registry.resolve({ name: "troubleshooter", args: { entity: "binary_sensor.hall_motion" }, ctx: { ...ctx, timeZone: async () => "Europe/Amsterdam" } });
    expect(out.priming).toContain("last 24 h: 6 changes");
    const listed = out.priming.split("recent changes, last 24 h, newest first")[1]!.split("\n## ")[0]!.split("\n").filter((l) => l.startsWith("- "));
    expect(listed).toHaveLength(6);
    // 12:00 UTC on 10 January is 13:00 in Amsterdam (CET).
    expect(listed[0]).toBe("- 12:00 CET: off");
    expect(out.priming).toContain("(as of 2026-01-10 13:00 CET)");
    expect(out.priming).not.toMatch(/UTC/);
  });

  it("keeps the priming within max_tokens and names what it left out with the tool to get it", async () => {
    const { ha, ctx, registry } = await setup();
    ha.historyResult = { "binary_sensor.hall_motion": Array.from({ length: 40 }, (_, i) => ({ s: i % 2 ? "on" : "off", lu: sec(NOW - (40 - i) * 600_000) })) };
    const out = await registry.resolve({ name: "troubleshooter", args: { entity: "binary_sensor.hall_motion", max_tokens: "200" }, ctx });
    expect(estimateTokens(out.priming)).toBeLessThanOrEqual(200);
    expect(out.omitted?.length).toBeGreaterThan(0);
    expect(out.priming).toMatch(/left out; use diagnose_entity with entity_id binary_sensor.hall_motion/);
  });

  it("refuses a bad argument naming it, and an entity the agent may not see", async () => {
    const { ctx, registry } = await setup();
    await expect(registry.resolve({ name: "troubleshooter", args: { entity: "light.x", max_tokens: "5" }, ctx })).rejects.toThrow(/max_tokens: at least 200/);
    await expect(registry.resolve({ name: "troubleshooter", args: { entity: "light.nope" }, ctx })).rejects.toMatchObject({ code: "not_found" });
    await expect(registry.resolve({ name: "troubleshooter", args: {}, ctx })).rejects.toMatchObject({ code: "invalid_argument" });
    await expect(registry.resolve({ name: "nobody", args: {}, ctx })).rejects.toMatchObject({ code: "unknown_persona" });
  });

  it("the home guide, energy analyst and automation helper prime from the index", async () => {
    const { ctx, registry } = await setup();
    const guide = await registry.resolve({ name: "home_guide", args: { floor: "First Floor" }, ctx });
    expect(guide.priming).toContain("First Floor / Bedroom");
    expect(guide.priming).toContain("light.bedroom_ceiling");
    expect(guide.priming).not.toContain("Kitchen");
    const energy = await registry.resolve({ name: "energy_analyst", args: { period: "today" }, ctx });
    expect(energy.systemPrompt).toContain('The period asked about: today; energy takes it as {"start":"today","period":"day"}');
    expect(energy.tools).toEqual(["energy", "statistics", "history", "state_query", "index_search"]);
    // Without an Energy dashboard, the priming says so and what to do.
    expect(energy.priming).toContain("Energy dashboard is not set up");
    await expect(registry.resolve({ name: "energy_analyst", args: { period: "the other day" }, ctx })).rejects.toThrow(/"the other day" is not a period this reads; use "this week", "last week"/);
    const helper = await registry.resolve({ name: "automation_helper", args: { goal: "turn on the kitchen spots at sunset" }, ctx });
    expect(helper.priming).toContain("light.kitchen_spots");
    expect(helper.priming).toContain("light.turn_on");
    expect(helper.tools).not.toContain("call_service");
    // It drafts, checks and saves: the save itself waits for a person's yes.
    expect(helper.tools).toEqual(expect.arrayContaining(["automation_check", "automation_save", "render_template"]));
    expect(helper.systemPrompt).toMatch(/automation_check.*automation_save only when the user asks/s);
  });

  it("a user entry may take a built-in's name only when it says it replaces it, and the built-in comes back when it goes", async () => {
    const { registry } = await setup();
    const mine = definePersona({ name: "troubleshooter", title: "Mine", description: "d", version: "u1", arguments: z.object({}), resolve: async () => ({ systemPrompt: "s", priming: "p", tools: [] }) });
    expect(() => registry.register(mine, { source: "/p/mine.yaml" })).toThrow(/replaces: troubleshooter/);
    registry.register(mine, { source: "/p/mine.yaml", replaces: "troubleshooter" });
    expect(registry.get("troubleshooter")?.title).toBe("Mine");
    registry.unregisterSource("/p/mine.yaml");
    expect(registry.get("troubleshooter")?.title).toBe("Troubleshooter");
  });

  it("a persona's priming shows the logs to an administrator, and to anyone else says they are left out", async () => {
    const { ha, ctx, registry } = await setup();
    ha.systemLogEntries = [
      { name: "homeassistant.components.hue.light", message: ["Hall light did not answer"], level: "ERROR", source: ["components/hue/light.py", 1], timestamp: (NOW - 60_000) / 1000, first_occurred: (NOW - 60_000) / 1000, count: 3, exception: "" },
    ];
    const parsed = parsePersonaFile("/p/errors.yaml", "title: Errors\ndescription: What the log says.\nsystem_prompt: Explain the errors.\npriming:\n  errors: true\ntools: [analyze_errors]\n");
    if (!parsed.ok) throw new Error("the persona file should parse");
    registry.register(parsed.spec, { source: "/p/errors.yaml" });
    const member = { ...ctx, caller: { id: "sam", name: "Sam", kind: "user" as const, isAdmin: false } };
    for (const name of ["errors", "troubleshooter"]) {
      const args = name === "errors" ? {} : { entity: "light.bedroom_ceiling" };
      const forAdmin = await registry.resolve({ name, args, ctx });
      expect(forAdmin.priming, name).toContain("Hall light did not answer");
      const forMember = await registry.resolve({ name, args, ctx: member });
      expect(forMember.priming, name).not.toContain("Hall light did not answer");
      expect(forMember.priming, name).toContain("administrators only");
    }
  });
});
