import { afterEach, describe, expect, it } from "vitest";
import { createHaClient } from "../../ha/index.js";
import { createHomeIndex } from "../../indexer/index.js";
import { silentLogger } from "../../shared/index.js";
import { demoHouse, startSimulator } from "../../simulator/index.js";
import { ToolRegistry } from "../registry.js";
import type { ToolCallContext } from "../tool.js";
import type { ActuationCeiling } from "./actuation-policy.js";
import { createCallServiceTool } from "./call-service.js";

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
  return { sim, registry };
}

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
});
