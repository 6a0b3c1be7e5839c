import { createConnection, ERR_INVALID_AUTH, type Connection, type HaWebSocket } from "home-assistant-js-websocket";
import { WebSocket } from "ws";
import { describeError, systemClock, type Clock, type Logger } from "../shared/index.js";
import { backoffDelay, DEFAULT_BACKOFF, type BackoffOptions } from "./backoff.js";
import { HaAuthError, HaNotConnectedError } from "./errors.js";
import { startHeartbeat } from "./heartbeat.js";
import { openAuthenticatedSocket, type CreateWebSocket } from "./socket.js";
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

/** Thrown inside the connect loop when close() interrupts it. */
class ClosedWhileConnecting extends Error {}

const CLOSE_GRACE_MS = 1_000;

function socketClosed(socket: WebSocket): Promise<void> {
  if (socket.readyState === WebSocket.CLOSED) return Promise.resolve();
  return new Promise((resolve) => {
    // A frozen peer never completes the closing handshake; do not wait ws's 30 s for it.
    const timer = setTimeout(() => socket.terminate(), CLOSE_GRACE_MS);
    timer.unref();
    socket.once("close", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/**
 * Owns the WebSocket lifecycle around home-assistant-js-websocket: the auth
 * phase over `ws`, exponential backoff with jitter between attempts, the
 * ping/pong heartbeat, and status/ready notifications. The library keeps
 * doing ids, reply matching and resubscription.
 */
export function createManagedConnection(options: ConnectionOptions): ManagedConnection {
  const log = options.logger;
  const clock = options.clock ?? systemClock;
  const createWebSocket = options.createWebSocket ?? ((url: string) => new WebSocket(url));
  const pingIntervalMs = options.pingIntervalMs ?? 30_000;
  const pongTimeoutMs = options.pongTimeoutMs ?? 10_000;
  const handshakeTimeoutMs = options.handshakeTimeoutMs ?? 10_000;
  const backoff = options.backoff ?? DEFAULT_BACKOFF;
  const random = options.random ?? Math.random;

  let status: ConnectionStatus = "connecting";
  let haVersion: string | undefined;
  let conn: Connection | undefined;
  let socket: WebSocket | undefined;
  let attemptSocket: WebSocket | undefined;
  let heartbeat: { stop(): void } | undefined;
  let closed = false;
  let lostAt = 0;
  let cancelSleep: (() => void) | undefined;
  let connectPromise: Promise<void> | undefined;
  let closePromise: Promise<void> | undefined;
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

  function setStatus(next: ConnectionStatus) {
    if (next === status) return;
    status = next;
    notify(statusListeners, "status", next);
  }

  function sleep(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        cancelSleep = undefined;
        resolve(true);
      }, ms);
      cancelSleep = () => {
        clearTimeout(timer);
        cancelSleep = undefined;
        resolve(false);
      };
    });
  }

  async function attemptOnce(): Promise<HaWebSocket> {
    const opened = await openAuthenticatedSocket({
      url: options.wsUrl,
      token: options.token,
      createWebSocket,
      timeoutMs: handshakeTimeoutMs,
      onSocket: (s) => {
        attemptSocket = s;
      },
    });
    attemptSocket = undefined;
    if (closed) {
      opened.socket.terminate();
      throw new ClosedWhileConnecting();
    }
    socket = opened.socket;
    haVersion = opened.haVersion;
    // ws throws an 'error' with no listener; the 'close' that follows drives reconnection.
    opened.socket.on("error", (err) => log.debug({ err: err.message }, "HA WebSocket error"));
    return Object.assign(opened.socket, { haVersion: opened.haVersion }) as unknown as HaWebSocket;
  }

  /** Attempts until one succeeds; HaAuthError and (for the first connect without retryInitial) HaConnectionError end it. */
  async function connectLoop(initial: boolean): Promise<HaWebSocket> {
    for (let attempt = 1; ; attempt++) {
      const backoffStep = initial ? attempt - 1 : attempt;
      if (backoffStep > 0) {
        const delayMs = backoffDelay(backoffStep, backoff, random);
        log.info({ attempt, delayMs }, `HA ${initial ? "connect" : "reconnect"} attempt ${attempt} in ${(delayMs / 1000).toFixed(1)}s`);
        if (!(await sleep(delayMs))) throw new ClosedWhileConnecting();
      }
      if (closed) throw new ClosedWhileConnecting();
      try {
        return await attemptOnce();
      } catch (err) {
        if (closed || err instanceof ClosedWhileConnecting) throw new ClosedWhileConnecting();
        if (err instanceof HaAuthError) {
          setStatus("auth_failed");
          log.error({ url: options.wsUrl }, `HA auth failed, not retrying: ${err.message}`);
          throw err;
        }
        if (initial && !options.retryInitial) throw err;
        log.warn({ attempt, err: describeError(err) }, "HA connection attempt failed");
      }
    }
  }

  /** What the library calls after a drop. It must never see our errors except invalid auth. */
  async function reconnectSocket(): Promise<HaWebSocket> {
    try {
      return await connectLoop(false);
    } catch (err) {
      if (err instanceof HaAuthError) throw ERR_INVALID_AUTH;
      // Closed while reconnecting: leave the library waiting forever rather than let it schedule retries.
      return new Promise<HaWebSocket>(() => undefined);
    }
  }

  function onConnected(first: boolean) {
    const current = socket;
    if (!current || !conn) return;
    const library = conn;
    heartbeat?.stop();
    heartbeat = startHeartbeat({
      intervalMs: pingIntervalMs,
      timeoutMs: pongTimeoutMs,
      ping: () => library.ping(),
      onTimeout: () => {
        log.warn({ pongTimeoutMs }, `HA did not answer a ping within ${pongTimeoutMs} ms; dropping the connection to reconnect`);
        current.terminate();
      },
    });
    setStatus("connected");
    if (first) log.info({ url: options.wsUrl, haVersion }, "connected to Home Assistant");
    else log.info({ haVersion, downMs: clock.now() - lostAt }, "reconnected to Home Assistant; subscriptions restored, resyncing");
    notify(readyListeners, "ready");
  }

  function onDisconnected() {
    heartbeat?.stop();
    heartbeat = undefined;
    lostAt = clock.now();
    log.warn({ url: options.wsUrl }, "connection to Home Assistant lost; reconnecting");
    setStatus("reconnecting");
  }

  async function doConnect(): Promise<void> {
    setStatus("connecting");
    try {
      const created = await createConnection({
        setupRetry: 0,
        createSocket: () => (conn ? reconnectSocket() : connectLoop(true)),
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
        setStatus("closed");
      }
      throw err;
    }
    // The library fires 'ready' for the first socket inside its constructor, before anyone can listen.
    conn.addEventListener("ready", () => onConnected(false));
    conn.addEventListener("disconnected", onDisconnected);
    onConnected(true);
  }

  async function doClose(): Promise<void> {
    closed = true;
    heartbeat?.stop();
    cancelSleep?.();
    setStatus("closed");
    const sockets = [socket, attemptSocket].filter((s): s is WebSocket => s !== undefined);
    if (conn) conn.close();
    else socket?.close();
    attemptSocket?.terminate();
    await Promise.all(sockets.map(socketClosed));
    log.info("connection to Home Assistant closed");
  }

  return {
    get status() {
      return status;
    },
    get haVersion() {
      return haVersion;
    },
    current: () => conn,
    onStatus(listener) {
      statusListeners.add(listener);
      return () => statusListeners.delete(listener);
    },
    onReady(listener) {
      readyListeners.add(listener);
      return () => readyListeners.delete(listener);
    },
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
