import { silentLogger, systemClock, type Clock, type Logger } from "./common/index.js";
import { SimAuth, type RefreshTokenInfo, type TokenEndpointFault } from "./auth/index.js";
import { startAutomations } from "./automation-host.js";
import { burst } from "./burst.js";
import { allCommands } from "./commands/index.js";
import type { ServerContext } from "./context.js";
import { HomeModel } from "./home.js";
import type { SimHome } from "./sim-home.js";
import type { House } from "./house-schema.js";
import { SimServer } from "./server.js";
import { UserStore, type SimUser } from "./users.js";

export interface SimulatorOptions {
  house: House;
  /** Default 0: an ephemeral port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default: one admin user with a random token. */
  users?: SimUser[];
  haVersion?: string;
  clock?: Clock;
  logger?: Logger;
  /** How long a client may take to send `auth`. Default 10 s, like HA. */
  authTimeoutMs?: number;
  /** How long a client may stay above 1,024 pending messages before it is dropped. Default 10 s, like HA (PENDING_MSG_PEAK_TIME). */
  pendingPeakMs?: number;
  /** Timer seam for the pending-peak check (default setTimeout); tests pass their own to fire it at will. */
  schedule?: (ms: number, run: () => void) => () => void;
}

export interface Simulator {
  /** HA's base URL, like HA_URL. */
  url: string;
  wsUrl: string;
  apiUrl: string;
  port: number;
  readonly haVersion: string;
  home: SimHome;
  users: { add(user: SimUser): void; revokeToken(token: string): void; tokenFor(userId?: string): string };
  /** Logins made on `/auth/authorize`, as the users' profile pages show them. */
  auth: {
    /** Refresh tokens, oldest first, optionally of one user. */
    refreshTokens(userId?: string): RefreshTokenInfo[];
    /** Removes a refresh token as a user does on their profile page: its access tokens fail from now on and its WebSockets close. False if there is none with that id. */
    removeRefreshToken(id: string): boolean;
    /** HA's ban of the caller's address: every HTTP request gets a bare 403 until it is lifted (open WebSockets stay). */
    ban(on: boolean): void;
    /** `/auth/token` answers 500 (`error`) or closes the connection unanswered (`close`); undefined serves it again. */
    failTokenEndpoint(fault: TokenEndpointFault): void;
  };
  faults: {
    /** Closes every socket abruptly. */
    dropAll(): void;
    /** Stops listening, applies `whileDown`, and listens again on the same port after `downtimeMs`. */
    restart(o: { downtimeMs: number; haVersion?: string; whileDown?: (home: SimHome) => void }): Promise<void>;
    /** Half-open: sockets stay open but nothing is answered, not even ping. */
    freeze(on: boolean): void;
    /** Delays every answer by `ms` (0 turns it off). */
    slow(ms: number): void;
    /** Every auth attempt gets `auth_invalid` (and REST 401). */
    refuseAuth(on: boolean): void;
    /**
     * Handles commands of `type` only `ms` after they arrive (0 turns it off),
     * as a Home Assistant still loading its integrations after a restart
     * answers them late; other commands and events go on meanwhile.
     */
    delayCommand(type: string, ms: number): void;
    /** Fires state changes as fast as possible; resolves once all were sent. */
    burst(o: { changes: number; entityIds?: string[] }): Promise<void>;
  };
  stats(): { connections: number; messagesSent: number };
  /**
   * Does what the clock says is due: time and sun triggers, `for` periods of
   * state triggers, and new meter readings. The simulator calls it every
   * second; tests with a manual clock call it after moving the clock.
   */
  tick(): void;
  close(): Promise<void>;
}

export const DEFAULT_HA_VERSION = "2026.11.1";

function scheduleTimer(ms: number, run: () => void): () => void {
  const timer = setTimeout(run, ms);
  // A pending check must not keep a finished process alive.
  timer.unref();
  return () => clearTimeout(timer);
}

/** Starts a Home Assistant simulator serving `house` over HA's WebSocket and REST APIs. */
export async function startSimulator(options: SimulatorOptions): Promise<Simulator> {
  const host = options.host ?? "127.0.0.1";
  const home = new HomeModel(options.house, options.clock ?? systemClock);
  const automations = startAutomations(home);
  let metersAt = home.now();
  const tick = () => {
    automations.tick();
    // Meters report every few minutes, like a P1 meter's integration polls.
    if (home.now() - metersAt >= 300_000) {
      metersAt = home.now();
      home.advanceMeters(metersAt);
    }
  };
  const ticker = setInterval(tick, 1000);
  ticker.unref();
  const users = new UserStore(options.users);
  const auth = new SimAuth(users, options.clock ?? systemClock);
  const ctx: ServerContext = {
    home,
    users,
    auth,
    faults: { frozen: false, slowMs: 0, refuseAuth: false, delayedCommands: new Map() },
    commands: allCommands(),
    logger: options.logger ?? silentLogger,
    authTimeoutMs: options.authTimeoutMs ?? 10_000,
    haVersion: options.haVersion ?? DEFAULT_HA_VERSION,
    counters: { messagesSent: 0 },
    pendingPeakMs: options.pendingPeakMs ?? 10_000,
    schedule: options.schedule ?? scheduleTimer,
  };
  const server = new SimServer(ctx);
  // HA closes the connections a removed refresh token's access tokens opened.
  auth.onRemove((id) => {
    for (const c of [...server.connections]) if (c.token !== undefined && auth.refreshTokenIdOf(c.token) === id) c.close();
  });
  const port = await server.listen(options.port ?? 0, host);
  const hostPart = host.includes(":") ? `[${host}]` : host;
  const url = `http://${hostPart}:${port}`;
  let closed = false;
  let restarting: Promise<void> | undefined;

  const sim: Simulator = {
    url,
    wsUrl: `ws://${hostPart}:${port}/api/websocket`,
    apiUrl: `${url}/api`,
    port,
    get haVersion() {
      return ctx.haVersion;
    },
    home,
    users: {
      add: (u) => users.add(u),
      revokeToken: (t) => {
        users.revokeToken(t);
        // HA closes the connections that authenticated with a revoked token.
        for (const c of [...server.connections]) if (c.token === t) c.close();
      },
      tokenFor: (id) => users.tokenFor(id),
    },
    auth: {
      refreshTokens: (userId) => auth.refreshTokens(userId),
      removeRefreshToken: (id) => auth.removeRefreshToken(id),
      ban: (on) => {
        auth.httpFaults.banned = on;
      },
      failTokenEndpoint: (fault) => {
        auth.httpFaults.tokenEndpoint = fault;
      },
    },
    faults: {
      dropAll: () => server.dropAll(),
      restart: async (o) => {
        if (restarting) throw new Error("a restart is already in progress");
        restarting = (async () => {
          await server.stop();
          await new Promise((resolve) => setTimeout(resolve, o.downtimeMs));
          try {
            o.whileDown?.(home);
          } finally {
            // Come back even if whileDown threw, so one bad test step does not leave HA down for the rest.
            if (o.haVersion) ctx.haVersion = o.haVersion;
            if (!closed) await server.listen(port, host);
          }
        })();
        try {
          await restarting;
        } finally {
          restarting = undefined;
        }
      },
      freeze: (on) => {
        ctx.faults.frozen = on;
        if (!on) server.releaseHeld();
      },
      slow: (ms) => {
        ctx.faults.slowMs = Math.max(0, ms);
      },
      refuseAuth: (on) => {
        ctx.faults.refuseAuth = on;
      },
      delayCommand: (type, ms) => {
        if (ms > 0) ctx.faults.delayedCommands.set(type, ms);
        else ctx.faults.delayedCommands.delete(type);
      },
      burst: (o) => burst(home, o),
    },
    stats: () => ({ connections: server.connections.size, messagesSent: ctx.counters.messagesSent }),
    tick: () => {
      automations.tick();
      metersAt = home.now();
      home.advanceMeters(metersAt);
    },
    close: async () => {
      closed = true;
      clearInterval(ticker);
      await restarting?.catch(() => undefined);
      await server.stop();
    },
  };
  return sim;
}
