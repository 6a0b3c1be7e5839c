/** What the add-on knows about the names it is reached by. */
export interface SignInAddresses {
  /** Host names only the add-on network resolves (the Supervisor's host name for the add-on and its aliases). */
  internalNames(): Promise<readonly string[]>;
  /** The origin a browser on the home network reaches the MCP listener at, or undefined when none is known. */
  browserOrigin(): Promise<string | undefined>;
}

/** Where the person's browser is sent for a sign-in that a client began at some origin. */
export type SignInOrigin = (origin: string) => Promise<string>;

/**
 * Home Assistant finds the add-on by discovery, at a URL whose host only
 * HA's Docker network resolves, yet it sends the person's browser to the
 * authorization endpoint it read there (mcp/config_flow.py,
 * async_step_auth_discovery, then the OAuth2 helper's async_step_auth). So
 * for a client that came by an internal name the pages a browser opens are
 * put at the browser's address for the same listener; for every other
 * origin they stay where the client is.
 */
export function createSignInOrigin(addresses: SignInAddresses | undefined): SignInOrigin {
  if (!addresses) return async (origin) => origin;
  return async (origin) => {
    // The URL parser gives the host name in lower case, as the names are kept.
    const host = new URL(origin).hostname.replace(/\.$/, "");
    const internal = await addresses.internalNames().catch((): readonly string[] => []);
    if (!internal.includes(host)) return origin;
    return (await addresses.browserOrigin().catch(() => undefined)) ?? origin;
  };
}
