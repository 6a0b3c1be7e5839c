import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface IngressUser {
  id: string;
  name: string;
}

/**
 * A stand-in for the Supervisor's ingress proxy: it serves the status page
 * under `/api/hassio_ingress/{token}/`, strips that prefix and adds
 * X-Ingress-Path and the user headers, from loopback, as the Supervisor
 * does from its own address.
 */
export async function startIngressProxy(target: string, user: () => IngressUser | undefined): Promise<{ url: string; prefix: string; close(): Promise<void> }> {
  const prefix = "/api/hassio_ingress/Xk3aQ9zT";
  const upstream = new URL(target);
  const server: Server = createServer((req, res) => {
    if (!req.url?.startsWith(`${prefix}/`)) {
      res.writeHead(404).end();
      return;
    }
    const who = user();
    // As Home Assistant's ingress does: the add-on is told the host the person opened (X-Forwarded-Host).
    const headers = { ...req.headers, host: upstream.host, "x-forwarded-host": req.headers.host ?? "", "x-ingress-path": prefix, ...(who ? { "x-remote-user-id": who.id, "x-remote-user-name": who.name, "x-remote-user-display-name": who.name } : {}) };
    const out = request({ host: upstream.hostname, port: upstream.port, path: req.url.slice(prefix.length), method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    out.on("error", () => (res.headersSent ? res.destroy() : res.writeHead(502).end()));
    // A browser that leaves (an EventSource closed) ends the upstream request too, as ingress does.
    res.on("close", () => out.destroy());
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}${prefix}/`,
    prefix,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
