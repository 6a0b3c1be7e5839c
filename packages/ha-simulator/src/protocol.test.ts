import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { EntitiesMessage, HassState } from "./common/index.js";
import { demoHouse } from "./demo/index.js";
import { startSimulator, type Simulator } from "./index.js";
import { RawClient } from "../test/support/raw-client.js";
import { applyEntitiesMessage, comparable } from "../test/support/entities-reducer.js";

let sim: Simulator;
let clients: RawClient[] = [];

async function authed(): Promise<RawClient> {
  const c = await RawClient.authed(sim.wsUrl, sim.users.tokenFor());
  clients.push(c);
  return c;
}

beforeEach(async () => {
  sim = await startSimulator({ house: demoHouse(), haVersion: "2026.11.1", authTimeoutMs: 300 });
});

afterEach(async () => {
  for (const c of clients) c.close();
  clients = [];
  await sim.close();
});

describe("auth phase", () => {
  it("announces the version, accepts a valid token and rejects a wrong one with auth_invalid and a close", async () => {
    const good = await RawClient.connect(sim.wsUrl);
    clients.push(good);
    expect(await good.next()).toEqual({ type: "auth_required", ha_version: "2026.11.1" });
    good.send({ type: "auth", access_token: sim.users.tokenFor() });
    expect(await good.next()).toEqual({ type: "auth_ok", ha_version: "2026.11.1" });

    const bad = await RawClient.connect(sim.wsUrl);
    clients.push(bad);
    await bad.next();
    bad.send({ type: "auth", access_token: "wrong" });
    expect(await bad.next()).toMatchObject({ type: "auth_invalid", message: expect.any(String) });
    await bad.closed;
  });

  it("answers a command sent before auth with auth_invalid", async () => {
    const c = await RawClient.connect(sim.wsUrl);
    clients.push(c);
    await c.next();
    c.send({ id: 1, type: "get_states" });
    expect((await c.next()).type).toBe("auth_invalid");
    await c.closed;
  });

  it("closes a connection that does not authenticate within authTimeoutMs", async () => {
    const c = await RawClient.connect(sim.wsUrl);
    clients.push(c);
    await c.next();
    await c.closed;
    expect(sim.stats().connections).toBe(0);
  });

  it("refuses every token while refuseAuth is on", async () => {
    sim.faults.refuseAuth(true);
    await expect(RawClient.authed(sim.wsUrl, sim.users.tokenFor())).rejects.toThrow(/auth_invalid/);
    sim.faults.refuseAuth(false);
    await authed();
  });
});

describe("command phase", () => {
  it("enforces increasing ids, the message format and known commands", async () => {
    const c = await authed();
    c.send({ id: 5, type: "ping" });
    expect(await c.next()).toEqual({ id: 5, type: "pong" });
    c.send({ id: 5, type: "ping" });
    expect(await c.next()).toMatchObject({ id: 5, type: "result", success: false, error: { code: "id_reuse" } });
    c.send({ id: 4, type: "get_states" });
    expect((await c.next()).error.code).toBe("id_reuse");
    c.send({ id: -3, type: "get_states" });
    expect(await c.next()).toMatchObject({ id: -3, error: { code: "id_reuse" } });
    c.send({ id: 0, type: "get_states" });
    expect(await c.next()).toMatchObject({ id: 0, error: { code: "invalid_format" } });
    c.send({ type: "get_states" });
    expect(await c.next()).toMatchObject({ id: null, success: false, error: { code: "invalid_format" } });
    c.send({ id: 7 });
    expect(await c.next()).toMatchObject({ id: 7, success: false, error: { code: "invalid_format" } });
    c.send("42");
    expect((await c.next()).error.code).toBe("invalid_format");
    c.send({ id: 8, type: "no_such_command" });
    expect(await c.next()).toMatchObject({ id: 8, success: false, error: { code: "unknown_command", message: "Unknown command." } });
    c.send({ id: 9, type: "config/entity_registry/get_entries" });
    expect((await c.next()).error).toMatchObject({ code: "invalid_format", message: expect.stringContaining("entity_ids") });
    c.send({ id: 10, type: "ping" });
    expect(await c.next()).toEqual({ id: 10, type: "pong" });
  });

  it("coalesces messages queued in one tick into a JSON array frame once the client asks for it", async () => {
    const c = await authed();
    c.send([{ id: 1, type: "ping" }, { id: 2, type: "ping" }]);
    await c.next();
    await c.next();
    expect(c.frames.at(-1)).toBe('{"id":2,"type":"pong"}');
    expect(await c.command({ id: 3, type: "supported_features", features: { coalesce_messages: 1 } })).toMatchObject({ success: true });
    c.send([{ id: 4, type: "ping" }, { id: 5, type: "ping" }]);
    expect(await c.next()).toEqual({ id: 4, type: "pong" });
    expect(await c.next()).toEqual({ id: 5, type: "pong" });
    expect(JSON.parse(c.frames.at(-1)!)).toEqual([
      { id: 4, type: "pong" },
      { id: 5, type: "pong" },
    ]);
  });

  it("returns states, config and the current user", async () => {
    const c = await authed();
    const states = await c.command({ id: 1, type: "get_states" });
    expect(states.result).toHaveLength(sim.home.states().length);
    const kitchen = states.result.find((s: HassState) => s.entity_id === "sensor.kitchen_temperature");
    expect(kitchen).toMatchObject({ attributes: { unit_of_measurement: "°C", device_class: "temperature" } });
    expect(kitchen.last_changed).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00$/);
    const config = (await c.command({ id: 2, type: "get_config" })).result;
    expect(config).toMatchObject({ version: "2026.11.1", state: "RUNNING", location_name: "Linden House", unit_system: { temperature: "°C" } });
    expect(config.components).toContain("light");
    const user = (await c.command({ id: 3, type: "auth/current_user" })).result;
    expect(user).toMatchObject({ is_admin: true, name: expect.any(String), id: expect.any(String) });
  });
});

describe("subscribe_entities", () => {
  it("sends a compressed snapshot, then diffs that rebuild exactly the states get_states returns", async () => {
    const c = await authed();
    const states = new Map<string, HassState>();
    c.send({ id: 1, type: "subscribe_entities" });
    expect(await c.next()).toMatchObject({ id: 1, type: "result", success: true });
    const snapshot = await c.next();
    expect(snapshot).toMatchObject({ id: 1, type: "event" });
    const lamp = snapshot.event.a["light.living_room_floor_lamp"];
    expect(lamp).toMatchObject({ s: expect.any(String), a: expect.any(Object), c: expect.any(String), lc: expect.any(Number) });
    expect(lamp.lu).toBeUndefined();
    applyEntitiesMessage(states, snapshot.event as EntitiesMessage);

    const home = sim.home;
    home.setState("sensor.kitchen_temperature", "23.4");
    const attrs = { ...home.getState("light.kitchen_ceiling")!.attributes };
    delete attrs.color_mode;
    home.setState("light.kitchen_ceiling", home.getState("light.kitchen_ceiling")!.state, { ...attrs, brightness: 12, extra: [1, 2] });
    home.removeEntity("switch.kitchen_dishwasher");
    home.addEntity({ entity_id: "sensor.new_probe", state: "1", attributes: { friendly_name: "New Probe" } });
    home.setState("sensor.kitchen_temperature", "23.4", { ...home.getState("sensor.kitchen_temperature")!.attributes, icon: "mdi:x" });

    const kinds: string[] = [];
    while (kinds.length < 5) {
      const m = await c.until((x) => x.id === 1 && x.type === "event");
      kinds.push(Object.keys(m.event).join(""));
      applyEntitiesMessage(states, m.event as EntitiesMessage);
    }
    expect(kinds).toEqual(["c", "c", "r", "a", "c"]);

    const truth = (await c.command({ id: 2, type: "get_states" })).result as HassState[];
    expect([...states.values()].map(comparable).sort(byId)).toEqual(truth.map(comparable).sort(byId));
  });

  it("moves lc only when the state string changes and sends only changed attributes", async () => {
    const c = await authed();
    c.send({ id: 1, type: "subscribe_entities", entity_ids: ["sensor.kitchen_humidity"] });
    await c.next();
    const snap = await c.next();
    expect(Object.keys(snap.event.a)).toEqual(["sensor.kitchen_humidity"]);
    const before = sim.home.getState("sensor.kitchen_humidity")!;
    sim.home.setState("sensor.kitchen_humidity", before.state, { ...before.attributes, note: "x" });
    const diff = (await c.next()).event.c["sensor.kitchen_humidity"];
    expect(Object.keys(diff["+"]).sort()).toEqual(["a", "c", "lu"]);
    expect(diff["+"].a).toEqual({ note: "x" });
    sim.home.setState("sensor.kitchen_temperature", "30");
    sim.home.setState("sensor.kitchen_humidity", "99");
    const diff2 = (await c.next()).event.c["sensor.kitchen_humidity"];
    expect(diff2["+"].s).toBe("99");
    expect(diff2["+"].lc).toBeTypeOf("number");
    expect(diff2["+"].lu).toBeUndefined();
  });
});

describe("registries", () => {
  it("lists the five registries and extended entries, and fires entity_registry_updated", async () => {
    const c = await authed();
    const entities = (await c.command({ id: 1, type: "config/entity_registry/list" })).result;
    const lamp = entities.find((e: { entity_id: string }) => e.entity_id === "light.kitchen_ceiling");
    expect(lamp).toMatchObject({ platform: "hue", has_entity_name: true, device_id: expect.any(String) });
    expect(lamp).not.toHaveProperty("aliases");
    expect(entities.some((e: { disabled_by: string | null }) => e.disabled_by !== null)).toBe(true);
    const devices = (await c.command({ id: 2, type: "config/device_registry/list" })).result;
    expect(devices.length).toBeGreaterThanOrEqual(50);
    const areas = (await c.command({ id: 3, type: "config/area_registry/list" })).result;
    expect(areas.find((a: { area_id: string }) => a.area_id === "living_room").aliases).toContain("lounge");
    const floors = (await c.command({ id: 4, type: "config/floor_registry/list" })).result;
    expect(floors.find((f: { floor_id: string }) => f.floor_id === "first_floor").aliases).toContain("upstairs");
    const labels = (await c.command({ id: 5, type: "config/label_registry/list" })).result;
    expect(labels.map((l: { label_id: string }) => l.label_id)).toEqual(expect.arrayContaining(["security", "energy"]));
    const extended = (await c.command({ id: 6, type: "config/entity_registry/get_entries", entity_ids: ["light.kitchen_ceiling", "zone.home"] })).result;
    expect(extended["light.kitchen_ceiling"]).toMatchObject({ aliases: [], capabilities: { supported_color_modes: ["color_temp"] } });
    expect(extended["zone.home"]).toBeNull();
    const display = (await c.command({ id: 7, type: "config/entity_registry/list_for_display" })).result;
    expect(display.entities.find((e: { ei: string }) => e.ei === "light.kitchen_ceiling")).toMatchObject({ pl: "hue", en: null, di: expect.any(String) });
    expect(display.entities.find((e: { ei: string }) => e.ei === "sensor.kitchen_temperature")).toMatchObject({ en: "Temperature" });
    expect(display.entities.some((e: { ei: string }) => e.ei === "sensor.kitchen_rssi")).toBe(false);

    await c.command({ id: 8, type: "subscribe_events", event_type: "entity_registry_updated" });
    sim.home.updateEntityRegistry("light.kitchen_ceiling", { name: "Big Light" });
    expect((await c.next()).event.data).toEqual({ action: "update", entity_id: "light.kitchen_ceiling", changes: { name: null } });
    sim.home.removeEntity("light.kitchen_ceiling");
    expect((await c.next()).event).toMatchObject({ event_type: "entity_registry_updated", data: { action: "remove", entity_id: "light.kitchen_ceiling" } });
  });
});

describe("REST", () => {
  it("answers /api/ and /api/states for an accepted token and 401 otherwise", async () => {
    const token = sim.users.tokenFor();
    const ok = await fetch(`${sim.apiUrl}/`, { headers: { Authorization: `Bearer ${token}` } });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ message: "API running." });
    expect((await fetch(`${sim.apiUrl}/`, { headers: { Authorization: "Bearer nope" } })).status).toBe(401);
    expect((await fetch(`${sim.apiUrl}/states`)).status).toBe(401);
    const states = await (await fetch(`${sim.apiUrl}/states`, { headers: { Authorization: `Bearer ${token}` } })).json();
    expect(states).toHaveLength(sim.home.states().length);
    const one = await fetch(`${sim.apiUrl}/states/light.kitchen_ceiling`, { headers: { Authorization: `Bearer ${token}` } });
    expect(((await one.json()) as HassState).entity_id).toBe("light.kitchen_ceiling");
    const log = await fetch(`${sim.apiUrl}/error_log`, { headers: { Authorization: `Bearer ${token}` } });
    expect(log.headers.get("content-type")).toContain("text/plain");
    expect(await log.text()).toContain("switch.garden_fountain_pump");
    const ws = await authed();
    await ws.command({ id: 1, type: "subscribe_events", event_type: "state_changed" });
    const events = await fetch(`${sim.apiUrl}/events`, { headers: { Authorization: `Bearer ${token}` } });
    expect(await events.json()).toEqual([{ event: "state_changed", listener_count: 1 }]);
    const auth = { Authorization: `Bearer ${token}`, "Content-Type": "application/json" };
    const called = await fetch(`${sim.apiUrl}/services/light/turn_on`, { method: "POST", headers: auth, body: JSON.stringify({ entity_id: "light.kitchen_ceiling" }) });
    const changed = (await called.json()) as HassState[];
    expect(changed.map((s) => s.entity_id)).toEqual(["light.kitchen_ceiling"]);
    expect(changed[0]?.context.user_id).toEqual(expect.any(String));
    expect(sim.home.getState("light.kitchen_ceiling")?.state).toBe("on");
    expect((await fetch(`${sim.apiUrl}/services/light/explode`, { method: "POST", headers: auth, body: "{}" })).status).toBe(400);
    const rendered = await fetch(`${sim.apiUrl}/template`, { method: "POST", headers: auth, body: JSON.stringify({ template: "{{ states('light.kitchen_ceiling') }}" }) });
    expect(await rendered.text()).toBe("on");
    sim.users.revokeToken(token);
    expect((await fetch(`${sim.apiUrl}/`, { headers: { Authorization: `Bearer ${token}` } })).status).toBe(401);
  });
});

describe("faults", () => {
  it("dropAll cuts every socket", async () => {
    const a = await authed();
    const b = await authed();
    expect(sim.stats().connections).toBe(2);
    sim.faults.dropAll();
    await Promise.all([a.closed, b.closed]);
    expect(sim.stats().connections).toBe(0);
  });

  it("restart goes away, applies changes made while down and comes back on the same port with a new version", async () => {
    const a = await authed();
    const restarted = sim.faults.restart({
      downtimeMs: 50,
      haVersion: "2026.12.0",
      whileDown: (home) => {
        home.removeEntity("light.kitchen_ceiling");
        home.addEntity({ entity_id: "light.new_lamp", state: "on", attributes: { friendly_name: "New Lamp" } });
      },
    });
    await a.closed;
    await expect(RawClient.connect(sim.wsUrl)).rejects.toThrow();
    await restarted;
    const b = await authed();
    const ids = ((await b.command({ id: 1, type: "get_states" })).result as HassState[]).map((s) => s.entity_id);
    expect(ids).toContain("light.new_lamp");
    expect(ids).not.toContain("light.kitchen_ceiling");
    expect(sim.haVersion).toBe("2026.12.0");
  });
});

const byId = (a: { entity_id: string }, b: { entity_id: string }) => a.entity_id.localeCompare(b.entity_id);
