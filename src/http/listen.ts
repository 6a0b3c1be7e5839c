import type { Server } from "node:http";
import type { Socket } from "node:net";

/**
 * Starts listening and resolves with the bound port; rejects with a clear
 * message when the port is taken, naming the setting that moves it.
 */
export function listen(server: Server, port: number, host: string, what: string, setting?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => {
      server.off("listening", onListening);
      if (err.code === "EADDRINUSE") {
        const move = setting ? `set ${setting} to another port (0 picks a free one)` : "choose another port";
        reject(new Error(`${what} cannot listen on ${host}:${port}: the port is already in use (by another HA Agent, such as a demo still running?). Stop the other program, or ${move}.`));
      }
      else reject(new Error(`${what} cannot listen on ${host}:${port}: ${err.message}`));
    };
    const onListening = () => {
      server.off("error", onError);
      const address = server.address();
      resolve(typeof address === "object" && address ? address.port : port);
    };
    server.once("error", onError);
    server.once("listening", onListening);
    server.listen(port, host);
  });
}

/**
 * Closes a server and every connection it holds, so shutdown never waits
 * for an idle keep-alive socket or a long-lived event stream.
 */
export function trackConnections(server: Server): () => Promise<void> {
  const sockets = new Set<Socket>();
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  return () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
      for (const socket of sockets) socket.destroy();
    });
}
