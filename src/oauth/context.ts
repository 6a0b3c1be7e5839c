import type { Clock, Logger, Principal } from "../shared/index.js";
import type { ClientDirectory, OAuthClient } from "./clients/index.js";
import type { CodePayload, Codes, GrantStore } from "./grants/index.js";
import type { HaAuthOptions } from "./ha-auth.js";

/** The parts the front is built from; the clients, grants and codes are their own modules. */
export interface FrontDeps {
  /** `public_url`: the origin clients use when the add-on sits behind an https proxy. */
  publicUrl: string | undefined;
  /** Home Assistant as the add-on reaches it, server to server. */
  ha: HaAuthOptions;
  /** Home Assistant's login page origin as the person's browser reaches it. */
  haLoginUrl: (addonOrigin: string) => Promise<string>;
  clients: ClientDirectory;
  redirectAllowed: (client: Pick<OAuthClient, "redirectUris">, redirectUri: string) => boolean;
  grants: GrantStore;
  codes: Codes<CodePayload>;
  verifyPkce: (verifier: string, challenge: string) => boolean;
  /** Hands a new grant the HA access token its sign-in just got, so its first request does not refresh it again. */
  seedHaAccess: (grantId: string, access: { token: string; expiresAt: number }) => void;
  /** The HA user an HA access token belongs to. */
  userOf: (haAccessToken: string) => Promise<Principal | undefined>;
  consentKey: Uint8Array;
  clock: Clock;
  logger: Logger;
}
