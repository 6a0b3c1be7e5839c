import { describeError, type Logger } from "../shared/index.js";
import type { ConnectionStatus } from "./types.js";

/** The connection's status and who listens to it. A listener that throws is logged; the connection carries on. */
export interface StatusHub {
  readonly status: ConnectionStatus;
  set(next: ConnectionStatus): void;
  onStatus(listener: (status: ConnectionStatus) => void): () => void;
  onReady(listener: () => void): () => void;
  /** Tells the ready listeners that a connection, first or renewed, can be used: their cue to resync. */
  ready(): void;
}

export function createStatusHub(log: Logger): StatusHub {
  let status: ConnectionStatus = "connecting";
  const statusListeners = new Set<(status: ConnectionStatus) => void>();
  const readyListeners = new Set<() => void>();

  function notify<A extends unknown[]>(listeners: Set<(...args: A) => void>, what: string, ...args: A) {
    for (const listener of [...listeners]) {
      try {
        listener(...args);
      } catch (err) {
        log.error({ err: describeError(err) }, `an HA ${what} listener threw; the connection carries on`);
      }
    }
  }

  return {
    get status() {
      return status;
    },
    set(next) {
      if (next === status) return;
      status = next;
      notify(statusListeners, "status", next);
    },
    onStatus(listener) {
      statusListeners.add(listener);
      return () => statusListeners.delete(listener);
    },
    onReady(listener) {
      readyListeners.add(listener);
      return () => readyListeners.delete(listener);
    },
    ready: () => notify(readyListeners, "ready"),
  };
}
