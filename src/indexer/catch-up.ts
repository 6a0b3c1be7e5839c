import type { Clock } from "../shared/index.js";

/**
 * Whether the index has caught up with Home Assistant since the connection
 * last came back. Until HA's new entity snapshot has replaced the states and
 * the registries were fetched again, the index still holds the home as it was
 * before the drop: a restarted HA may have removed, renamed or replaced any of
 * it. Answers from the index are marked stale until both have arrived.
 */
export interface CatchUp {
  /** The connection dropped: a new snapshot and a registry fetch are due once it is back. */
  lost(): void;
  /** A full entity snapshot arrived (the first message of every (re)subscription). */
  snapshotApplied(): void;
  /** The registries were fetched and applied. */
  registriesApplied(): void;
  /** Whether the registries are still due; the index retries the fetch while they are. */
  registriesDue(): boolean;
  /** Epoch ms of the drop the index is catching up from; null when it has caught up. */
  readonly since: number | null;
}

export function createCatchUp(clock: Clock): CatchUp {
  let since: number | null = null;
  let snapshotDue = false;
  let registriesDue = false;
  const settle = () => {
    if (!snapshotDue && !registriesDue) since = null;
  };
  return {
    lost() {
      // A second drop while catching up keeps the first one's time: the states are from before it.
      since ??= clock.now();
      snapshotDue = registriesDue = true;
    },
    snapshotApplied() {
      snapshotDue = false;
      settle();
    },
    registriesApplied() {
      registriesDue = false;
      settle();
    },
    registriesDue: () => registriesDue,
    get since() {
      return since;
    },
  };
}
