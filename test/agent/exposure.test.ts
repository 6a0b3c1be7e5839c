import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createHaClient } from "../../src/ha/index.js";
import { createHomeIndex } from "../../src/indexer/index.js";
import { silentLogger, systemClock } from "../../src/shared/index.js";
import { demoHouse, startSimulator } from "@ha-agent/ha-simulator";
import { openStore } from "../../src/store/index.js";
import { scriptedModel } from "../support/scripted-model.js";
import { createAgent } from "../../src/agent/create-agent.js";
import { isExposedToAssist } from "../../src/agent/exposure.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const entity = (entityId: string, over: Partial<{ deviceClass: string | null; entityCategory: "config" | "diagnostic" | null; hidden: boolean }> = {}) => ({
  entityId,
  domain: entityId.split(".")[0]!,
  deviceClass: null,
  entityCategory: null,
  hidden: false,
  ...over,
});

describe("Assist exposure", () => {
  it("follows HA: explicit settings first, then the defaults when new entities are exposed", () => {
    const exposure = { explicit: new Map([["light.hidden_lamp", false], ["sensor.power", true]]), exposeNew: true };
    expect(isExposedToAssist(exposure, entity("light.kitchen"))).toBe(true);
    expect(isExposedToAssist(exposure, entity("light.hidden_lamp"))).toBe(false);
    expect(isExposedToAssist(exposure, entity("sensor.power"))).toBe(true);
    expect(isExposedToAssist(exposure, entity("sensor.temp", { deviceClass: "temperature" }))).toBe(true);
    expect(isExposedToAssist(exposure, entity("sensor.energy", { deviceClass: "energy" }))).toBe(false);
    expect(isExposedToAssist(exposure, entity("binary_sensor.door", { deviceClass: "door" }))).toBe(true);
    expect(isExposedToAssist(exposure, entity("light.strip_config", { entityCategory: "config" }))).toBe(false);
    expect(isExposedToAssist(exposure, entity("light.porch", { hidden: true }))).toBe(false);
    expect(isExposedToAssist(exposure, entity("automation.morning"))).toBe(false);
    expect(isExposedToAssist({ ...exposure, exposeNew: false }, entity("light.kitchen"))).toBe(false);
  });

  it("keeps an entity the user did not expose out of the agent's tools and its first prompt", async () => {
    const sim = await startSimulator({ house: demoHouse() });
    cleanups.push(() => sim.close());
    sim.home.exposure.expose("light.kitchen_worktop_lights", "conversation", false);
    const ha = createHaClient({ wsUrl: sim.wsUrl, apiUrl: sim.apiUrl, token: sim.users.tokenFor(), logger: silentLogger });
    cleanups.push(() => ha.close());
    const index = createHomeIndex({ ha, logger: silentLogger });
    cleanups.push(() => index.stop());
    await ha.connect();
    await index.start();
    const dir = await mkdtemp(join(tmpdir(), "exposure-"));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const store = await openStore({ dataDir: dir });
    cleanups.push(() => store.close());

    const model = scriptedModel([{ text: "", toolCalls: [{ name: "state_query", args: { area: "kitchen", domain: "light" } }, { name: "index_search", args: { query: "kitchen worktop" } }] }, { text: "done" }]);
    const { runtime, exposure } = createAgent({ store, index, ha, models: { get: async () => model, check: () => {}, missing: () => "" }, clock: systemClock, logger: silentLogger, ceiling: { allow: false, allowlist: [] } });
    const principal = { id: "u", name: "U", kind: "user" as const, isAdmin: true };
    const session = await store.sessions.create({ owner: principal.id });
    const { continuation } = await runtime.send(principal, { sessionId: session.id, message: "Which lights are on in the kitchen?" });
    expect((await runtime.wait(principal, continuation.id, 5_000)).status).toBe("completed");

    expect(exposure.status).toBe("follows_assist");
    const everything = JSON.stringify(model.requests);
    expect(everything).toContain("light.kitchen_ceiling");
    expect(everything).not.toContain("light.kitchen_worktop_lights");
    // Automations are not exposed to Assist by default either.
    expect(everything).not.toContain("automation.");
  });
});
