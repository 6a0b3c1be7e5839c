import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { silentLogger } from "../../src/shared/index.js";
import { demoHouse, startSimulator, type Simulator } from "@ha-agent/ha-simulator";
import { createHaClient, type HaClientOptions } from "../../src/ha/client.js";
import { HaAuthError, HaCommandError, HaConnectionError, HaNotConnectedError } from "../../src/ha/errors.js";
import { createEntityMirror } from "../support/ha/entity-mirror.js";
import { recordStatuses, waitUntil } from "../support/ha/wait.js";
import type { HaClient, HassState } from "../../src/ha/types.js";

let sim: Simulator;
const clients: HaClient[] = [];

beforeEach(async () => {
  sim = await startSimulator({ house: demoHouse(), authTimeoutMs: 2_000 });
});

afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  await sim.close();
});

function client(overrides: Partial<HaClientOptions> = {}) {
  const c = createHaClient({
    wsUrl: sim.wsUrl,
    apiUrl: sim.apiUrl,
    token: sim.users.tokenFor(),
    logger: silentLogger,
    pingIntervalMs: 50,
    pongTimeoutMs: 500,
    handshakeTimeoutMs: 1_000,
    backoff: { initialMs: 20, maxMs: 200 },
    ...overrides,
  });
  clients.push(c);
  return c;
}

/** What a consumer rebuilt from subscribe_entities must equal: HA's own states. */
function truth(states: HassState[]) {
  return states
    .map((s) => ({
      entity_id: s.entity_id,
      state: s.state,
      attributes: s.attributes,
      last_changed: new Date(Date.parse(s.last_changed)).toISOString(),
      last_updated: new Date(Date.parse(s.last_updated)).toISOString(),
      context_id: s.context.id,
    }))
    .sort((x, y) => x.entity_id.localeCompare(y.entity_id));
}

describe("HA client against the simulator", () => {
  it("connects and runs the typed commands", async () => {
    const c = client();
    await c.connect();
    expect(c.status).toBe("connected");
    expect(c.haVersion).toBe(sim.haVersion);

    expect((await c.getStates()).length).toBe(sim.home.states().length);
    expect((await c.getConfig()).version).toBe(sim.haVersion);
    expect((await c.currentUser()).is_admin).toBe(true);
    expect(Object.keys(await c.getServices())).toContain("light");

    const entities = await c.listEntityRegistry();
    expect(entities.some((e) => e.entity_id === "light.kitchen_ceiling")).toBe(true);
    expect((await c.listDeviceRegistry()).length).toBeGreaterThan(0);
    expect((await c.listAreaRegistry()).some((a) => a.area_id === "kitchen")).toBe(true);
    expect((await c.listFloorRegistry()).length).toBeGreaterThan(0);
    expect((await c.listLabelRegistry()).length).toBeGreaterThan(0);
  });

  it("callService changes the state in HA and returns the context", async () => {
    const c = client();
    await c.connect();
    await c.callService({ domain: "light", service: "turn_off", target: { entity_id: "light.kitchen_ceiling" } });
    const result = await c.callService({
      domain: "light",
      service: "turn_on",
      serviceData: { brightness: 77 },
      target: { entity_id: "light.kitchen_ceiling" },
    });
    expect(typeof result.context.id).toBe("string");
    const state = sim.home.getState("light.kitchen_ceiling");
    expect(state?.state).toBe("on");
    expect(state?.attributes.brightness).toBe(77);
  });

  it("reads history, logbook, statistics and the system log with camelCase arguments", async () => {
    const c = client();
    await c.connect();
    const startTime = new Date(Date.now() - 24 * 3_600_000);
    const history = await c.history({ startTime, entityIds: ["sensor.kitchen_temperature"], minimalResponse: true, noAttributes: true });
    const rows = history["sensor.kitchen_temperature"] ?? [];
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.at(-1)?.s).toBe(sim.home.getState("sensor.kitchen_temperature")?.state);
    expect(rows.every((r) => r.a === undefined)).toBe(true);

    const logbook = await c.logbook({ startTime, entityIds: ["switch.garden_fountain_pump"] });
    expect(logbook.length).toBeGreaterThan(0);
    expect(logbook.every((e) => e.entity_id === "switch.garden_fountain_pump")).toBe(true);

    const stats = await c.statistics({ startTime, statisticIds: ["sensor.kitchen_temperature"], period: "hour", types: ["max"] });
    const hours = stats["sensor.kitchen_temperature"] ?? [];
    expect(hours.length).toBeGreaterThan(20);
    expect(Object.keys(hours[0] ?? {}).sort()).toEqual(["end", "max", "start"]);

    const log = await c.systemLog();
    expect(log.some((e) => e.level === "ERROR")).toBe(true);
  });

  it("renderTemplate returns HA's first rendering and reports template errors as HaCommandError", async () => {
    const c = client();
    await c.connect();
    const lock = sim.home.getState("lock.front_door")?.state;
    await expect(c.renderTemplate({ template: "Lock is {{ states('lock.front_door') }}" })).resolves.toEqual({ result: `Lock is ${String(lock)}`, warnings: [] });
    const err = await c.renderTemplate({ template: "{{ states('lock.front_door') | float }}" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HaCommandError);
    expect((err as HaCommandError).code).toBe("template_error");
  });

  it("an unknown service comes back as HaCommandError with HA's code", async () => {
    const c = client();
    await c.connect();
    const err = await c.callService({ domain: "light", service: "explode" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HaCommandError);
    expect((err as HaCommandError).code).toBe("not_found");
  });

  it("a refused token at start rejects connect() with HaAuthError and status auth_failed", async () => {
    sim.faults.refuseAuth(true);
    const c = client();
    await expect(c.connect()).rejects.toBeInstanceOf(HaAuthError);
    expect(c.status).toBe("auth_failed");
  });

  it("a wrong token is refused the same way", async () => {
    const c = client({ token: "definitely-not-valid" });
    const err = await c.connect().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HaAuthError);
    expect((err as Error).message).not.toContain("definitely-not-valid");
  });

  it("an unreachable HA rejects connect() with HaConnectionError", async () => {
    const wsUrl = sim.wsUrl;
    await sim.close();
    const c = client({ wsUrl });
    const err = await c.connect().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HaConnectionError);
    expect((err as Error).message).toContain(wsUrl);
  });

  it("REST works with the token and refuses a wrong one", async () => {
    const c = client();
    await expect(c.restGet<{ message: string }>("/")).resolves.toHaveProperty("message");
    const states = await c.restGet<HassState[]>("states");
    expect(states.length).toBe(sim.home.states().length);
    await expect(client({ token: "nope" }).restGet("/")).rejects.toBeInstanceOf(HaAuthError);
  });

  it("after dropAll: reconnecting → connected, onReady fires again, commands work again", async () => {
    const c = client();
    const statuses = recordStatuses(c);
    let ready = 0;
    c.onReady(() => ready++);
    await c.connect();
    sim.faults.dropAll();
    await waitUntil(() => ready === 2, "onReady after the reconnect");
    expect(statuses).toEqual(["connected", "reconnecting", "connected"]);
    expect((await c.getStates()).length).toBe(sim.home.states().length);
  });

  it("after a restart with changes while down, the snapshot rebuilds HA's states exactly", async () => {
    const c = client();
    await c.connect();
    const mirror = createEntityMirror();
    await c.subscribeEntities((message, snapshot) => mirror.apply(message, snapshot));
    await waitUntil(() => mirror.snapshots() === 1, "the first snapshot");
    expect(mirror.states()).toEqual(truth(sim.home.states()));

    sim.home.setState("sensor.kitchen_temperature", "23.4");
    await waitUntil(() => mirror.states().find((s) => s.entity_id === "sensor.kitchen_temperature")?.state === "23.4", "a live diff");

    const gone = "light.kitchen_ceiling";
    expect(mirror.has(gone)).toBe(true);
    await sim.faults.restart({
      downtimeMs: 150,
      haVersion: "2026.12.0",
      whileDown: (home) => {
        home.removeEntity(gone);
        home.addEntity({ entity_id: "sensor.added_while_down", state: "7", attributes: { unit_of_measurement: "W" } });
        home.setState("sensor.kitchen_temperature", "19.0");
      },
    });
    await waitUntil(() => mirror.snapshots() === 2, "the snapshot after the restart");
    await waitUntil(() => c.status === "connected", "connected");
    expect(mirror.has(gone)).toBe(false);
    expect(mirror.has("sensor.added_while_down")).toBe(true);
    expect(mirror.states()).toEqual(truth(sim.home.states()));
    expect(c.haVersion).toBe("2026.12.0");
  });

  it("a frozen (half-open) HA is detected by the ping timeout and reconnected after it thaws", async () => {
    const c = client();
    const statuses = recordStatuses(c);
    await c.connect();
    sim.faults.freeze(true);
    await waitUntil(() => c.status === "reconnecting", "the missing pong to force a reconnect");
    await expect(c.getStates()).rejects.toBeInstanceOf(HaNotConnectedError);
    sim.faults.freeze(false);
    await waitUntil(() => c.status === "connected", "the reconnect after the thaw");
    expect(statuses).toEqual(["connected", "reconnecting", "connected"]);
    expect((await c.getStates()).length).toBe(sim.home.states().length);
  });

  it("events keep flowing on a subscription after a reconnect", async () => {
    const c = client();
    await c.connect();
    const seen: string[] = [];
    await c.subscribeEvents("state_changed", (event) => seen.push(String(event.data.entity_id)));
    let ready = 0;
    c.onReady(() => ready++);
    sim.faults.dropAll();
    await waitUntil(() => ready === 1, "the reconnect");
    // The resubscription is sent right after the reconnect; a round trip makes sure it is in place.
    await c.getStates();
    sim.home.setState("sensor.kitchen_temperature", "30.1");
    await waitUntil(() => seen.includes("sensor.kitchen_temperature"), "the state_changed event");
  });
});
