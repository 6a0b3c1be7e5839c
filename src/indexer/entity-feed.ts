import type { CompressedState, EntitiesMessage } from "../ha/index.js";
import type { Clock, Logger } from "../shared/index.js";
import type { HomeGraph } from "./graph.js";
import type { Registries } from "./model.js";
import { RateMeter } from "./rate.js";

/** The entity subscription's side of the index: snapshots and state diffs into the graph. */
export interface EntityFeed {
  onEntities(message: EntitiesMessage, snapshot: boolean): void;
  /** Resolves when the first snapshot has arrived. */
  readonly firstSnapshot: Promise<void>;
  /** Builds the graph from the registries and the messages held so far; later messages go straight to the graph. */
  build(registries: Registries): void;
  /** State changes applied since start. */
  eventsApplied(): number;
  eventsPerSecond(): number;
}

export interface EntityFeedDeps {
  graph: HomeGraph;
  clock: Clock;
  logger: Logger;
  stopped: () => boolean;
  /** Called whenever the whole picture of states was replaced. */
  synced: () => void;
  /** Called for every full snapshot, held for the first build or applied. */
  snapshotArrived?: () => void;
}

export function createEntityFeed({ graph, clock, logger, stopped, synced, snapshotArrived }: EntityFeedDeps): EntityFeed {
  const rate = new RateMeter(clock);
  let eventsApplied = 0;
  const applied = (n: number) => {
    eventsApplied += n;
    rate.add(n);
  };
  // Until the first registries arrive, entity messages wait here so the index is built once.
  let pending: { snapshot: Record<string, CompressedState> | undefined; diffs: EntitiesMessage[] } | undefined = {
    snapshot: undefined,
    diffs: [],
  };
  let firstSnapshot: () => void = () => undefined;
  const gotFirstSnapshot = new Promise<void>((resolve) => (firstSnapshot = resolve));

  return {
    onEntities(message, snapshot) {
      if (stopped()) return;
      if (snapshot) snapshotArrived?.();
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
        synced();
        logger.debug({ entities: graph.entityCount }, "entity snapshot applied");
        return;
      }
      applied(graph.applyDiff(message));
    },
    firstSnapshot: gotFirstSnapshot,
    build(registries) {
      const { snapshot, diffs } = pending!;
      pending = undefined;
      graph.load(registries, snapshot ?? {});
      for (const d of diffs) applied(graph.applyDiff(d));
      synced();
    },
    eventsApplied: () => eventsApplied,
    eventsPerSecond: () => rate.perSecond(),
  };
}
