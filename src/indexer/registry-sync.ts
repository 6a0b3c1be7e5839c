import type { HaClient, HassEvent } from "../ha/index.js";
import { describeError, type Logger } from "../shared/index.js";
import type { HomeGraph } from "./graph.js";
import type { Registries } from "./model.js";
import { EXTENDED_SLICE, fetchExtended, fetchRegistries } from "./registry-fetch.js";

const START_RETRY_MS = 2000;

/** The registries' side of the index: the first fetch, and refetches after registry events and reconnects. */
export interface RegistrySync {
  /** The first fetch: a connection lost midway is retried after the next reconnect rather than failing start(). */
  fetchPatiently(): Promise<Registries>;
  onRegistryEvent(event: HassEvent): void;
  /** After a reconnect: refetch everything, extended entries included, since events may have been missed. */
  resync(): Promise<void>;
  /** Fetches every entity's extended entry in the background, once the index is searchable. */
  refreshAllExtended(): void;
  /** A refetch is waiting out the debounce. */
  scheduled(): boolean;
  /** The refetch or extended fetch now running, if any. */
  running(): Promise<void> | undefined;
  /** Drops a scheduled refetch and waits for the running ones. */
  stop(): Promise<void>;
}

export interface RegistrySyncDeps {
  ha: HaClient;
  graph: HomeGraph;
  logger: Logger;
  /** How long registry events are collected before one refetch. */
  debounceMs: number;
  stopped: () => boolean;
  /** Called after the registries were replaced. */
  synced: () => void;
}

export function createRegistrySync({ ha, graph, logger, debounceMs, stopped, synced }: RegistrySyncDeps): RegistrySync {
  let debounceTimer: NodeJS.Timeout | undefined;
  let refetching: Promise<void> | undefined;
  let refetchAgain = false;
  let extendedPending: Promise<void> | undefined;
  let extendedWanted: Set<string> | "all" = new Set();

  const fetchAll = () => fetchRegistries({ ha, logger, extended: graph.extended() });

  async function fetchPatiently(): Promise<Registries> {
    for (;;) {
      try {
        return await fetchAll();
      } catch (err) {
        if (stopped()) throw err;
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
      extended = await fetchExtended({ ha, ids: only ?? graph.registeredIds(), base: only ? graph.extended() : {}, stopped });
    } catch (err) {
      logger.debug({ err: describeError(err) }, "entity aliases unavailable; searching without them");
      return;
    }
    if (stopped()) return;
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
          if (stopped()) return;
          graph.setRegistries(registries);
          synced();
          const wanted = extendedWanted;
          extendedWanted = new Set();
          if (wanted === "all") await refreshExtended();
          else if (wanted.size > 0) await refreshExtended([...wanted]);
          logger.debug({ entities: graph.entityCount }, "registries refetched");
        } catch (err) {
          // The next reconnect or registry event tries again.
          logger.warn({ err: describeError(err) }, "could not refetch the registries");
        }
      } while (refetchAgain && !stopped());
    })().finally(() => {
      refetching = undefined;
    });
    return refetching;
  }

  function scheduleRefetch(): void {
    if (stopped()) return;
    clearTimeout(debounceTimer);
    debounceTimer = setTimeout(() => {
      debounceTimer = undefined;
      void refetch();
    }, debounceMs);
  }

  return {
    fetchPatiently,
    /**
     * Registry events are collected into one refetch. Only entity registry
     * changes can change aliases, and they name the entity, so only those
     * entities' extended entries are fetched again.
     */
    onRegistryEvent(event) {
      if (stopped()) return;
      if (event.event_type === "entity_registry_updated" && extendedWanted !== "all") {
        const id = event.data.entity_id;
        if (typeof id === "string") extendedWanted.add(id);
        else extendedWanted = "all";
        if (extendedWanted !== "all" && extendedWanted.size > EXTENDED_SLICE) extendedWanted = "all";
      }
      scheduleRefetch();
    },
    resync() {
      extendedWanted = "all";
      return refetch();
    },
    refreshAllExtended() {
      extendedPending = refreshExtended().finally(() => (extendedPending = undefined));
    },
    scheduled: () => debounceTimer !== undefined,
    running: () => refetching ?? extendedPending,
    async stop() {
      clearTimeout(debounceTimer);
      debounceTimer = undefined;
      await refetching;
      await extendedPending;
    },
  };
}
