import { createConnection, createLongLivedTokenAuth, ERR_INVALID_AUTH, type Connection } from "home-assistant-js-websocket";
import { WebSocket } from "ws";

/**
 * Connects the real home-assistant-js-websocket client to a simulator. On
 * Node the library needs a `createSocket` that performs the auth handshake
 * itself and hands back an authenticated socket.
 */
export async function connectHaws(url: string, token: string): Promise<Connection> {
  const auth = createLongLivedTokenAuth(url, token);
  return createConnection({
    auth,
    createSocket: () =>
      new Promise((resolve, reject) => {
        const socket = new WebSocket(auth.wsUrl);
        socket.on("error", reject);
        socket.on("message", (data) => {
          const msg = JSON.parse(data.toString()) as { type: string; ha_version?: string };
          if (msg.type === "auth_required") socket.send(JSON.stringify({ type: "auth", access_token: auth.accessToken }));
          else if (msg.type === "auth_invalid") reject(ERR_INVALID_AUTH);
          else if (msg.type === "auth_ok") {
            socket.removeAllListeners("message");
            socket.removeAllListeners("error");
            // The library reads the version from the socket and works with the browser-style event API, which ws offers.
            (socket as unknown as { haVersion?: string }).haVersion = msg.ha_version;
            socket.send(JSON.stringify({ type: "supported_features", id: 1, features: { coalesce_messages: 1 } }));
            resolve(socket as never);
          }
        });
      }),
  });
}
