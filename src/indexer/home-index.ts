import type { CompressedState, EntitiesMessage, HaClient, HassEvent, Unsubscribe } from "../ha/index.js";
import { describeError, systemClock, type Clock, type Logger } from "../shared/index.js";
import type { EntityFilter } from "./filters.js";
import { HomeGraph, type SearchOptions, type SearchResult } from "./graph.js";
import { INDEX_FORMAT_VERSION, readIndexMeta, writeIndexMeta } from "./meta.js";
import type { DeviceInfo, IndexedEntity, LiveState, Registries } from "./model.js";
import { RateMeter } from "./rate.js";
import { EXTENDED_SLICE, fetchExtended, fetchRegistries } from "./registry-fetch.js";
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

const START_RETRY_MS = 2000;

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
  heapUsed?: () => number;
}

/** Builds the index over a connected HA client. Nothing happens until `start()`. */
export function createHomeIndex(deps: HomeIndexDeps): HomeIndex {
  const { ha, logger } = deps;
  const clock = deps.clock ?? systemClock;
  const debounceMs = deps.registryDebounceMs ?? 500;
  const heapUsed = deps.heapUsed ?? (() => process.memoryUsage().heapUsed);
  const graph = new HomeGraph();
  const rate = new RateMeter(clock);
  const unsubscribers: Unsubscribe[] = [];
  const removers: (() => void)[] = [];
  let ready = false;
  let stopped = false;
  let lastSyncAt: number | null = null;
  let eventsApplied = 0;
  const applied = (n: number) => {
    eventsApplied += n;
    rate.add(n);
  };
  let debounceTimer: NodeJS.Timeout | undefined;
  let refetching: Promise<void> | undefined;
  let refetchAgain = false;
  let extendedPending: Promise<void> | undefined;
  let extendedWanted: Set<string> | "all" = new Set();
  // Until the first registries arrive, entity messages wait here so the index is built once.
  let pending: { snapshot: Record<string, CompressedState> | undefined; diffs: EntitiesMessage[] } | undefined = {
    snapshot: undefined,
    diffs: [],
  };
  let firstSnapshot: () => void = () => undefined;
  const gotFirstSnapshot = new Promise<void>((resolve) => (firstSnapshot = resolve));
  let stopSignal: () => void = () => undefined;
  const stopRequested = new Promise<void>((resolve) => (stopSignal = resolve));

  /** Keeps a subscription for stop(), or drops it at once if stop() came while it was being set up. */
  function keep(unsubscribe: Unsubscribe): void {
    if (stopped) void unsubscribe().catch(() => undefined);
    else unsubscribers.push(unsubscribe);
  }

  const fetchAll = () => fetchRegistries({ ha, logger, extended: graph.extended() });

  /** The first fetch: a connection lost midway is retried after the next reconnect rather than failing start(). */
  async function fetchRegistriesPatiently(): Promise<Registries> {
    for (;;) {
      try {
        return await fetchAll();
      } catch (err) {
        if (stopped) throw err;
        logger.warn({ err: describeError(err) }, "could not fetch the registries; retrying once Home Assistant is back");
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, START_RETRY_MS);
          const remove = ha.onReady(done);
          function done() {
            clearTimeout(timer);
            remove();
            resolve();
          }
        });
      }
    }
  }

  function onEntities(message: EntitiesMessage, snapshot: boolean): void {
    if (stopped) return;
    if (pending) {
      if (snapshot) {
        pending.snapshot = message.a ?? {};
        pending.diffs = [];
        firstSnapshot();
      } else if (pending.snapshot) pending.diffs.push(message);
      return;
    }
    if (snapshot) {
      graph.replaceStates(message.a ?? {});
      lastSyncAt = clock.now();
      logger.debug({ entities: graph.entityCount }, "entity snapshot applied");
      return;
    }
    applied(graph.applyDiff(message));
  }

  /**
   * Aliases and device-class overrides are only in `get_entries`, which is
   * slow for 10,000 entities. The index is searchable without them, so they
   * are fetched afterwards in slices (keeping the socket free for state
   * changes) and patched into the few entities that have any.
   */
  async function refreshExtended(only?: string[]): Promise<void> {
    let extended: Registries["extended"];
    try {
      // A partial refresh keeps what is known and replaces just the entities asked about.
      extended = await fetchExtended({ ha, ids: only ?? graph.registeredIds(), base: only ? graph.extended() : {}, stopped: () => stopped });
    } catch (err) {
      logger.debug({ err: describeError(err) }, "entity aliases unavailable; searching without them");
      return;
    }
    if (stopped) return;
    const changed = graph.setExtended(extended);
    logger.debug({ changed }, "entity aliases and device classes applied");
  }

  function refetch(): Promise<void> {
    if (refetching) {
      refetchAgain = true;
      return refetching;
    }
    refetching = (async () => {
      do {
        refetchAgain = false;
        try {
          const registries = await fetchAll();
          if (stopped) return;
          graph.setRegistries(registries);
          lastSyncAt = clock.now();
          const wanted = extendedWanted;
          extendedWanted = new Set();
          if (wanted === "all") await refreshExtended();
          else if (wanted.size > 0) await refreshExtended([...wanted]);
          logger.debug({ entities: graph.entityCount }, "registries refetched");
        } catch (err) {
          // The next reconnect or registry event tries again.
          logger.warn({ err: describeError(err) }, "could not refetch the registries");
        }
      } while (refetchAgain && !stopped);
    })().finally(() => {
      refetching = undefined;
    });
    return refetching;
  }

  /**
   * Registry events are collected into one refetch. Only entity registry
   * changes can change aliases, and they name the entity, so only those
   * entities' extended entries are fetched again.
   */
  function onRegistryEvent(event: HassEvent): void {
    if (stopped) return;
    if (event.event_type === "entity_registry_updated" && extendedWanted !== "all") {
      const id = event.data.entity_id;
      if (typeof id === "string") extendedWanted.add(id);
      else extendedWanted = "all";
      if (extendedWanted !== "all" && extendedWanted.size > EXTENDED_SLICE) extendedWanted = "all";
    }
    scheduleRefetch();
  }

  function scheduleRefetch(): void {
    if (stopped) return;
    clearTimeout(debounceTimer);
    debounceTimer = setTimeout(() => {
      debounceTimer = undefined;
      void refetch();
    }, debounceMs);
  }

  let metaVersion: string | null | undefined;
  async function checkMeta(dataDir: string): Promise<void> {
    const haVersion = ha.haVersion ?? null;
    if (metaVersion === haVersion) return;
    metaVersion = haVersion;
    const prior = await readIndexMeta(dataDir);
    if (prior && (prior.formatVersion !== INDEX_FORMAT_VERSION || prior.haVersion !== haVersion)) {
      logger.info({ from: prior, toFormat: INDEX_FORMAT_VERSION, toHa: haVersion }, "index format or Home Assistant version changed; rebuilt from scratch");
    }
    await writeIndexMeta(dataDir, { formatVersion: INDEX_FORMAT_VERSION, haVersion, builtAt: clock.now() });
  }

  // Meta writes run one after another (they share a temp file), and whenIdle() and stop() wait for them.
  let metaWriting: Promise<void> | undefined;
  function recordMeta(): Promise<void> {
    const dataDir = deps.dataDir;
    if (!dataDir || stopped) return Promise.resolve();
    const next = (metaWriting ?? Promise.resolve())
      .then(() => checkMeta(dataDir))
      .catch((err: unknown) => logger.warn({ err: describeError(err) }, "could not write index/meta.json"))
      .finally(() => {
        if (metaWriting === next) metaWriting = undefined;
      });
    metaWriting = next;
    return next;
  }

  return {
    async start() {
      if (stopped) return;
      const startedAt = clock.now();
      // A reconnect may have missed registry events; the entity snapshot comes by itself.
      removers.push(
        ha.onReady(() => {
          // HA may have been upgraded while we were disconnected: the full refetch rebuilds, the meta file records it.
          extendedWanted = "all";
          void refetch().then(recordMeta);
        }),
      );
      for (const type of REGISTRY_EVENTS) keep(await ha.subscribeEvents(type, onRegistryEvent));
      keep(await ha.subscribeEntities(onEntities));
      const loaded = Promise.all([fetchRegistriesPatiently(), gotFirstSnapshot]);
      // stop() before the first snapshot ends start() without an index, rather than leaving it waiting.
      // Only a flag goes through the race: stopRequested stays pending for the
      // life of the index, and whatever the race resolves with stays alive with it.
      const stopFirst = await Promise.race([loaded.then(() => false), stopRequested.then(() => true)]);
      if (stopFirst || stopped) {
        loaded.catch(() => undefined);
        return;
      }
      const [registries] = await loaded;
      const { snapshot, diffs } = pending!;
      pending = undefined;
      graph.load(registries, snapshot ?? {});
      for (const d of diffs) applied(graph.applyDiff(d));
      lastSyncAt = clock.now();
      ready = true;
      logger.info({ entities: graph.entityCount, ms: clock.now() - startedAt }, "index ready");
      extendedPending = refreshExtended().finally(() => (extendedPending = undefined));
      await recordMeta();
    },
    get ready() {
      return ready;
    },
    search: (query, opts) => graph.search(query, opts),
    entity: (id) => graph.entity(id),
    query: (filter) => graph.query(filter),
    stats: () => ({
      entities: graph.entityCount,
      ...graph.counts(),
      lastSyncAt,
      eventsPerSecond: rate.perSecond(),
      eventsApplied,
      heapUsedBytes: heapUsed(),
    }),
    states: () => graph.states(),
    devices: () => graph.devices(),
    device: (id) => graph.device(id),
    entitiesOfDevice: (id) => graph.entitiesOfDevice(id),
    render: (entities, opts) => renderEntities(entities, opts),
    resolveTarget: (target, domain) => graph.resolveTarget(target, domain),
    async whenIdle() {
      while (debounceTimer !== undefined || refetching || extendedPending || metaWriting) {
        if (refetching) await refetching;
        else if (extendedPending) await extendedPending;
        else if (metaWriting) await metaWriting;
        else await new Promise((r) => setTimeout(r, Math.min(debounceMs, 50)));
      }
    },
    async stop() {
      stopped = true;
      stopSignal();
      clearTimeout(debounceTimer);
      debounceTimer = undefined;
      for (const remove of removers.splice(0)) remove();
      const unsubs = unsubscribers.splice(0);
      await Promise.all(unsubs.map((u) => u().catch(() => undefined)));
      await refetching;
      await extendedPending;
      await metaWriting;
    },
  };
}
