import { loadSecret } from "../store/index.js";
import type { Clock, Logger, Principal } from "../shared/index.js";
import { createClientDirectory, redirectAllowed } from "./clients/index.js";
import { createOAuthFront, type OAuthFront } from "./front.js";
import { createGrantGuard, type GrantGuard } from "./grant-guard.js";
import { createCodes, openGrantStore, verifyPkceS256, type CodePayload } from "./grants/index.js";
import { revokeAtHa } from "./ha-auth.js";
import { createHaLoginUrl, type HaAddresses } from "./ha-login-url.js";
import { HaUnreachableError } from "./ha-unreachable.js";
import { createResourceBinding } from "./resource-binding.js";
import { createSignInOrigin, type SignInAddresses } from "./sign-in-origin.js";
import { ISSUED_TOKEN_PREFIX } from "./token-hash.js";

export interface StartOAuthOptions {
  dataDir: string;
  /** Core as the add-on reaches it, server to server: where codes are exchanged and tokens refreshed. */
  coreUrl: string;
  /** Home Assistant's address for browsers, when known from settings (or the simulator in demo mode). */
  haLoginUrl: string | undefined;
  /** Add-on mode: asks Home Assistant for its external and internal URLs. */
  haAddresses?: () => Promise<HaAddresses>;
  /** Add-on mode: the names only the add-on network resolves, and the address browsers reach the add-on at. */
  signInAddresses?: SignInAddresses;
  /** Add-on mode: the port and scheme Home Assistant serves browsers on the host, for when HA's own URLs are unset. */
  corePort?: () => Promise<{ port: number; ssl: boolean } | undefined>;
  publicUrl: string | undefined;
  /** The names Home Assistant and the add-on go by (HA's internal and external URL hosts among them). */
  homeHosts?: () => Promise<readonly string[]>;
  cimdAllowLocal: boolean;
  /** The HA user an HA access token belongs to. */
  userOf(haAccessToken: string): Promise<Principal | undefined>;
  clock: Clock;
  logger: Logger;
  fetch?: typeof fetch;
  /** How long HA's yes to a grant is trusted before it is asked again (default 30 s). */
  recheckMs?: number;
}

export interface OAuthService {
  front: OAuthFront;
  /** How the bearer check recognises and resolves the front's own tokens. */
  issued: { prefix: string; principalFor(token: string): Promise<Principal | undefined>; isUnavailable(err: unknown): boolean };
  close(): Promise<void>;
}

/** Opens the grant store, loads the front's keys and builds the sign-in with Home Assistant. */
export async function startOAuth(o: StartOAuthOptions): Promise<OAuthService> {
  const [{ key: clientKey }, { key: consentKey }] = await Promise.all([loadSecret({ dataDir: o.dataDir, name: "oauth-clients" }), loadSecret({ dataDir: o.dataDir, name: "oauth-consent" })]);
  const ha = { coreUrl: o.coreUrl, ...(o.fetch ? { fetch: o.fetch } : {}) };
  // Made after the store, whose endings it must hear of (to drop HA's access token it holds for them).
  let guard: GrantGuard | undefined = undefined;
  const grants = await openGrantStore({
    dataDir: o.dataDir,
    clock: o.clock,
    logger: o.logger,
    // A sign-in that ends here also ends its login in Home Assistant, so it does not linger in the person's profile.
    onEnded: (grant) => {
      guard?.forget(grant.id);
      void revokeAtHa({ ...ha, refreshToken: grant.haRefreshToken }).catch(() => o.logger.info({ user: grant.principal.name }, "an ended sign-in's login could not be removed in Home Assistant; HA drops it after 90 days unused"));
    },
  });
  const directory = createClientDirectory({ key: clientKey, allowLocal: o.cimdAllowLocal, clock: o.clock });
  guard = createGrantGuard({ grants, ha, clock: o.clock, logger: o.logger, ...(o.recheckMs !== undefined ? { recheckMs: o.recheckMs } : {}) });
  const signInOrigin = createSignInOrigin(o.signInAddresses);
  const front = createOAuthFront({
    publicUrl: o.publicUrl,
    ha,
    signInOrigin,
    homeHosts: async () => (await o.homeHosts?.().catch((): readonly string[] => [])) ?? [],
    resources: createResourceBinding(signInOrigin),
    haLoginUrl: createHaLoginUrl({ configured: o.haLoginUrl, ...(o.haAddresses ? { fromHa: o.haAddresses } : {}), ...(o.corePort ? { corePort: o.corePort } : {}) }),
    clients: directory,
    redirectAllowed,
    grants,
    codes: createCodes<CodePayload>({ clock: o.clock }),
    verifyPkce: verifyPkceS256,
    seedHaAccess: (grantId, access) => guard!.seed(grantId, access),
    userOf: o.userOf,
    consentKey,
    clock: o.clock,
    logger: o.logger,
  });
  return {
    front,
    issued: { prefix: ISSUED_TOKEN_PREFIX, principalFor: (token) => guard!.principalFor(token), isUnavailable: (err) => err instanceof HaUnreachableError },
    close: () => grants.flush(),
  };
}
