import type { HaClient, Unsubscribe } from "../ha/index.js";
import { systemClock, type Clock, type Logger } from "../shared/index.js";
import { createCatchUp } from "./catch-up.js";
import { createEntityFeed } from "./entity-feed.js";
import type { EntityFilter } from "./filters.js";
import { HomeGraph, type SearchOptions, type SearchResult } from "./graph.js";
import { createMetaRecorder } from "./meta-recorder.js";
import type { DeviceInfo, IndexedEntity, LiveState } from "./model.js";
import { createRegistrySync } from "./registry-sync.js";
import { renderEntities, type RenderedContext } from "./render.js";
import type { TargetIds, TargetResolution } from "./targets.js";

export interface IndexStats {
  entities: number;
  devices: number;
  areas: number;
  floors: number;
  labels: number;
  /** Epoch ms of the last full resync (registries or snapshot); null before the first. */
  lastSyncAt: number | null;
  /** Epoch ms of the connection drop the index is still catching up from; null when it is in step with HA. */
  catchingUpSince: number | null;
  eventsPerSecond: number;
  /** State changes applied since start; a counter for benchmarks and the status page. */
  eventsApplied: number;
  heapUsedBytes: number;
}

/** The live, searchable picture of the home that tools and prompts read from. */
export interface HomeIndex {
  /**
   * Subscribes, fetches the registries and resolves once the index is searchable
   * (or, if stop() comes first, as soon as it does, with `ready` still false).
   * Call after the HA client connected.
   */
  start(): Promise<void>;
  readonly ready: boolean;
  /**
   * Epoch ms of the connection drop the index is still catching up from:
   * set when the connection drops, cleared once HA's new entity snapshot and
   * a fresh registry fetch have both been applied. Null when in step.
   */
  readonly catchingUpSince: number | null;
  search(query: string, opts?: SearchOptions): SearchResult[];
  entity(entityId: string): IndexedEntity | undefined;
  /** Throws IndexFilterError (code `unknown_area`, …) for a filter value that names nothing. */
  query(filter?: EntityFilter): IndexedEntity[];
  stats(): IndexStats;
  states(): ReadonlyMap<string, LiveState>;
  devices(): DeviceInfo[];
  device(deviceId: string): DeviceInfo | undefined;
  /** Entity ids on a device, hidden ones included. */
  entitiesOfDevice(deviceId: string): string[];
  render(entities: IndexedEntity[], opts?: { title?: string; maxEntities?: number }): RenderedContext;
  /** A service target (entity, device, area, floor and label ids) as the entities a call of `domain`'s service acts on. */
  resolveTarget(target: TargetIds, domain?: string): TargetResolution;
  /** Resolves when no registry refetch is pending or running; for tests and the benchmark. */
  whenIdle(): Promise<void>;
  stop(): Promise<void>;
}

const REGISTRY_EVENTS = [
  "entity_registry_updated",
  "device_registry_updated",
  "area_registry_updated",
  "floor_registry_updated",
  "label_registry_updated",
];

export interface HomeIndexDeps {
  ha: HaClient;
  logger: Logger;
  clock?: Clock;
  /** Where `index/meta.json` lives; omitted means no meta file (tests, benchmarks). */
  dataDir?: string;
  /** How long registry events are collected before one refetch. */
  registryDebounceMs?: number;
  /** How long after a failed registry fetch the index tries again while catching up after a reconnect. Default 5 000. */
  catchUpRetryMs?: number;
  heapUsed?: () => number;
}

/**
 * Builds the index over a connected HA client. Nothing happens until `start()`.
 * The entity feed keeps states live, the registry sync keeps the structure
 * live, and the graph answers the queries.
 */
export function createHomeIndex(deps: HomeIndexDeps): HomeIndex {
  const { ha, logger } = deps;
  const clock = deps.clock ?? systemClock;
  const debounceMs = deps.registryDebounceMs ?? 500;
  const heapUsed = deps.heapUsed ?? (() => process.memoryUsage().heapUsed);
  const graph = new HomeGraph();
  const unsubscribers: Unsubscribe[] = [];
  const removers: (() => void)[] = [];
  let ready = false;
  let stopped = false;
  let lastSyncAt: number | null = null;
  const catchUp = createCatchUp(clock);
  const catchUpRetryMs = deps.catchUpRetryMs ?? 5_000;
  let catchUpRetry: NodeJS.Timeout | undefined;
  const parts = { graph, logger, stopped: () => stopped };
  const synced = () => void (lastSyncAt = clock.now());
  const feed = createEntityFeed({ ...parts, clock, synced, snapshotArrived: () => catchUp.snapshotApplied() });
  const registries = createRegistrySync({
    ...parts,
    ha,
    debounceMs,
    synced: () => {
      synced();
      catchUp.registriesApplied();
    },
  });
  const meta = createMetaRecorder({ dataDir: deps.dataDir, ha, clock, logger, stopped: parts.stopped });
  let stopSignal: () => void = () => undefined;
  const stopRequested = new Promise<void>((resolve) => (stopSignal = resolve));

  /** Keeps a subscription for stop(), or drops it at once if stop() came while it was being set up. */
  function keep(unsubscribe: Unsubscribe): void {
    if (stopped) void unsubscribe().catch(() => undefined);
    else unsubscribers.push(unsubscribe);
  }

  /**
   * The refetch after a reconnect. It logs and swallows its own failures, so
   * while the index is still catching up it is tried again: otherwise one
   * failed fetch would leave every answer marked stale until the next drop.
   */
  async function resync(): Promise<void> {
    clearTimeout(catchUpRetry);
    await registries.resync();
    await meta.record();
    if (stopped || !catchUp.registriesDue() || ha.status !== "connected") return;
    catchUpRetry = setTimeout(() => void resync(), catchUpRetryMs);
    catchUpRetry.unref();
  }

  return {
    async start() {
      if (stopped) return;
      const startedAt = clock.now();
      // Every drop leaves the index behind until the next connection's snapshot and registry fetch are in.
      removers.push(ha.onStatus((status) => status !== "connected" && catchUp.lost()));
      // A reconnect may have missed registry events; the entity snapshot comes by itself.
      // HA may have been upgraded while we were disconnected: the full refetch rebuilds, the meta file records it.
      removers.push(ha.onReady(() => void resync()));
      for (const type of REGISTRY_EVENTS) keep(await ha.subscribeEvents(type, registries.onRegistryEvent));
      keep(await ha.subscribeEntities(feed.onEntities));
      const loaded = Promise.all([registries.fetchPatiently(), feed.firstSnapshot]);
      // stop() before the first snapshot ends start() without an index, rather than leaving it waiting.
      // Only a flag goes through the race: stopRequested stays pending for the
      // life of the index, and whatever the race resolves with stays alive with it.
      const stopFirst = await Promise.race([loaded.then(() => false), stopRequested.then(() => true)]);
      if (stopFirst || stopped) {
        loaded.catch(() => undefined);
        return;
      }
      const [fetched] = await loaded;
      feed.build(fetched);
      ready = true;
      logger.info({ entities: graph.entityCount, ms: clock.now() - startedAt }, "index ready");
      registries.refreshAllExtended();
      await meta.record();
    },
    get ready() {
      return ready;
    },
    get catchingUpSince() {
      return catchUp.since;
    },
    search: (query, opts) => graph.search(query, opts),
    entity: (id) => graph.entity(id),
    query: (filter) => graph.query(filter),
    stats: () => ({
      entities: graph.entityCount,
      ...graph.counts(),
      lastSyncAt,
      catchingUpSince: catchUp.since,
      eventsPerSecond: feed.eventsPerSecond(),
      eventsApplied: feed.eventsApplied(),
      heapUsedBytes: heapUsed(),
    }),
    states: () => graph.states(),
    devices: () => graph.devices(),
    device: (id) => graph.device(id),
    entitiesOfDevice: (id) => graph.entitiesOfDevice(id),
    render: (entities, opts) => renderEntities(entities, opts),
    resolveTarget: (target, domain) => graph.resolveTarget(target, domain),
    async whenIdle() {
      while (registries.scheduled() || registries.running() || meta.writing()) {
        const running = registries.running() ?? meta.writing();
        if (running) await running;
        else await new Promise((r) => setTimeout(r, Math.min(debounceMs, 50)));
      }
    },
    async stop() {
      stopped = true;
      clearTimeout(catchUpRetry);
      stopSignal();
      for (const remove of removers.splice(0)) remove();
      const unsubs = unsubscribers.splice(0);
      const stopping = registries.stop();
      await Promise.all(unsubs.map((u) => u().catch(() => undefined)));
      await stopping;
      await meta.writing();
    },
  };
}
