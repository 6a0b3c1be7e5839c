import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { silentLogger, type Logger } from "../common/index.js";
import { addonInfo, simAddon, type SimAddon } from "./addons.js";
import { coreInfo, networkInfo } from "./host-info.js";
import { createCoreSocketProxy, proxyCoreRest } from "./core-proxy.js";
import { DiscoveryBook, type DiscoveryEntry, type DiscoveryRequest } from "./discovery-book.js";
import { proxyIngress, type IngressUser } from "./ingress.js";

/** The Home Assistant behind the Supervisor: a running simulator's endpoints. */
export interface SupervisedHa {
  apiUrl: string;
  wsUrl: string;
  readonly haVersion: string;
  users: { tokenFor(userId?: string): string };
}

export interface SupervisorOptions {
  ha: SupervisedHa;
  /** The add-on under test (first) and any others; default one `local_ha_agent` that may announce `mcp`. */
  addons?: SimAddon[];
  /** Default 0: an ephemeral port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  logger?: Logger;
  /** Who opened the add-on's panel: ingress names them to the add-on (none when absent). */
  ingressUser?: IngressUser;
  /** The host's address on the home network, as `/network/info` reports it (default 127.0.0.1, where the tests' browsers reach it). */
  hostAddress?: string;
}

export interface SupervisorSimulator {
  /** What SUPERVISOR_URL is set to. */
  url: string;
  port: number;
  /** The add-on under test, whose token is its SUPERVISOR_TOKEN. */
  addon: SimAddon;
  /** The add-on's panel through ingress, as Home Assistant's sidebar opens it: `{url}/api/hassio_ingress/{token}/`. */
  ingressUrl: string;
  addons: readonly SimAddon[];
  discovery: {
    /** The discovery messages held now. */
    list(): DiscoveryEntry[];
    /** Every POST and DELETE to /discovery, in order, with the status answered. */
    readonly requests: readonly DiscoveryRequest[];
  };
  faults: {
    /** While set, /discovery answers this HTTP status (e.g. 500) and changes nothing. */
    failDiscovery(status: number | undefined): void;
  };
  close(): Promise<void>;
}

const SUPERVISOR_VERSION = "2026.11.0";

/**
 * A Supervisor in front of a simulated Home Assistant: Core's API and
 * WebSocket through its proxy, `/info`, `/addons/self/info`, and discovery,
 * each behind the Supervisor's token check, with the Supervisor's answers.
 */
export async function startSupervisor(options: SupervisorOptions): Promise<SupervisorSimulator> {
  const addons = options.addons?.length ? options.addons : [simAddon({ slug: "local_ha_agent", name: "HA Agent", discovery: ["mcp"] })];
  const logger = options.logger ?? silentLogger;
  const book = new DiscoveryBook();
  const ingressToken = randomBytes(16).toString("base64url");
  // Served here because the simulated Home Assistant has no frontend; under HA this path is on Core's port.
  const ingressPrefix = `/api/hassio_ingress/${ingressToken}`;
  let failDiscovery: number | undefined;
  const byToken = (token: string) => (token === "" ? undefined : addons.find((a) => a.token === token));
  const target = { apiUrl: options.ha.apiUrl, wsUrl: options.ha.wsUrl, token: options.ha.users.tokenFor(), haVersion: () => options.ha.haVersion };
  const known = (token: string) => byToken(token) !== undefined;
  const sockets = createCoreSocketProxy({ target, known });

  async function route(req: IncomingMessage, res: ServerResponse): Promise<unknown> {
    const url = new URL(req.url ?? "/", "http://supervisor");
    const path = url.pathname;
    const ingress = path.startsWith(`${ingressPrefix}/`) || path === ingressPrefix;
    if (ingress) return proxyIngress({ req, res, addon: addons[0]!, prefix: ingressPrefix, path: `${path.slice(ingressPrefix.length) || "/"}${url.search}`, user: options.ingressUser });
    if (path === "/core/api" || path.startsWith("/core/api/")) {
      return proxyCoreRest({ req, res, path: path.slice("/core/api/".length), search: url.search, target, known });
    }
    const token = supervisorToken(req);
    if (token === undefined) return text(res, 401, "401: Unauthorized");
    const addon = byToken(token);
    if (!addon) return text(res, 403, "403: Forbidden");
    const method = req.method ?? "GET";
    if (method === "GET" && path === "/info") return ok(res, systemInfo(options.ha.haVersion));
    if (method === "GET" && path === "/addons/self/info") return ok(res, addonInfo(addon, ingressToken));
    // Other `/…/info` need hassio_api in the add-on's config.yaml (the default role allows exactly those).
    if (method === "GET" && /^\/.+\/info$/.test(path) && !addon.hassioApi) return text(res, 403, "403: Forbidden");
    if (method === "GET" && path === "/network/info") return ok(res, networkInfo(options.hostAddress ?? "127.0.0.1"));
    if (method === "GET" && path === "/core/info") {
      const core = new URL(options.ha.apiUrl);
      return ok(res, coreInfo({ haVersion: options.ha.haVersion, port: Number(core.port), ssl: core.protocol === "https:" }));
    }
    // Only Home Assistant itself may list discovery messages.
    if (method === "GET" && path === "/discovery") return text(res, 401, "401: Unauthorized");
    if (method === "POST" && path === "/discovery") {
      const body = await readJson(req);
      const status = postDiscovery(addon, body, res);
      book.requests.push({ method: "POST", addon: addon.slug, target: String((body as { service?: unknown } | undefined)?.service ?? ""), status });
      return;
    }
    const match = /^\/discovery\/([^/]+)$/.exec(path);
    if (method === "DELETE" && match) {
      const status = deleteDiscovery(addon, decodeURIComponent(match[1]!), res);
      book.requests.push({ method: "DELETE", addon: addon.slug, target: match[1]!, status });
      return;
    }
    error(res, 404, `${method} ${path} is not served by the simulated Supervisor.`);
  }

  function postDiscovery(addon: SimAddon, body: unknown, res: ServerResponse): number {
    if (failDiscovery !== undefined) return error(res, failDiscovery, "Unknown error, see Supervisor logs");
    const { service, config } = (body ?? {}) as { service?: unknown; config?: unknown };
    if (typeof service !== "string") return error(res, 400, "required key not provided @ data['service']");
    if (typeof config !== "object" || config === null || Array.isArray(config)) return error(res, 400, "expected dict for dictionary value @ data['config']");
    if (!addon.discovery.includes(service)) return error(res, 403, "Apps must list services they provide via discovery in their config!");
    const entry = book.post({ addon: addon.slug, service, config: config as Record<string, unknown> });
    logger.info({ addon: addon.slug, service, uuid: entry.uuid }, "discovery message posted");
    return ok(res, { uuid: entry.uuid });
  }

  function deleteDiscovery(addon: SimAddon, uuid: string, res: ServerResponse): number {
    if (failDiscovery !== undefined) return error(res, failDiscovery, "Unknown error, see Supervisor logs");
    const entry = book.get(uuid);
    if (!entry) return error(res, 404, "Discovery message not found");
    if (entry.addon !== addon.slug) return error(res, 403, "Can't remove discovery message");
    book.remove(uuid);
    return ok(res, {});
  }

  const server = createServer((req, res) => {
    route(req, res).catch((err: unknown) => {
      logger.error({ err }, "simulated Supervisor request failed");
      if (!res.headersSent) error(res, 500, "Unknown error, see Supervisor logs");
    });
  });
  server.on("upgrade", (req, socket, head) => {
    const path = new URL(req.url ?? "/", "http://supervisor").pathname;
    if (path === "/core/websocket" || path === "/core/api/websocket") sockets.upgrade(req, socket, head);
    else socket.destroy();
  });
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as { port: number }).port;
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  return {
    url,
    ingressUrl: `${url}${ingressPrefix}/`,
    port,
    addon: addons[0]!,
    addons,
    discovery: { list: () => book.list(), requests: book.requests },
    faults: {
      failDiscovery: (status) => {
        failDiscovery = status;
      },
    },
    close: async () => {
      sockets.closeAll();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}

/** The Supervisor's token headers, in the order it reads them; Authorization's last word is the token. */
function supervisorToken(req: IncomingMessage): string | undefined {
  const header = req.headers["x-supervisor-token"] ?? req.headers["x-hassio-key"];
  if (typeof header === "string" && header !== "") return header;
  const authorization = req.headers.authorization;
  return authorization ? (authorization.split(" ").at(-1) ?? "") : undefined;
}

function systemInfo(haVersion: string): Record<string, unknown> {
  return {
    supervisor: SUPERVISOR_VERSION,
    homeassistant: haVersion,
    hassos: null,
    docker: "28.3.3",
    hostname: "homeassistant",
    operating_system: "Simulated Linux",
    features: ["hassos"],
    machine: "qemux86-64",
    arch: "amd64",
    state: "running",
    supported_arch: ["amd64"],
    supported: true,
    channel: "stable",
    logging: "info",
    timezone: "UTC",
  };
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    return undefined;
  }
}

function ok(res: ServerResponse, data: unknown): number {
  return json(res, 200, { result: "ok", data });
}

function error(res: ServerResponse, status: number, message: string): number {
  return json(res, status, { result: "error", message });
}

function json(res: ServerResponse, status: number, body: unknown): number {
  const text = JSON.stringify(body);
  res.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text) }).end(text);
  return status;
}

function text(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { "Content-Type": "text/plain; charset=utf-8" }).end(body);
}
