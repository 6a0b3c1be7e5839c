import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { demoHouse } from "./demo/index.js";
import { startSimulator, type Simulator } from "./index.js";
import { RawClient } from "../test/support/raw-client.js";

let sim: Simulator;
let c: RawClient;

beforeEach(async () => {
  sim = await startSimulator({
    house: demoHouse(),
    users: [
      { id: "admin1", name: "Alex", isAdmin: true, tokens: ["admin-token"] },
      { id: "kid1", name: "Noah", isAdmin: false, tokens: ["kid-token"] },
    ],
  });
  c = await RawClient.authed(sim.wsUrl, "admin-token");
});

afterEach(async () => {
  c.close();
  await sim.close();
});

describe("registry change events", () => {
  it("fires *_registry_updated for areas, floors, labels and devices", async () => {
    await c.command({ id: 1, type: "subscribe_events" });
    const home = sim.home;
    home.updateArea("kitchen", { aliases: ["cooking area", "galley"] });
    home.upsertFloor({ floor_id: "attic", name: "Attic", level: 2 });
    home.updateLabel("energy", { color: "green" });
    home.removeLabel("kids");
    const deviceId = (await c.command({ id: 2, type: "config/device_registry/list" })).result[0].id as string;
    home.updateDevice(deviceId, { name_by_user: "Coordinator" });
    const events = [];
    for (let i = 0; i < 5; i++) events.push((await c.until((m) => m.type === "event")).event);
    expect(events.map((e) => [e.event_type, e.data])).toEqual([
      ["area_registry_updated", { action: "update", area_id: "kitchen" }],
      ["floor_registry_updated", { action: "create", floor_id: "attic" }],
      ["label_registry_updated", { action: "update", label_id: "energy" }],
      ["label_registry_updated", { action: "remove", label_id: "kids" }],
      ["device_registry_updated", { action: "update", device_id: deviceId, changes: { name_by_user: null } }],
    ]);
    const areas = (await c.command({ id: 3, type: "config/area_registry/list" })).result;
    expect(areas.find((a: { area_id: string }) => a.area_id === "kitchen").aliases).toEqual(["cooking area", "galley"]);
  });

  it("disabling an entity removes its state and enabling brings it back", async () => {
    c.send({ id: 1, type: "subscribe_entities", entity_ids: ["light.kitchen_ceiling"] });
    await c.next();
    await c.next();
    sim.home.updateEntityRegistry("light.kitchen_ceiling", { disabled_by: "user" });
    expect((await c.next()).event).toEqual({ r: ["light.kitchen_ceiling"] });
    expect(sim.home.getState("light.kitchen_ceiling")).toBeUndefined();
    sim.home.updateEntityRegistry("light.kitchen_ceiling", { disabled_by: null });
    expect(Object.keys((await c.next()).event.a)).toEqual(["light.kitchen_ceiling"]);
  });

  it("renames an entity id: the old one disappears and the new one appears", async () => {
    sim.home.updateEntityRegistry("light.kitchen_ceiling", { entity_id: "light.kitchen_main" });
    expect(sim.home.getState("light.kitchen_ceiling")).toBeUndefined();
    expect(sim.home.getState("light.kitchen_main")?.attributes.friendly_name).toBe("Kitchen Ceiling");
    const entries = (await c.command({ id: 1, type: "config/entity_registry/get_entries", entity_ids: ["light.kitchen_main"] })).result;
    expect(entries["light.kitchen_main"].platform).toBe("hue");
  });
});

describe("users and subscriptions", () => {
  it("reports the token's own user and keeps admin-only commands from other users", async () => {
    const kid = await RawClient.authed(sim.wsUrl, "kid-token");
    expect((await kid.command({ id: 1, type: "auth/current_user" })).result).toMatchObject({ id: "kid1", name: "Noah", is_admin: false, is_owner: false });
    expect((await kid.command({ id: 2, type: "system_log/list" })).error.code).toBe("unauthorized");
    expect((await kid.command({ id: 3, type: "subscribe_events" })).error.code).toBe("unauthorized");
    expect((await kid.command({ id: 4, type: "subscribe_events", event_type: "state_changed" })).success).toBe(true);
    expect((await c.command({ id: 1, type: "auth/current_user" })).result).toMatchObject({ id: "admin1", is_owner: true });
    kid.close();
  });

  it("lists the users with their groups for an administrator only", async () => {
    const kid = await RawClient.authed(sim.wsUrl, "kid-token");
    expect((await kid.command({ id: 1, type: "config/auth/list" })).error.code).toBe("unauthorized");
    const users = (await c.command({ id: 1, type: "config/auth/list" })).result as { id: string; name: string; group_ids: string[] }[];
    expect(users.find((u) => u.id === "admin1")?.group_ids).toEqual(["system-admin"]);
    expect(users.find((u) => u.id === "kid1")).toMatchObject({ name: "Noah", group_ids: ["system-users"] });
    kid.close();
  });

  it("unsubscribes, and says not_found for an unknown subscription", async () => {
    await c.command({ id: 1, type: "subscribe_events", event_type: "state_changed" });
    expect((await c.command({ id: 2, type: "unsubscribe_events", subscription: 1 })).success).toBe(true);
    expect((await c.command({ id: 3, type: "unsubscribe_events", subscription: 1 })).error.code).toBe("not_found");
    sim.home.setState("sensor.kitchen_temperature", "1");
    c.send({ id: 4, type: "ping" });
    expect(await c.next()).toEqual({ id: 4, type: "pong" });
  });

  it("closes the connections of a revoked token", async () => {
    const other = await RawClient.authed(sim.wsUrl, "kid-token");
    sim.users.revokeToken("kid-token");
    await other.closed;
    await expect(RawClient.authed(sim.wsUrl, "kid-token")).rejects.toThrow(/auth_invalid/);
  });
});
