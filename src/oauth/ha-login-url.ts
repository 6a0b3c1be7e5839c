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
  /** When all else is unknown: the host the browser used for the add-on, on HA's port. */
  haPort?: number;
}

/**
 * Where the browser signs in: Home Assistant's own address as the person's
 * browser knows it. It comes from settings or from HA itself, never from
 * anything a request could choose, except the host name the browser already
 * used for the add-on (with HA's port), which points at the same machine.
 */
export function createHaLoginUrl(options: HaLoginUrlOptions): (addonOrigin: string) => Promise<string> {
  const port = options.haPort ?? 8123;
  return async (addonOrigin) => {
    if (options.configured) return options.configured.replace(/\/+$/, "");
    if (options.fromHa) {
      const config = await options.fromHa().catch(() => ({}) as HaAddresses);
      const known = config.external_url || config.internal_url;
      if (known) return known.replace(/\/+$/, "");
    }
    const url = new URL(addonOrigin);
    url.port = String(port);
    url.protocol = "http:";
    return url.origin;
  };
}
