import type { Connection } from "home-assistant-js-websocket";
import type { WebSocket } from "ws";
import type { Clock, Logger } from "../shared/index.js";
import { startHeartbeat } from "./heartbeat.js";
import type { StatusHub } from "./status-hub.js";

/** What happens as the link to HA comes and goes: a heartbeat while it is up, the status, and the cue to resync. */
export interface LinkWatch {
  /** A socket is connected and authenticated; `first` is the first connection of this client. */
  up(o: { library: Connection; socket: WebSocket; haVersion: string | undefined; first: boolean }): void;
  down(): void;
  stop(): void;
}

export interface LinkWatchOptions {
  wsUrl: string;
  logger: Logger;
  clock: Clock;
  pingIntervalMs: number;
  pongTimeoutMs: number;
  hub: StatusHub;
}

export function createLinkWatch({ wsUrl, logger: log, clock, pingIntervalMs, pongTimeoutMs, hub }: LinkWatchOptions): LinkWatch {
  let heartbeat: { stop(): void } | undefined;
  let lostAt = 0;
  return {
    up({ library, socket, haVersion, first }) {
      heartbeat?.stop();
      heartbeat = startHeartbeat({
        intervalMs: pingIntervalMs,
        timeoutMs: pongTimeoutMs,
        ping: () => library.ping(),
        onTimeout: () => {
          log.warn({ pongTimeoutMs }, `HA did not answer a ping within ${pongTimeoutMs} ms; dropping the connection to reconnect`);
          socket.terminate();
        },
      });
      hub.set("connected");
      if (first) log.info({ url: wsUrl, haVersion }, "connected to Home Assistant");
      else log.info({ haVersion, downMs: clock.now() - lostAt }, "reconnected to Home Assistant; subscriptions restored, resyncing");
      hub.ready();
    },
    down() {
      heartbeat?.stop();
      heartbeat = undefined;
      lostAt = clock.now();
      log.warn({ url: wsUrl }, "connection to Home Assistant lost; reconnecting");
      hub.set("reconnecting");
    },
    stop: () => heartbeat?.stop(),
  };
}
