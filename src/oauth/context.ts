import type { Clock, Logger, Principal } from "../shared/index.js";
import type { HaAuthOptions } from "./ha-auth.js";

/** A client as the front sees it: who it is and where it may be sent back. */
export interface FrontClient {
  clientId: string;
  name: string;
  redirectUris: string[];
  kind: "registered" | "metadata_document";
}

/** What a one-time code stands for until the client redeems it. */
export interface CodePayload {
  clientId: string;
  clientName: string;
  redirectUri: string;
  codeChallenge: string;
  resource: string;
  scope: string;
  principal: { id: string; name: string; isAdmin: boolean };
  haRefreshToken: string;
  haClientId: string;
}

export interface IssuedTokens {
  access_token: string;
  refresh_token: string;
  token_type: "Bearer";
  expires_in: number;
  scope: string;
}

/** The parts the front is built from; the clients, grants and codes are their own modules. */
export interface FrontDeps {
  /** `public_url`: the origin clients use when the add-on sits behind an https proxy. */
  publicUrl: string | undefined;
  /** Home Assistant as the add-on reaches it, server to server. */
  ha: HaAuthOptions;
  /** Home Assistant's login page origin as the person's browser reaches it. */
  haLoginUrl: (addonOrigin: string) => Promise<string>;
  clients: {
    register(body: unknown): Promise<Record<string, unknown>>;
    resolve(clientId: string): Promise<FrontClient>;
    redirectAllowed(client: FrontClient, redirectUri: string): boolean;
  };
  grants: {
    create(input: Omit<CodePayload, "redirectUri" | "codeChallenge">): Promise<{ grantId: string; tokens: IssuedTokens }>;
    refresh(input: { refreshToken: string; clientId: string; resource: string | undefined }): Promise<IssuedTokens>;
    /** Revokes what the token names; the HA refresh token of a grant it ended, to revoke at HA too. */
    revoke(token: string): Promise<{ endedGrant?: { id: string; haRefreshToken: string } }>;
    remove(grantId: string): Promise<unknown>;
  };
  codes: {
    issue(payload: CodePayload): string;
    /** The payload once; a second use says which grant the first use made, so it can be revoked. */
    redeem(code: string): { kind: "ok"; payload: CodePayload } | { kind: "reused"; grantId: string | undefined } | { kind: "unknown" };
    markRedeemed(code: string, grantId: string): void;
  };
  verifyPkce(verifier: string, challenge: string): boolean;
  /** The HA user an HA access token belongs to. */
  userOf(haAccessToken: string): Promise<Principal | undefined>;
  consentKey: Uint8Array;
  clock: Clock;
  logger: Logger;
}
