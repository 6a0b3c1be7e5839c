import { join } from "node:path";
import { openGrantStore, type GrantStoreOptions, type NewGrant } from "../../../src/oauth/grants/index.js";
import { createLogger, manualClock } from "../../../src/shared/index.js";
import { useTempDirs } from "../store/temp-dir.js";

/** A logger whose every line (trace and up) is kept, to check what reaches the Log tab. */
export function capturingLogger() {
  const lines: string[] = [];
  const logger = createLogger({ level: "trace", destination: { write: (line: string) => void lines.push(line) } });
  return { logger, lines };
}

export const HA_SECRET = "ha-refresh-token-0123456789-abcdef";

export function signIn(overrides: Partial<NewGrant> = {}): NewGrant {
  return {
    clientId: "client-1",
    clientName: "Claude",
    principal: { id: "user-1", name: "Ada", isAdmin: true },
    resource: "http://ha.local:8099/mcp",
    scope: "mcp",
    haRefreshToken: HA_SECRET,
    haClientId: "http://ha.local:8808/",
    ...overrides,
  };
}

/** Call at a test file's top level: a store on a fresh data directory (removed after each test) with a hand-moved clock. */
export function useGrantStores() {
  const tempDir = useTempDirs();
  return async (options: Partial<GrantStoreOptions> = {}) => {
    const dataDir = options.dataDir ?? (await tempDir());
    const clock = manualClock();
    const { logger, lines } = capturingLogger();
    const open = (more: Partial<GrantStoreOptions> = {}) => openGrantStore({ dataDir, clock, logger, ...options, ...more });
    return { dataDir, clock, lines, open, store: await open(), file: join(dataDir, "oauth", "grants.json") };
  };
}
