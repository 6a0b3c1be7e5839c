import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { startApp, type App } from "../../src/app.js";
import { loadConfig } from "../../src/config/index.js";
import { silentLogger, systemClock, type Clock, type Logger } from "../../src/shared/index.js";
import type { StoreFs } from "../../src/store/index.js";
import { demoHouse, startSimulator, type Simulator } from "@ha-agent/ha-simulator";

export interface Stack {
  app: App;
  sim: Simulator;
  /** `http://127.0.0.1:PORT/mcp` */
  mcpUrl: string;
  /** The MCP listener's base URL, for `/healthz`. */
  baseUrl: string;
  /** A token the simulated HA accepts (an admin user's). */
  token: string;
  /** An MCP SDK client speaking 2026-07-28, connected with `token`. */
  client: Client;
  /** Another connected client for the given token. */
  connect(token: string): Promise<Client>;
  close(): Promise<void>;
}

export interface StackOptions {
  /** Extra environment for the program, e.g. `{ TOOL_NAME_SEPARATOR: "." }`. */
  env?: Record<string, string>;
  /** Reuse a data directory (to test restarts); a fresh temp dir otherwise. */
  dataDir?: string;
  /** Reuse a running simulator instead of starting one. */
  sim?: Simulator;
  logger?: Logger;
  /** How long accepted tokens are cached (default 60 s, as in production). */
  authCacheMs?: number;
  /** The store's file system, to inject disk faults. */
  storeFs?: StoreFs;
  /** How long HA's yes to a sign-in is trusted (default 30 s, as in production). */
  oauthRecheckMs?: number;
  /** The program's clock (default the system's); give the simulator the same one. */
  clock?: Clock;
}

/** The MCP protocol revision HA Agent serves natively. */
export const MODERN_PROTOCOL = "2026-07-28";

/**
 * An MCP SDK client pinned to 2026-07-28 (no `initialize`, no session), or in
 * `auto` mode, where it asks `server/discover` first and falls back to 2025.
 */
export async function connectClient(mcpUrl: string, token: string, mode: "pin" | "auto" = "pin"): Promise<Client> {
  const client = new Client({ name: "ha-agent-tests", version: "1.0.0" }, { versionNegotiation: { mode: mode === "pin" ? { pin: MODERN_PROTOCOL } : "auto" } });
  await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}

/**
 * The whole program in-process, in standalone mode against a simulator over
 * real sockets, with a connected MCP client.
 */
export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const sim = options.sim ?? (await startSimulator({ house: demoHouse() }));
  const ownsSim = !options.sim;
  const ownsDataDir = !options.dataDir;
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), "ha-agent-stack-")));
  const token = sim.users.tokenFor();
  const config = await loadConfig({
    env: { HA_URL: sim.url, HA_TOKEN: token, DATA_DIR: dataDir, MCP_PORT: "0", STATUS_PORT: "0", ...options.env },
    readFile: async () => undefined,
  });
  const app = await startApp({
    config,
    logger: options.logger ?? silentLogger,
    clock: options.clock ?? systemClock,
    host: "127.0.0.1",
    authCacheMs: options.authCacheMs,
    ...(options.oauthRecheckMs !== undefined ? { oauthRecheckMs: options.oauthRecheckMs } : {}),
    ...(options.storeFs ? { storeFs: options.storeFs } : {}),
    // Fast heartbeat and reconnects, so outage tests run in seconds.
    haTiming: { pingIntervalMs: 500, pongTimeoutMs: 500, backoff: { initialMs: 50, maxMs: 500 } },
  });
  await app.ready;
  const clients: Client[] = [];
  const connect = async (t: string) => {
    const c = await connectClient(app.mcpUrl, t);
    clients.push(c);
    return c;
  };
  const client = await connect(token);
  return {
    app,
    sim,
    mcpUrl: app.mcpUrl,
    baseUrl: app.mcpUrl.replace(/\/mcp$/, ""),
    token,
    client,
    connect,
    async close() {
      await Promise.all(clients.map((c) => c.close().catch(() => {})));
      await app.stop();
      if (ownsSim) await sim.close();
      if (ownsDataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}
