import type { Clock, Logger, Principal } from "../shared/index.js";
import type { ClientDirectory, OAuthClient } from "./clients/index.js";
import type { CodePayload, Codes, GrantStore } from "./grants/index.js";
import { OAuthError } from "./errors.js";
import type { HaAuthOptions } from "./ha-auth.js";
import type { ResourceBinding } from "./resource-binding.js";
import type { SignInOrigin } from "./sign-in-origin.js";

/** The parts the front is built from; the clients, grants and codes are their own modules. */
export interface FrontDeps {
  /** `public_url`: the origin clients use when the add-on sits behind an https proxy. */
  publicUrl: string | undefined;
  /** Home Assistant as the add-on reaches it, server to server. */
  ha: HaAuthOptions;
  /** The names Home Assistant and the add-on go by: Home Assistant's own callback there may be plain http. */
  homeHosts: () => Promise<readonly string[]>;
  /** Where the person's browser opens the sign-in pages for a client that came to a given origin. */
  signInOrigin: SignInOrigin;
  /** Which MCP URL a sign-in's tokens are bound to, at authorize and at the token endpoint. */
  resources: ResourceBinding;
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

/** Who sent a request, as the listener knows it, and the budget the request spends. */
export interface OAuthCaller {
  /** The caller's address; behind a trusted reverse proxy, the one it forwarded the request for. */
  address: string;
  /**
   * Takes one request from the budget of this address and client (undefined
   * for requests that name no client), so that one client, however busy,
   * cannot use up the others' sign-ins.
   */
  spend(clientId: string | undefined): { ok: true } | { ok: false; retryAfterMs: number };
}

/** Spends one request of the caller's budget, or refuses it with 429 and Retry-After. */
export function spend(caller: OAuthCaller, clientId: string | undefined): void {
  const taken = caller.spend(clientId);
  if (!taken.ok) {
    throw new OAuthError("slow_down", "Too many sign-in requests from this address and client; try again shortly.", 429, { retryAfterS: Math.max(1, Math.ceil(taken.retryAfterMs / 1000)) });
  }
}
