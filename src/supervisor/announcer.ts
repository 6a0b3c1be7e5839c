import { setTimeout as sleepFor } from "node:timers/promises";
import { backoffDelay, DEFAULT_BACKOFF, type BackoffOptions } from "../ha/index.js";
import { describeError, type Clock, type Logger } from "../shared/index.js";
import type { AnnouncementStore } from "./announcement-record.js";
import type { SupervisorClient } from "./client.js";

/** The service Home Assistant's `mcp` integration takes discovery for. */
const SERVICE = "mcp";

export interface DiscoveryStatus {
  /** off: nothing to do; pending: not tried yet; retrying: the last try failed and another is coming. */
  state: "off" | "pending" | "announced" | "withdrawn" | "retrying";
  url?: string;
  uuid?: string;
  /** The last failure, in plain words, while retrying. */
  lastError?: string;
  attempts: number;
  /** What /healthz says while retrying; undefined when all is well. */
  problem?: string;
}

export interface DiscoveryAnnouncer {
  /**
   * Announces the MCP server (or, when turned off, withdraws the last
   * announcement), retrying with backoff until it succeeds or stop() is
   * called. Never rejects: a failure is logged and shown in status().
   */
  start(o: { port: number; path: string }): Promise<void>;
  status(): DiscoveryStatus;
  /** Ends any retry. It never withdraws: the same entry must survive a restart. */
  stop(): Promise<void>;
}

export interface DiscoveryAnnouncerOptions {
  supervisor: SupervisorClient;
  store: AnnouncementStore;
  /** The option announce_to_home_assistant. */
  enabled: boolean;
  logger: Logger;
  clock: Clock;
  backoff?: BackoffOptions;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/** A wait between retries that a stop cuts short. */
const abortableSleep = (ms: number, signal: AbortSignal) => sleepFor(ms, undefined, { signal });

/**
 * Supervisor discovery for the MCP server. Home Assistant shows the add-on
 * under "Discovered" and keys the entry by the Supervisor's uuid, which stays
 * the same as long as the add-on posts again rather than deleting first: so
 * it announces at every start and deletes only when the option is off.
 */
export function createDiscoveryAnnouncer(options: DiscoveryAnnouncerOptions): DiscoveryAnnouncer {
  const { supervisor, store, logger } = options;
  const backoff = options.backoff ?? { ...DEFAULT_BACKOFF, maxMs: 5 * 60_000 };
  const sleep = options.sleep ?? abortableSleep;
  const stopping = new AbortController();
  let status: DiscoveryStatus = { state: options.enabled ? "pending" : "off", attempts: 0 };
  let running: Promise<void> | undefined;

  async function announce(port: number, path: string): Promise<void> {
    const { hostname } = await supervisor.selfInfo();
    const url = `http://${hostname}:${port}${path}`;
    const uuid = await supervisor.announce({ service: SERVICE, config: { url } });
    await store.write({ uuid, service: SERVICE, url, at: new Date(options.clock.now()).toISOString() }).catch((err: unknown) => {
      logger.warn({ err: describeError(err) }, "Could not remember the announcement in the data directory; turning announce_to_home_assistant off later will not withdraw it");
    });
    status = { state: "announced", url, uuid, attempts: status.attempts };
    logger.info({ url, uuid }, `Home Assistant was told about this MCP server (${url}); it shows under Discovered in Settings → Devices & services until someone confirms or ignores it`);
  }

  async function withdraw(): Promise<void> {
    const last = await store.read();
    if (!last) {
      status = { state: "off", attempts: status.attempts };
      return;
    }
    const outcome = await supervisor.withdraw(last.uuid);
    await store.remove();
    status = { state: "withdrawn", uuid: last.uuid, attempts: status.attempts };
    logger.info({ uuid: last.uuid, outcome }, "announce_to_home_assistant is off: the offer to Home Assistant was withdrawn, and Home Assistant removes the entry it made from it");
  }

  async function run(port: number, path: string): Promise<void> {
    const what = options.enabled ? "tell Home Assistant about this MCP server" : "withdraw the offer to Home Assistant";
    for (let attempt = 1; !stopping.signal.aborted; attempt++) {
      status = { ...status, attempts: attempt };
      try {
        await (options.enabled ? announce(port, path) : withdraw());
        return;
      } catch (err) {
        if (stopping.signal.aborted) return;
        const delay = backoffDelay(attempt, backoff);
        const lastError = describeError(err);
        status = { ...status, state: "retrying", lastError, problem: `could not ${what} yet (${lastError}); trying again in ${Math.ceil(delay / 1000)} s` };
        logger.warn({ attempt, retryInMs: delay }, `Could not ${what}: ${lastError}. Trying again in ${Math.ceil(delay / 1000)} s; the add-on works meanwhile.`);
        try {
          await sleep(delay, stopping.signal);
        } catch {
          return;
        }
      }
    }
  }

  return {
    start({ port, path }) {
      running ??= run(port, path);
      return running;
    },
    status: () => status,
    async stop() {
      stopping.abort();
      await running;
    },
  };
}
