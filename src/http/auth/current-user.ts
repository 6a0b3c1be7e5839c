import { WebSocket } from "ws";
import type { CreateWebSocket, HassUser } from "../../ha/index.js";

/**
 * Asks Home Assistant who owns a token: a short WebSocket session that
 * authenticates with it and sends `auth/current_user`. REST has no such call.
 */
export function fetchCurrentUser(options: { wsUrl: string; token: string; timeoutMs: number; createWebSocket?: CreateWebSocket }): Promise<HassUser> {
  const socket = (options.createWebSocket ?? ((url) => new WebSocket(url)))(options.wsUrl);
  return new Promise<HassUser>((resolve, reject) => {
    const timer = setTimeout(() => finish(new Error(`no answer from ${options.wsUrl} within ${options.timeoutMs} ms`)), options.timeoutMs);
    const finish = (error: Error | undefined, user?: HassUser) => {
      clearTimeout(timer);
      socket.removeAllListeners();
      socket.on("error", () => {});
      socket.terminate();
      if (error) reject(error);
      else resolve(user as HassUser);
    };
    socket.on("error", (err) => finish(err));
    socket.on("close", () => finish(new Error("Home Assistant closed the connection")));
    socket.on("message", (data) => {
      let messages: unknown;
      try {
        messages = JSON.parse(String(data));
      } catch {
        return finish(new Error("Home Assistant sent a frame that is not JSON"));
      }
      for (const message of Array.isArray(messages) ? messages : [messages]) {
        const m = message as { type?: string; id?: number; success?: boolean; result?: HassUser; message?: string };
        if (m.type === "auth_required") socket.send(JSON.stringify({ type: "auth", access_token: options.token }));
        else if (m.type === "auth_invalid") return finish(new Error(`token rejected: ${m.message ?? "auth_invalid"}`));
        else if (m.type === "auth_ok") socket.send(JSON.stringify({ id: 1, type: "auth/current_user" }));
        else if (m.type === "result" && m.id === 1) {
          return m.success && m.result ? finish(undefined, m.result) : finish(new Error("auth/current_user failed"));
        }
      }
    });
  });
}
