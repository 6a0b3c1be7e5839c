import { createServer, request, type IncomingMessage, type ServerResponse } from "node:http";
import { connect, type Socket } from "node:net";
import type { AddressInfo } from "node:net";

/** A POST of an automation or script config, as Home Assistant's config views receive it. */
const CONFIG_POST = /^\/api\/config\/(automation|script)\/config\//;

/** A POST the proxy holds instead of passing on: the test lets it reach Home Assistant, or drops it. */
export interface HeldPost {
  path: string;
  body: string;
  /** Passes it on to Home Assistant, whoever still waits for the answer. */
  forward(): Promise<void>;
  /** Never passes it on, as if the connection died on the way. */
  drop(): void;
}

export interface ConfigPostCounter {
  /** Where to point the program or client instead of Home Assistant (`HA_URL`); the API is at `${url}/api`. */
  url: string;
  /** The config POSTs Home Assistant received through the proxy, by path. */
  posts: string[];
  /** From now on, the next config POST is held: resolves with it once it arrives. */
  holdNext(): Promise<HeldPost>;
  close(): Promise<void>;
}

/**
 * A proxy in front of the simulator that counts the automation and script
 * config POSTs that reach it, and can hold one back: what a test needs to
 * prove a save happened exactly once, also when the program dies while the
 * save is on its way. Everything else, WebSocket upgrades included, passes
 * through untouched.
 */
export async function startConfigPostCounter(target: { url: string }): Promise<ConfigPostCounter> {
  const upstream = new URL(target.url);
  const posts: string[] = [];
  let hold: ((post: HeldPost) => void) | undefined;
  const sockets = new Set<Socket>();

  const pass = (req: IncomingMessage, res: ServerResponse, body: Buffer) =>
    new Promise<void>((resolve) => {
      const out = request({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        answer.on("end", resolve);
      });
      out.on("error", () => {
        if (!res.headersSent) res.writeHead(502).end();
        resolve();
      });
      out.end(body);
    });

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const counted = req.method === "POST" && CONFIG_POST.test(req.url ?? "");
      if (counted && hold) {
        const take = hold;
        hold = undefined;
        take({
          path: req.url ?? "",
          body: body.toString("utf8"),
          forward: async () => {
            posts.push(req.url ?? "");
            await pass(req, res, body);
          },
          drop: () => res.destroy(),
        });
        return;
      }
      if (counted) posts.push(req.url ?? "");
      void pass(req, res, body);
    });
  });
  // WebSockets go straight through: the raw upgrade request, then bytes both ways.
  server.on("upgrade", (req: IncomingMessage, socket, head: Buffer) => {
    const out = connect(Number(upstream.port), upstream.hostname, () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`, ...Object.entries(req.headers).flatMap(([k, v]) => (Array.isArray(v) ? v.map((x) => `${k}: ${x}`) : [`${k}: ${v}`])), "", ""];
      out.write(lines.join("\r\n"));
      if (head.length) out.write(head);
      out.pipe(socket);
      socket.pipe(out);
    });
    for (const s of [out, socket as Socket]) {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
      s.on("error", () => s.destroy());
    }
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    posts,
    holdNext: () => new Promise((resolve) => (hold = resolve)),
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
