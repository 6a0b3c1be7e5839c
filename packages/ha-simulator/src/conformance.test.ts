import { getStates, getUser, subscribeEntities, type Connection, type HassEntities } from "home-assistant-js-websocket";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { demoHouse } from "./demo/index.js";
import { startSimulator, type Simulator } from "./index.js";
import { connectHaws } from "../test/support/haws.js";

let sim: Simulator;
let conn: Connection | undefined;

beforeEach(async () => {
  sim = await startSimulator({ house: demoHouse() });
});

afterEach(async () => {
  conn?.close();
  conn = undefined;
  await sim.close();
});

/** Resolves with the entities once `pred` holds for them. */
function entitiesWhen(c: Connection, pred: (e: HassEntities) => boolean): Promise<HassEntities> {
  return new Promise((resolve) => {
    const unsub = subscribeEntities(c, (entities) => {
      if (pred(entities)) {
        unsub();
        resolve(entities);
      }
    });
  });
}

describe("home-assistant-js-websocket against the simulator", () => {
  it("authenticates, reads states and the user, and follows live changes through subscribeEntities", async () => {
    conn = await connectHaws(sim.url, sim.users.tokenFor());
    expect(conn.haVersion).toBe(sim.haVersion);
    const states = await getStates(conn);
    expect(states.length).toBe(sim.home.states().length);
    expect((await getUser(conn)).is_admin).toBe(true);

    const first = await entitiesWhen(conn, (e) => Object.keys(e).length === states.length);
    expect(first["light.kitchen_ceiling"]?.attributes.friendly_name).toBe("Kitchen Ceiling");

    const changed = entitiesWhen(conn!, (e) => e["sensor.kitchen_temperature"]?.state === "25.5");
    sim.home.setState("sensor.kitchen_temperature", "25.5");
    const after = await changed;
    const truth = sim.home.getState("sensor.kitchen_temperature")!;
    expect(after["sensor.kitchen_temperature"]?.attributes).toEqual(truth.attributes);
    expect(Date.parse(after["sensor.kitchen_temperature"]!.last_changed)).toBe(Date.parse(truth.last_changed));
  });

  it("reconnects by itself after every connection was dropped", async () => {
    conn = await connectHaws(sim.url, sim.users.tokenFor());
    const ready = new Promise<void>((resolve) => conn!.addEventListener("ready", () => resolve()));
    sim.faults.dropAll();
    await ready;
    expect((await getStates(conn)).length).toBe(sim.home.states().length);
  });
});
