import { afterEach, describe, expect, it } from "vitest";
import { exposedView } from "../../../src/agent/index.js";
import { createHaClient } from "../../../src/ha/index.js";
import { createHomeIndex } from "../../../src/indexer/index.js";
import { silentLogger } from "../../../src/shared/index.js";
import { demoHouse, startSimulator } from "@ha-agent/ha-simulator";
import { ToolRegistry } from "../../../src/tools/registry.js";
import type { ToolCallContext } from "../../../src/tools/tool.js";
import type { ActuationCeiling } from "../../../src/tools/actions/actuation-policy.js";
import { createCallServiceTool } from "../../../src/tools/actions/call-service.js";
import { planAction } from "../../../src/tools/actions/action-plan.js";
import { targetsOfCall } from "../../../src/tools/actions/call-target.js";

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

const ctx = (actuation?: ToolCallContext["actuation"]): ToolCallContext => ({
  principal: { id: "u1", name: "Test", kind: "user", isAdmin: true },
  signal: new AbortController().signal,
  progress: async () => undefined,
  ...(actuation ? { actuation } : {}),
});

async function setup(ceiling: ActuationCeiling) {
  const sim = await startSimulator({ house: demoHouse() });
  stops.push(() => sim.close());
  const ha = createHaClient({ wsUrl: sim.wsUrl, apiUrl: sim.apiUrl, token: sim.users.tokenFor(), logger: silentLogger });
  stops.push(() => ha.close());
  const index = createHomeIndex({ ha, logger: silentLogger });
  stops.push(() => index.stop());
  await ha.connect();
  await index.start();
  const registry = new ToolRegistry();
  registry.register(createCallServiceTool({ ha, index, ceiling }));
  return { sim, registry, index };
}

const KITCHEN_LIGHTS = ["light.kitchen_ceiling", "light.kitchen_island_pendant", "light.kitchen_worktop_lights"];
const errorOf = (outcome: { ok: boolean; error?: { code: string; message: string } }) => (outcome.ok ? undefined : outcome.error);

describe("call_service", () => {
  it("is refused by default and nothing reaches Home Assistant", async () => {
    const { sim, registry } = await setup({ allow: false, allowlist: [] });
    const before = sim.home.getState("light.kitchen_ceiling")?.state;
    const outcome = await registry.call("call_service", { domain: "light", service: "toggle", entity_id: "light.kitchen_ceiling" }, ctx());
    expect(outcome).toMatchObject({ ok: false, error: { code: "actuation_disabled", message: expect.stringContaining("allow_actuation") } });
    expect(sim.home.getState("light.kitchen_ceiling")?.state).toBe(before);
  });

  it("turns a light on when the options and the session allow it", async () => {
    const { sim, registry } = await setup({ allow: true, allowlist: ["light.*"] });
    await registry.call("call_service", { domain: "light", service: "turn_off", entity_id: "light.kitchen_ceiling" }, ctx());
    const outcome = await registry.call("call_service", { domain: "light", service: "turn_on", entity_id: ["light.kitchen_ceiling"] }, ctx({ allowActuation: true, allowlistedServices: ["light.turn_on"] }));
    expect(outcome).toMatchObject({ ok: true, value: { service: "light.turn_on", targets: ["light.kitchen_ceiling"] } });
    expect(sim.home.getState("light.kitchen_ceiling")?.state).toBe("on");
  });

  it("refuses a service outside the allowlist and an unknown entity, as values", async () => {
    const { registry } = await setup({ allow: true, allowlist: ["light.*"] });
    expect(await registry.call("call_service", { domain: "lock", service: "unlock", entity_id: "lock.front_door" }, ctx())).toMatchObject({ ok: false, error: { code: "service_not_allowed" } });
    expect(await registry.call("call_service", { domain: "light", service: "turn_on", entity_id: "light.nowhere" }, ctx())).toMatchObject({ ok: false, error: { code: "unknown_entity" } });
    expect(await registry.call("call_service", { domain: "Light!", service: "turn_on" }, ctx())).toMatchObject({ ok: false, error: { code: "invalid_argument" } });
  });

  it("acts on Home Assistant's target and lists the entities it acted on", async () => {
    const { sim, registry } = await setup({ allow: true, allowlist: [] });
    for (const id of KITCHEN_LIGHTS) expect(sim.home.getState(id)).toBeDefined();
    await registry.call("call_service", { domain: "light", service: "turn_off", entity_id: KITCHEN_LIGHTS }, ctx());
    const outcome = await registry.call("call_service", { domain: "light", service: "turn_on", target: { area_id: "kitchen" } }, ctx());
    expect(outcome).toMatchObject({ ok: true, value: { service: "light.turn_on", targets: KITCHEN_LIGHTS } });
    for (const id of KITCHEN_LIGHTS) expect(sim.home.getState(id)?.state).toBe("on");
  });

  it("joins a top-level entity_id with the target", async () => {
    const { registry } = await setup({ allow: true, allowlist: [] });
    const outcome = await registry.call("call_service", { domain: "light", service: "turn_on", entity_id: "light.hallway_ceiling", target: { area_id: ["kitchen"], entity_id: "light.kitchen_ceiling" } }, ctx());
    expect(outcome).toMatchObject({ ok: true, value: { targets: ["light.kitchen_ceiling", "light.hallway_ceiling", "light.kitchen_island_pendant", "light.kitchen_worktop_lights"] } });
  });

  it("refuses a target that reaches nothing, saying why, instead of succeeding on no entity", async () => {
    const { registry } = await setup({ allow: true, allowlist: [] });
    const call = (args: Record<string, unknown>) => registry.call("call_service", { domain: "light", service: "turn_on", ...args }, ctx());
    expect(errorOf(await call({ target: { area_id: "attic" } }))).toMatchObject({ code: "unknown_target", message: expect.stringContaining('area "attic"') });
    expect(errorOf(await call({ target: { area_id: "garage" } }))).toMatchObject({ code: "empty_target", message: expect.stringContaining("light.turn_on") });
    expect(errorOf(await call({ target: { entity_id: "switch.dryer" } }))).toMatchObject({ code: "wrong_domain", message: expect.stringContaining("switch.dryer") });
    expect(errorOf(await call({ target: {} }))).toMatchObject({ code: "invalid_argument", message: expect.stringContaining("entity_id, device_id, area_id, floor_id, label_id") });
  });

  it("refuses unknown keys rather than dropping them, and targets hidden in service_data", async () => {
    const { registry } = await setup({ allow: true, allowlist: [] });
    const call = (args: Record<string, unknown>) => registry.call("call_service", { domain: "light", service: "turn_on", ...args }, ctx());
    expect(errorOf(await call({ targets: { area_id: "kitchen" } }))).toMatchObject({ code: "invalid_argument", message: expect.stringMatching(/"targets".*target, entity_id/) });
    expect(errorOf(await call({ target: { entity: "light.kitchen_ceiling" } }))).toMatchObject({ code: "invalid_argument", message: expect.stringMatching(/target: unknown key "entity".*entity_id/) });
    expect(errorOf(await call({ service_data: { area_id: "kitchen" } }))).toMatchObject({ code: "invalid_argument", message: expect.stringContaining("service_data") });
  });

  it("bounds how many entities one call may touch, and nothing reaches Home Assistant past it", async () => {
    const { sim, registry } = await setup({ allow: true, allowlist: [] });
    await registry.call("call_service", { domain: "light", service: "turn_on", entity_id: "light.kitchen_ceiling" }, ctx());
    const outcome = await registry.call("call_service", { domain: "homeassistant", service: "turn_off", target: { floor_id: "ground_floor" } }, ctx());
    expect(errorOf(outcome)).toMatchObject({ code: "too_many_targets", message: expect.stringContaining("at most 50") });
    expect(sim.home.getState("light.kitchen_ceiling")?.state).toBe("on");
  });

  it("reads back a call's targets the way it resolved them, for an outcome a restart made unknown", async () => {
    const { index } = await setup({ allow: true, allowlist: [] });
    expect(targetsOfCall(index, { domain: "light", service: "turn_on", target: { area_id: "kitchen" } })).toEqual(KITCHEN_LIGHTS);
    expect(targetsOfCall(index, { domain: "light", service: "turn_on", entity_id: "light.hallway_ceiling" })).toEqual(["light.hallway_ceiling"]);
    expect(targetsOfCall(index, { domain: "light", service: "turn_on" })).toEqual([]);
  });

  it("reaches through a target only the entities the caller may see", async () => {
    const { index } = await setup({ allow: true, allowlist: [] });
    const registry = new ToolRegistry();
    const view = exposedView(index, (e) => e.entityId !== "light.kitchen_ceiling");
    registry.register(createCallServiceTool({ ha: {} as never, index: view, ceiling: { allow: true, allowlist: [] } }));
    expect(targetsOfCall(view, { domain: "light", service: "turn_on", target: { area_id: "kitchen" } })).toEqual(KITCHEN_LIGHTS.slice(1));
    expect(errorOf(await registry.call("call_service", { domain: "light", service: "turn_on", target: { entity_id: "light.kitchen_ceiling" } }, ctx()))).toMatchObject({ code: "unknown_entity" });
  });

  it("takes Home Assistant's own forms: action or service as domain.service, with target and data", async () => {
    const { sim, registry } = await setup({ allow: true, allowlist: [] });
    const on = await registry.call("call_service", { action: "light.turn_on", target: { entity_id: "light.kitchen_ceiling" }, data: { brightness_pct: 40 } }, ctx());
    expect(on).toMatchObject({ ok: true, value: { service: "light.turn_on", targets: ["light.kitchen_ceiling"] } });
    expect(sim.home.getState("light.kitchen_ceiling")).toMatchObject({ state: "on", attributes: { brightness: 102 } });
    const off = await registry.call("call_service", { service: "light.turn_off", target: { area_id: "kitchen" } }, ctx());
    expect(off).toMatchObject({ ok: true, value: { service: "light.turn_off", targets: KITCHEN_LIGHTS } });
    for (const id of KITCHEN_LIGHTS) expect(sim.home.getState(id)?.state).toBe("off");
    expect(await registry.call("call_service", { domain: "light", service: "light.turn_on", entity_id: "light.kitchen_ceiling" }, ctx())).toMatchObject({ ok: true });
  });

  it("shows the accepted forms when the service is named in none of them, never a domain as the example of a service", async () => {
    const { registry } = await setup({ allow: true, allowlist: [] });
    const call = (args: Record<string, unknown>) => registry.call("call_service", args, ctx());
    const forms = /\{"action": "light\.turn_off"\}.*\{"service": "light\.turn_off"\}.*\{"domain": "light", "service": "turn_off"\}/;
    for (const args of [{ service: "turn_off", entity_id: "light.kitchen_ceiling" }, { entity_id: "light.kitchen_ceiling" }, { action: "turn_off" }, { action: "light.turn_off", domain: "light" }, { service: "Light.Turn_Off" }]) {
      const error = errorOf(await call(args));
      expect(error, JSON.stringify(args)).toMatchObject({ code: "invalid_argument", message: expect.stringMatching(forms) });
      expect(error?.message).not.toMatch(/service.*such as light\b/);
    }
    expect(errorOf(await call({ service: "switch.turn_off", domain: "light" }))).toMatchObject({ code: "invalid_argument", message: expect.stringContaining("another domain") });
    expect(errorOf(await call({ action: "light.turn_on", data: { brightness_pct: 1 }, service_data: { brightness_pct: 2 } }))).toMatchObject({ code: "invalid_argument", message: expect.stringContaining("once") });
  });

  it("asks a person about the same exact call, whichever form the agent wrote it in", async () => {
    const { index } = await setup({ allow: true, allowlist: [] });
    const session = { allowActuation: false, allowlistedServices: [], approval: "ask" as const };
    const plan = planAction({ index, ceiling: { allow: true, allowlist: [] } }, { action: "light.turn_on", target: { area_id: "kitchen" }, data: { brightness_pct: 40 } }, session);
    expect(plan).toMatchObject({ kind: "ask", call: { domain: "light", service: "turn_on", targets: KITCHEN_LIGHTS, data: { brightness_pct: 40 } } });
    expect(targetsOfCall(index, { service: "light.turn_on", target: { area_id: "kitchen" } })).toEqual(KITCHEN_LIGHTS);
  });
});
