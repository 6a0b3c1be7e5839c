import { mkdtemp, readFile, rm, writeFile, mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { HaNotConnectedError } from "../ha/index.js";
import { manualClock, silentLogger } from "../shared/index.js";
import { createHomeIndex, type HomeIndex } from "./home-index.js";
import { INDEX_FORMAT_VERSION } from "./meta.js";
import { createFakeHa } from "../../test/support/indexer/fake-ha.js";
import { fixtureRegistries, fixtureStates } from "../../test/support/indexer/fixture-home.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function started(opts: { dataDir?: string } = {}) {
  const ha = createFakeHa(fixtureRegistries());
  const clock = manualClock(1_800_000_000_000);
  const index = createHomeIndex({ ha, logger: silentLogger, clock, registryDebounceMs: 5, ...opts });
  cleanups.push(() => index.stop());
  const starting = index.start();
  // HA sends the snapshot right after subscribing.
  await new Promise((r) => setImmediate(r));
  ha.pushEntities({ a: fixtureStates() }, true);
  await starting;
  return { ha, index, clock };
}

function statesOf(index: HomeIndex): Record<string, string> {
  return Object.fromEntries([...index.states()].map(([id, s]) => [id, s.state]));
}

describe("createHomeIndex", () => {
  it("becomes ready after the registries and the first snapshot, and reports its counts", async () => {
    const { index } = await started();
    expect(index.ready).toBe(true);
    expect(index.search("lounge temperature")[0]?.entityId).toBe("sensor.living_room_temperature");
    const stats = index.stats();
    expect(stats).toMatchObject({ entities: 13, devices: 5, areas: 5, floors: 2, labels: 2, lastSyncAt: 1_800_000_000_000 });
    expect(stats.heapUsedBytes).toBeGreaterThan(0);
  });

  it("retries the first registry fetch after a reconnect instead of failing start()", async () => {
    const ha = createFakeHa(fixtureRegistries());
    const realList = ha.listEntityRegistry;
    let failures = 1;
    ha.listEntityRegistry = async () => {
      if (failures-- > 0) throw new HaNotConnectedError("the connection dropped");
      return realList();
    };
    const index = createHomeIndex({ ha, logger: silentLogger, clock: manualClock(), registryDebounceMs: 5 });
    cleanups.push(() => index.stop());
    const starting = index.start();
    await new Promise((r) => setImmediate(r));
    ha.pushEntities({ a: fixtureStates() }, true);
    ha.reconnect();
    await starting;
    expect(index.ready).toBe(true);
    expect(index.entity("switch.kettle")?.name).toBe("Kettle");
  });

  it("ends start() without an index and keeps no subscription when stopped before the first snapshot", async () => {
    const ha = createFakeHa(fixtureRegistries());
    const index = createHomeIndex({ ha, logger: silentLogger, clock: manualClock() });
    const starting = index.start();
    await index.stop();
    await starting;
    expect(index.ready).toBe(false);
    expect(ha.activeSubscriptions()).toBe(0);
  });

  it("adds entity aliases from get_entries after it is ready", async () => {
    const { index } = await started();
    await index.whenIdle();
    expect(index.entity("sensor.living_room_temperature")?.aliases).toEqual(["Lounge thermometer"]);
    expect(index.search("thermometer")[0]?.entityId).toBe("sensor.living_room_temperature");
  });

  it("applies diffs and measures the event rate", async () => {
    const { ha, index, clock } = await started();
    for (let i = 0; i < 50; i++) ha.pushEntities({ c: { "light.kitchen_spots": { "+": { s: i % 2 ? "on" : "off" } } } }, false);
    clock.advance(1000);
    expect(index.entity("light.kitchen_spots")?.state?.state).toBe("on");
    expect(index.stats().eventsPerSecond).toBe(5);
  });

  it("refetches the registries once after a burst of registry events", async () => {
    const { ha, index } = await started();
    const before = ha.registryFetches;
    ha.registries = { ...ha.registries, areas: ha.registries.areas.map((a) => (a.area_id === "kitchen" ? { ...a, aliases: ["Galley"] } : a)) };
    for (let i = 0; i < 10; i++) ha.fireEvent("area_registry_updated");
    await new Promise((r) => setTimeout(r, 20));
    await index.whenIdle();
    expect(ha.registryFetches).toBe(before + 1);
    expect(index.search("galley light")[0]?.entityId).toBe("light.kitchen_spots");
  });

  it("refetches aliases only for the entities a registry event names", async () => {
    const { ha, index } = await started();
    await index.whenIdle();
    ha.extendedRequests = [];
    ha.registries = { ...ha.registries, extended: { ...ha.registries.extended, "light.kitchen_spots": { aliases: ["Downlights"], device_class: null, original_device_class: null } } };
    ha.fireEvent("entity_registry_updated", { action: "update", entity_id: "light.kitchen_spots" });
    await new Promise((r) => setTimeout(r, 20));
    await index.whenIdle();
    expect(ha.extendedRequests).toEqual([["light.kitchen_spots"]]);
    expect(index.search("downlights")[0]?.entityId).toBe("light.kitchen_spots");
    // aliases of other entities survive the partial refresh
    expect(index.entity("sensor.living_room_temperature")?.aliases).toEqual(["Lounge thermometer"]);
  });

  it("leaves nothing stale after a reconnect snapshot", async () => {
    const { ha, index } = await started();
    const next = fixtureStates();
    delete next["sun.sun"];
    next["light.kitchen_spots"] = { ...next["light.kitchen_spots"]!, s: "off" };
    ha.reconnect();
    ha.pushEntities({ a: next }, true);
    await index.whenIdle();
    expect(statesOf(index)).toEqual(Object.fromEntries(Object.entries(next).map(([id, s]) => [id, s.s])));
    expect(index.entity("sun.sun")).toBeUndefined();
  });

  it("writes index/meta.json with the format and HA versions", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "ha-index-"));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    await mkdir(join(dataDir, "index"));
    await writeFile(join(dataDir, "index", "meta.json"), JSON.stringify({ formatVersion: 0, haVersion: "2020.1.0", builtAt: 1 }));
    await started({ dataDir });
    const meta = JSON.parse(await readFile(join(dataDir, "index", "meta.json"), "utf8"));
    expect(meta).toEqual({ formatVersion: INDEX_FORMAT_VERSION, haVersion: "2026.1.0", builtAt: 1_800_000_000_000 });
  });

  it("records a new HA version in meta.json after a reconnect", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "ha-index-"));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const { ha, index } = await started({ dataDir });
    (ha as { haVersion: string }).haVersion = "2026.2.0";
    ha.reconnect();
    await index.whenIdle();
    const meta = JSON.parse(await readFile(join(dataDir, "index", "meta.json"), "utf8"));
    expect(meta.haVersion).toBe("2026.2.0");
  });
});
