/** What Home Assistant says its own addresses are (`get_config`); both are empty on a fresh install. */
export interface HaAddresses {
  external_url?: string | null;
  internal_url?: string | null;
}

export interface HaLoginUrlOptions {
  /** The option `home_assistant_url`, or HA_URL in standalone mode, or the simulator in demo mode. */
  configured: string | undefined;
  /** Asks HA for its addresses; add-on mode only. */
  fromHa?: () => Promise<HaAddresses>;
  /** Add-on mode: the port and scheme Home Assistant serves browsers on the host (the Supervisor's `/core/info`). */
  corePort?: () => Promise<{ port: number; ssl: boolean } | undefined>;
  /** When nothing says otherwise: HA's usual port. */
  haPort?: number;
}

/**
 * Where the browser signs in: Home Assistant's own address as the person's
 * browser knows it. It comes from settings or from HA itself, never from
 * anything a request could choose, except the host name the browser already
 * used for the add-on (with HA's port), which points at the same machine.
 */
export function createHaLoginUrl(options: HaLoginUrlOptions): (addonOrigin: string) => Promise<string> {
  return async (addonOrigin) => {
    if (options.configured) return options.configured.replace(/\/+$/, "");
    if (options.fromHa) {
      const config = await options.fromHa().catch(() => ({}) as HaAddresses);
      const known = config.external_url || config.internal_url;
      if (known) return known.replace(/\/+$/, "");
    }
    const core = await options.corePort?.().catch(() => undefined);
    const url = new URL(addonOrigin);
    url.port = String(core?.port ?? options.haPort ?? 8123);
    url.protocol = core?.ssl ? "https:" : "http:";
    return url.origin;
  };
}
