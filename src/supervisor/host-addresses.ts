import { describeError, hostOfUrl, type Clock, type Logger } from "../shared/index.js";
import type { NetworkInfo, SupervisorClient } from "./client.js";

export interface HostAddressesOptions {
  supervisor: SupervisorClient;
  /** Home Assistant's configured URLs (`get_config`); both are empty on a fresh install. */
  haUrls: () => Promise<{ internal_url?: string | null }>;
  /** The port the MCP listener listens on inside the container. */
  mcpPort: () => number;
  clock: Clock;
  logger: Logger;
  /** How long what was learnt is used before it is asked again (default 60 s; 5 s after a failure). */
  refreshMs?: number;
  /** How long one round of questions may take before the last answer stands (default 3 s). */
  timeoutMs?: number;
}

export interface HostAddresses {
  /** The add-on's host name and its aliases: resolved only on the add-on network (Home Assistant's, other add-ons'). */
  internalNames(): Promise<readonly string[]>;
  /** Where a browser on the home network reaches the MCP listener, or undefined when its port is not published. */
  browserOrigin(): Promise<string | undefined>;
  /** The port and scheme Home Assistant serves browsers on the host. */
  corePort(): Promise<{ port: number; ssl: boolean } | undefined>;
}

interface Learnt {
  names: string[];
  browserOrigin: string | undefined;
  core: { port: number; ssl: boolean } | undefined;
}

/** The name every Home Assistant OS host answers to by mDNS, when nothing better is known. */
const DEFAULT_HOST_NAME = "homeassistant.local";

/**
 * The addresses a person's browser reaches the add-on at, learnt from the
 * Supervisor and Home Assistant. The host is HA's `internal_url` host when
 * the person set one; otherwise the host's primary IPv4 address, as HA
 * itself falls back to its local IP when no internal URL is set
 * (helpers/network.py, _get_internal_url); otherwise homeassistant.local.
 * The port is the one the Supervisor publishes the MCP port on.
 */
export function createHostAddresses(o: HostAddressesOptions): HostAddresses {
  const refreshMs = o.refreshMs ?? 60_000;
  const timeoutMs = o.timeoutMs ?? 3_000;
  let learnt: Learnt | undefined;
  let nextAskAt = 0;
  let asking: Promise<void> | undefined;
  let said: string | undefined;

  async function learn(): Promise<Learnt> {
    const [self, network, core, ha] = await Promise.allSettled([o.supervisor.selfInfo(), o.supervisor.networkInfo(), o.supervisor.coreInfo(), o.haUrls()]);
    if (self.status === "rejected") throw self.reason;
    const names = [self.value.hostname, ...self.value.dns].map((n) => n.toLowerCase().replace(/\.$/, ""));
    const hostPort = self.value.network?.[`${o.mcpPort()}/tcp`] ?? undefined;
    const host = hostOfUrl(ha.status === "fulfilled" ? ha.value.internal_url : undefined) ?? (network.status === "fulfilled" ? primaryIpv4(network.value) : undefined) ?? DEFAULT_HOST_NAME;
    const browserOrigin = hostPort ? `http://${host}:${hostPort}` : undefined;
    tell(browserOrigin, network.status === "rejected" ? describeError(network.reason) : undefined);
    return { names, browserOrigin, core: core.status === "fulfilled" ? core.value : undefined };
  }

  /** One log line each time the answer changes: where sign-ins from discovery send the browser. */
  function tell(browserOrigin: string | undefined, networkProblem: string | undefined): void {
    const line = browserOrigin ?? "unpublished";
    if (line === said) return;
    said = line;
    if (browserOrigin) o.logger.info({ browserOrigin, ...(networkProblem ? { networkProblem } : {}) }, `Sign-ins that Home Assistant starts from discovery open ${browserOrigin} in the person's browser`);
    else o.logger.warn(`The MCP port ${o.mcpPort()} is not published on the host (the add-on's Network settings), so a browser cannot open the sign-in that Home Assistant starts from discovery; publish it, or set public_url`);
  }

  async function refresh(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error("the Supervisor did not answer in time")), timeoutMs);
    });
    try {
      learnt = await Promise.race([learn(), late]);
      nextAskAt = o.clock.now() + refreshMs;
    } catch (err) {
      o.logger.debug({ err: describeError(err) }, "the add-on's addresses could not be learnt now; the last ones stand");
      nextAskAt = o.clock.now() + Math.min(refreshMs, 5_000);
    } finally {
      clearTimeout(timer);
    }
  }

  async function current(): Promise<Learnt | undefined> {
    if (o.clock.now() >= nextAskAt) {
      asking ??= refresh().finally(() => (asking = undefined));
      await asking;
    }
    return learnt;
  }

  return {
    internalNames: async () => (await current())?.names ?? [],
    browserOrigin: async () => (await current())?.browserOrigin,
    corePort: async () => (await current())?.core,
  };
}

/** The first IPv4 address of the primary interface ("192.168.1.50/24" → "192.168.1.50"). */
function primaryIpv4(network: NetworkInfo): string | undefined {
  const primary = network.interfaces.find((i) => i.primary) ?? network.interfaces[0];
  return primary?.ipv4?.address[0]?.split("/")[0] || undefined;
}
