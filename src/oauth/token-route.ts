import type { IncomingMessage, ServerResponse } from "node:http";
import { readForm } from "./body.js";
import { spend, type FrontDeps, type OAuthCaller } from "./context.js";
import { OAuthError } from "./errors.js";
import { MCP_SCOPE, mcpResourceOf } from "./metadata.js";
import { sendJson } from "./respond.js";

/** `POST /oauth/token`: the code grant (with PKCE) and the refresh grant, for public clients. */
export async function issueTokens(deps: FrontDeps, req: IncomingMessage, res: ServerResponse, origin: string, caller: OAuthCaller): Promise<void> {
  const form = await readForm(req);
  const grantType = form.get("grant_type");
  spend(caller, form.get("client_id") ?? undefined);
  const clientId = required(form, "client_id");
  const resource = form.get("resource") ?? undefined;
  if (resource !== undefined && !deps.resources.isOwn(resource, origin)) throw new OAuthError("invalid_target", `Tokens here are for this server's MCP URLs only, such as ${mcpResourceOf(origin)}.`);
  const scope = form.get("scope");
  if (scope && scope.split(" ").some((s) => s !== "" && s !== MCP_SCOPE)) throw new OAuthError("invalid_scope", `The only scope is "${MCP_SCOPE}".`);

  if (grantType === "authorization_code") {
    const code = required(form, "code");
    const redeemed = deps.codes.redeem(code);
    if (!redeemed.ok && redeemed.reason === "reused") {
      // OAuth 2.1 §4.1.3: a code used twice may have been stolen; what its first use granted is revoked.
      if (redeemed.grantId) await deps.grants.remove(redeemed.grantId);
      throw new OAuthError("invalid_grant", "This code was already used; what it granted is revoked. Sign in again.");
    }
    if (!redeemed.ok) throw new OAuthError("invalid_grant", "The code is unknown or has expired (codes last 60 seconds). Sign in again.");
    const p = redeemed.payload;
    if (p.clientId !== clientId) throw new OAuthError("invalid_grant", "The code was issued to another client.");
    if (form.get("redirect_uri") !== p.redirectUri) throw new OAuthError("invalid_grant", "redirect_uri must be the one sent to the authorization endpoint.");
    if (!deps.verifyPkce(required(form, "code_verifier"), p.codeChallenge)) throw new OAuthError("invalid_grant", "The code_verifier does not match the code_challenge.");
    const bound = await deps.resources.atToken(p.resource, origin);
    if (!bound) throw new OAuthError("invalid_target", `This code is for ${p.resource}; redeem it there.`);
    const { grant, tokens } = await deps.grants.create({ ...p, resource: resource ?? bound });
    deps.codes.markRedeemed(code, grant.id);
    if (p.haAccess) deps.seedHaAccess(grant.id, p.haAccess);
    return sendJson(res, 200, tokens);
  }
  if (grantType === "refresh_token") {
    // Without a resource the grant keeps its own: Home Assistant refreshes without one, whichever MCP path it signed in for.
    const { tokens } = await deps.grants.refresh({ refreshToken: required(form, "refresh_token"), clientId, ...(resource !== undefined ? { resource } : {}) });
    return sendJson(res, 200, tokens);
  }
  throw new OAuthError("unsupported_grant_type", "Use grant_type authorization_code or refresh_token.");
}

/** `POST /oauth/revoke` (RFC 7009): always 200, whether or not the token was known. */
export async function revokeToken(deps: FrontDeps, req: IncomingMessage, res: ServerResponse, caller: OAuthCaller): Promise<void> {
  const form = await readForm(req);
  const clientId = form.get("client_id");
  spend(caller, clientId ?? undefined);
  await deps.grants.revoke(required(form, "token"), clientId ? { clientId } : {});
  res.writeHead(200, { "content-length": 0, "cache-control": "no-store" }).end();
}

function required(form: URLSearchParams, name: string): string {
  const value = form.get(name);
  if (!value) throw new OAuthError("invalid_request", `The parameter ${name} is missing.`);
  return value;
}
