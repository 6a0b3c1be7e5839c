import { ERR_INVALID_AUTH, type HaWebSocket } from "home-assistant-js-websocket";
import { WebSocket } from "ws";
import { describeError, type Logger } from "../shared/index.js";
import { backoffDelay, type BackoffOptions } from "./backoff.js";
import { HaAuthError } from "./errors.js";
import { openAuthenticatedSocket, type CreateWebSocket } from "./socket.js";

/** Thrown inside the connect loop when close() interrupts it. */
export class ClosedWhileConnecting extends Error {}

const CLOSE_GRACE_MS = 1_000;

export interface DialerOptions {
  wsUrl: string;
  token: string;
  logger: Logger;
  createWebSocket: CreateWebSocket;
  /** How long one attempt may take from opening the socket to `auth_ok`. */
  handshakeTimeoutMs: number;
  backoff: BackoffOptions;
  random: () => number;
  /** Keep retrying when the very first attempt cannot reach HA, instead of rejecting. */
  retryInitial: boolean;
  closed: () => boolean;
  /** Called when HA refuses the token; no attempt follows. */
  onAuthFailed: () => void;
}

/** Opens authenticated sockets to HA, one attempt after another with backoff and jitter between them. */
export interface Dialer {
  /** Attempts until one succeeds; HaAuthError and (for the first connect without retryInitial) HaConnectionError end it. */
  dial(initial: boolean): Promise<HaWebSocket>;
  /** What the library calls after a drop. It must never see our errors except invalid auth. */
  redial(): Promise<HaWebSocket>;
  /** The socket of the last successful attempt, and the HA version it reported. */
  readonly socket: WebSocket | undefined;
  readonly haVersion: string | undefined;
  /**
   * Ends dialing: a backoff wait ends at once and a socket still in its
   * handshake is dropped. `closeCurrent` is false when the library closes
   * the current socket itself. Resolves once the sockets are closed.
   */
  hangUp(o: { closeCurrent: boolean }): Promise<void>;
}

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

export function createDialer(options: DialerOptions): Dialer {
  const { logger: log, closed } = options;
  let socket: WebSocket | undefined;
  let attemptSocket: WebSocket | undefined;
  let haVersion: string | undefined;
  let cancelSleep: (() => void) | undefined;

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
      createWebSocket: options.createWebSocket,
      timeoutMs: options.handshakeTimeoutMs,
      onSocket: (s) => {
        attemptSocket = s;
      },
    });
    attemptSocket = undefined;
    if (closed()) {
      opened.socket.terminate();
      throw new ClosedWhileConnecting();
    }
    socket = opened.socket;
    haVersion = opened.haVersion;
    // ws throws an 'error' with no listener; the 'close' that follows drives reconnection.
    opened.socket.on("error", (err) => log.debug({ err: err.message }, "HA WebSocket error"));
    return Object.assign(opened.socket, { haVersion: opened.haVersion }) as unknown as HaWebSocket;
  }

  async function dial(initial: boolean): Promise<HaWebSocket> {
    for (let attempt = 1; ; attempt++) {
      const backoffStep = initial ? attempt - 1 : attempt;
      if (backoffStep > 0) {
        const delayMs = backoffDelay(backoffStep, options.backoff, options.random);
        log.info({ attempt, delayMs }, `HA ${initial ? "connect" : "reconnect"} attempt ${attempt} in ${(delayMs / 1000).toFixed(1)}s`);
        if (!(await sleep(delayMs))) throw new ClosedWhileConnecting();
      }
      if (closed()) throw new ClosedWhileConnecting();
      try {
        return await attemptOnce();
      } catch (err) {
        if (closed() || err instanceof ClosedWhileConnecting) throw new ClosedWhileConnecting();
        if (err instanceof HaAuthError) {
          options.onAuthFailed();
          log.error({ url: options.wsUrl }, `HA auth failed, not retrying: ${err.message}`);
          throw err;
        }
        if (initial && !options.retryInitial) throw err;
        log.warn({ attempt, err: describeError(err) }, "HA connection attempt failed");
      }
    }
  }

  return {
    dial,
    async redial() {
      try {
        return await dial(false);
      } catch (err) {
        // The library's own signal for a refused token.
        if (err instanceof HaAuthError) throw ERR_INVALID_AUTH;
        // Closed while reconnecting: leave the library waiting forever rather than let it schedule retries.
        return new Promise<HaWebSocket>(() => undefined);
      }
    },
    get socket() {
      return socket;
    },
    get haVersion() {
      return haVersion;
    },
    async hangUp({ closeCurrent }) {
      cancelSleep?.();
      const sockets = [socket, attemptSocket].filter((s): s is WebSocket => s !== undefined);
      if (closeCurrent) socket?.close();
      attemptSocket?.terminate();
      await Promise.all(sockets.map(socketClosed));
    },
  };
}
