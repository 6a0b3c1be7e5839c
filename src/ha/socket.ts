import type { WebSocket } from "ws";
import { describeError } from "../shared/index.js";
import { HaAuthError, HaConnectionError } from "./errors.js";

export type CreateWebSocket = (url: string) => WebSocket;

export interface AuthenticatedSocket {
  socket: WebSocket;
  haVersion: string;
}

/** HA answers `supported_features` only from 2022.9; older versions reject it. */
function supportsFeatures(version: string): boolean {
  const [year, month] = version.split(".").map((part) => Number.parseInt(part, 10));
  if (year === undefined || Number.isNaN(year)) return true;
  return year > 2022 || (year === 2022 && (month ?? 0) >= 9);
}

/**
 * Opens one WebSocket to HA and runs the auth phase. Resolves with an open,
 * authenticated socket; rejects with HaAuthError on `auth_invalid` and with
 * HaConnectionError on anything else (refused, closed early, or silent for
 * `timeoutMs`, which is how a frozen HA shows).
 *
 * `onSocket` hands out the socket as soon as it exists, so that a caller
 * shutting down can terminate an attempt that is still in progress.
 */
export function openAuthenticatedSocket(args: {
  url: string;
  token: string;
  createWebSocket: CreateWebSocket;
  timeoutMs: number;
  onSocket?: (socket: WebSocket) => void;
}): Promise<AuthenticatedSocket> {
  const { url, token, timeoutMs } = args;
  return new Promise((resolve, reject) => {
    let socket: WebSocket;
    try {
      socket = args.createWebSocket(url);
    } catch (err) {
      reject(new HaConnectionError(url, describeError(err), { cause: err }));
      return;
    }
    args.onSocket?.(socket);
    let haVersion = "";
    let settled = false;

    const cleanup = () => {
      clearTimeout(timer);
      socket.off("message", onMessage);
      socket.off("close", onClose);
      socket.off("error", onError);
    };
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      cleanup();
      // Keep a listener so a late 'error' from the dead socket cannot crash the process.
      socket.on("error", () => undefined);
      socket.terminate();
      reject(err);
    };
    const onError = (err: Error) => fail(new HaConnectionError(url, err.message, { cause: err }));
    const onClose = (code: number) => fail(new HaConnectionError(url, `the connection closed during the auth phase (close code ${code})`));
    const onMessage = (data: unknown) => {
      let message: { type?: unknown; ha_version?: unknown; message?: unknown };
      try {
        message = JSON.parse(String(data)) as typeof message;
      } catch {
        fail(new HaConnectionError(url, "the server sent something that is not JSON; is this really Home Assistant's /api/websocket endpoint?"));
        return;
      }
      if (typeof message.ha_version === "string") haVersion = message.ha_version;
      switch (message.type) {
        case "auth_required":
          socket.send(JSON.stringify({ type: "auth", access_token: token }));
          break;
        case "auth_invalid":
          fail(new HaAuthError(`auth_invalid: ${typeof message.message === "string" ? message.message : "no reason given"}`));
          break;
        case "auth_ok":
          settled = true;
          cleanup();
          // id 1 is reserved for this by home-assistant-js-websocket, whose ids start at 2.
          if (supportsFeatures(haVersion)) {
            socket.send(JSON.stringify({ type: "supported_features", id: 1, features: { coalesce_messages: 1 } }));
          }
          resolve({ socket, haVersion });
          break;
        default:
          break;
      }
    };

    const timer = setTimeout(() => {
      fail(new HaConnectionError(url, `no auth answer within ${timeoutMs} ms`));
    }, timeoutMs);
    timer.unref();
    socket.on("message", onMessage);
    socket.on("close", onClose);
    socket.on("error", onError);
  });
}
