import { afterEach, describe, expect, it } from "vitest";
import { demoHouse, startSimulator } from "@ha-agent/ha-simulator";
import { createHaClient } from "../../src/ha/index.js";
import { silentLogger } from "../../src/shared/index.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function client(token?: (sim: Awaited<ReturnType<typeof startSimulator>>) => string) {
  const sim = await startSimulator({ house: demoHouse(), users: [{ id: "admin", name: "Admin", isAdmin: true, tokens: ["admin-token"] }, { id: "kid", name: "Kid", isAdmin: false, tokens: ["kid-token"] }] });
  cleanups.push(() => sim.close());
  const ha = createHaClient({ wsUrl: sim.wsUrl, apiUrl: sim.apiUrl, token: token ? token(sim) : "admin-token", logger: silentLogger });
  cleanups.push(() => ha.close());
  await ha.connect();
  return { sim, ha };
}

describe("voice-assistant exposure commands", () => {
  it("lists every registry entity with its explicit settings, and whether new entities are exposed", async () => {
    const { sim, ha } = await client();
    sim.home.exposure.expose("light.kitchen_ceiling", "conversation", false);
    const { exposed_entities } = await ha.listExposedEntities();
    expect(exposed_entities["light.kitchen_ceiling"]).toEqual({ conversation: false });
    expect(exposed_entities["light.kitchen_island_pendant"]).toEqual({});
    expect(await ha.getExposeNewEntities("conversation")).toEqual({ expose_new: true });
    expect(await ha.getExposeNewEntities("cloud.alexa")).toEqual({ expose_new: false });
  });

  it("refuses a user who is not an admin, as HA does", async () => {
    const { ha } = await client(() => "kid-token");
    await expect(ha.listExposedEntities()).rejects.toMatchObject({ code: "unauthorized" });
  });
});
