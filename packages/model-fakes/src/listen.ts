import type { Server } from "node:http";

/** Listens on `port` and `host`; rejects with the listen error (EADDRINUSE) instead of leaving it unhandled. */
export function listen(server: Server, port = 0, host = "127.0.0.1"): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
}
