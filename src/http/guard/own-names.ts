import { hostname as machineHostname } from "node:os";
import { hostOfUrl, type Clock } from "../../shared/index.js";

/** The names HA Agent answers to, and how to learn the ones only Home Assistant knows. */
export interface OwnNames {
  /**
   * Every name known now. When `hostname` is not among them and what was
   * learnt from Home Assistant is older than the refresh interval, it is
   * asked again first: a name set in HA a moment ago works without a restart.
   */
  list(hostname?: string): Promise<readonly string[]>;
}

export interface OwnNamesOptions {
  /** Names known at start; see `fixedOwnNames`. */
  fixed: readonly string[];
  /** Names only known later: Home Assistant's internal and external URLs, the add-on's host name. */
  discover?: () => Promise<readonly string[]>;
  clock: Clock;
  /** How often an unknown name may make HA be asked again. Default 60 s (5 s after a failure). */
  refreshMs?: number;
  /** How long one ask may take before the names known so far are used. Default 3 s. */
  timeoutMs?: number;
}

/** Lower case, without a trailing dot: how Host headers are compared. */
const normal = (name: string): string => name.trim().toLowerCase().replace(/\.$/, "");

/**
 * The names HA Agent always answers to: `localhost`, this machine's host
 * name with and without its domain, the host of `public_url`, the names in
 * `allowed_hosts`, and in add-on mode the names every add-on reaches Home
 * Assistant's host by.
 */
export function fixedOwnNames(o: { addon: boolean; publicUrl: string | undefined; allowedHosts: readonly string[]; machine?: string }): string[] {
  const machine = normal(o.machine ?? machineHostname());
  return [
    "localhost",
    ...(machine ? [machine, machine.split(".")[0]!] : []),
    ...(o.addon ? ["homeassistant", "homeassistant.local"] : []),
    ...[hostOfUrl(o.publicUrl)].filter((h): h is string => h !== undefined),
    ...o.allowedHosts.map(normal),
  ];
}

/** The hosts of Home Assistant's own addresses, as `get_config` reports them (both may be empty). */
export function namesFromHaConfig(config: { internal_url?: string | null; external_url?: string | null }): string[] {
  return [hostOfUrl(config.internal_url), hostOfUrl(config.external_url)].filter((h): h is string => h !== undefined);
}

export function createOwnNames(o: OwnNamesOptions): OwnNames {
  const fixed = new Set(o.fixed.map(normal).filter(Boolean));
  const refreshMs = o.refreshMs ?? 60_000;
  const timeoutMs = o.timeoutMs ?? 3_000;
  let learnt: readonly string[] = [];
  let nextAskAt = 0;
  let asking: Promise<void> | undefined;

  async function ask(discover: () => Promise<readonly string[]>): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error("no answer in time")), timeoutMs);
    });
    try {
      learnt = (await Promise.race([discover(), late])).map(normal).filter(Boolean);
      nextAskAt = o.clock.now() + refreshMs;
    } catch {
      // HA is not connected yet, or slow: the names known so far stand, and HA is asked again soon.
      nextAskAt = o.clock.now() + Math.min(refreshMs, 5_000);
    } finally {
      clearTimeout(timer);
    }
  }

  const all = (): string[] => [...new Set([...fixed, ...learnt])];
  return {
    async list(hostname) {
      const wanted = hostname === undefined ? undefined : normal(hostname);
      const known = wanted === undefined || fixed.has(wanted) || learnt.includes(wanted);
      if (!known && o.discover && o.clock.now() >= nextAskAt) {
        asking ??= ask(o.discover).finally(() => (asking = undefined));
        await asking;
      }
      return all();
    },
  };
}
