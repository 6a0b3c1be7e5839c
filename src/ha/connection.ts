import { createConnection, type Connection } from "home-assistant-js-websocket";
import { WebSocket } from "ws";
import { describeError, systemClock, type Clock, type Logger } from "../shared/index.js";
import { DEFAULT_BACKOFF, type BackoffOptions } from "./backoff.js";
import { ClosedWhileConnecting, createDialer } from "./dialer.js";
import { HaAuthError, HaNotConnectedError } from "./errors.js";
import { createLinkWatch } from "./link.js";
import type { CreateWebSocket } from "./socket.js";
import { createStatusHub } from "./status-hub.js";
import type { ConnectionStatus } from "./types.js";

export interface ConnectionOptions {
  wsUrl: string;
  token: string;
  logger: Logger;
  clock?: Clock;
  createWebSocket?: CreateWebSocket;
  pingIntervalMs?: number;
  pongTimeoutMs?: number;
  /** How long one attempt may take from opening the socket to `auth_ok`. Default 10 000. */
  handshakeTimeoutMs?: number;
  backoff?: BackoffOptions;
  /** Keep retrying (with backoff) when the very first attempt cannot reach HA, instead of rejecting. */
  retryInitial?: boolean;
  /** For tests of the jitter; default Math.random. */
  random?: () => number;
}

export interface ManagedConnection {
  readonly status: ConnectionStatus;
  readonly haVersion: string | undefined;
  /** The library connection while one exists (it survives reconnects). */
  current(): Connection | undefined;
  onStatus(listener: (status: ConnectionStatus) => void): () => void;
  onReady(listener: () => void): () => void;
  connect(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Owns the WebSocket lifecycle around home-assistant-js-websocket: the dialer
 * does the auth phase over `ws` and the backoff between attempts, the link
 * watch the heartbeat and the resync cue, the hub the status. The library
 * keeps doing ids, reply matching and resubscription.
 */
export function createManagedConnection(options: ConnectionOptions): ManagedConnection {
  const log = options.logger;
  const hub = createStatusHub(log);
  let conn: Connection | undefined;
  let closed = false;
  let connectPromise: Promise<void> | undefined;
  let closePromise: Promise<void> | undefined;
  const dialer = createDialer({
    wsUrl: options.wsUrl,
    token: options.token,
    logger: log,
    createWebSocket: options.createWebSocket ?? ((url: string) => new WebSocket(url)),
    handshakeTimeoutMs: options.handshakeTimeoutMs ?? 10_000,
    backoff: options.backoff ?? DEFAULT_BACKOFF,
    random: options.random ?? Math.random,
    retryInitial: options.retryInitial ?? false,
    closed: () => closed,
    onAuthFailed: () => hub.set("auth_failed"),
  });
  const link = createLinkWatch({
    wsUrl: options.wsUrl,
    logger: log,
    clock: options.clock ?? systemClock,
    pingIntervalMs: options.pingIntervalMs ?? 30_000,
    pongTimeoutMs: options.pongTimeoutMs ?? 10_000,
    hub,
  });

  function onConnected(first: boolean) {
    const socket = dialer.socket;
    if (!socket || !conn) return;
    link.up({ library: conn, socket, haVersion: dialer.haVersion, first });
  }

  async function doConnect(): Promise<void> {
    hub.set("connecting");
    try {
      const created = await createConnection({
        setupRetry: 0,
        createSocket: () => (conn ? dialer.redial() : dialer.dial(true)),
      });
      if (closed) {
        created.close();
        throw new ClosedWhileConnecting();
      }
      conn = created;
    } catch (err) {
      connectPromise = undefined;
      if (err instanceof ClosedWhileConnecting) throw new HaNotConnectedError("the client was closed before the connection was ready");
      if (!(err instanceof HaAuthError)) {
        log.error({ url: options.wsUrl, err: describeError(err) }, "could not connect to Home Assistant");
        hub.set("closed");
      }
      throw err;
    }
    // The library fires 'ready' for the first socket inside its constructor, before anyone can listen.
    conn.addEventListener("ready", () => onConnected(false));
    conn.addEventListener("disconnected", () => link.down());
    onConnected(true);
  }

  async function doClose(): Promise<void> {
    closed = true;
    link.stop();
    hub.set("closed");
    // The library closes its own socket; without one yet, the dialer closes what it opened.
    if (conn) conn.close();
    await dialer.hangUp({ closeCurrent: !conn });
    log.info("connection to Home Assistant closed");
  }

  return {
    get status() {
      return hub.status;
    },
    get haVersion() {
      return dialer.haVersion;
    },
    current: () => conn,
    onStatus: (listener) => hub.onStatus(listener),
    onReady: (listener) => hub.onReady(listener),
    connect() {
      if (closed) return Promise.reject(new HaNotConnectedError("the client is closed; create a new one"));
      connectPromise ??= doConnect();
      return connectPromise;
    },
    close() {
      closePromise ??= doClose();
      return closePromise;
    },
  };
}
