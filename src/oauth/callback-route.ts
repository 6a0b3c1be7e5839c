import type { IncomingMessage, ServerResponse } from "node:http";
import { haClientIdOf, type AuthorizeContext } from "./authorize-route.js";
import { errorPage } from "./consent-page.js";
import { exchangeHaCode } from "./ha-auth.js";
import { redirect, sendHtml, withParams } from "./respond.js";

/**
 * `GET /oauth/callback`: Home Assistant's login page sends the browser here
 * with a code. The code is traded for HA's tokens server to server, HA's
 * refresh token is kept for the grant, and the browser goes back to the MCP
 * client with the front's own one-time code: HA's tokens never leave the add-on.
 */
export async function finishLogin(ctx: AuthorizeContext, req: IncomingMessage, res: ServerResponse, origin: string): Promise<void> {
  const q = new URL(req.url ?? "/", origin).searchParams;
  const request = ctx.pending.take(q.get("state") ?? "");
  if (!request || request.origin !== origin) return sendHtml(res, 400, errorPage("This sign-in has expired or was already finished."));
  const haCode = q.get("code");
  if (!haCode) return sendHtml(res, 400, errorPage("Home Assistant sent no login code back."));
  const haClientId = haClientIdOf(origin);
  const tokens = await exchangeHaCode({ ...ctx.deps.ha, clientId: haClientId, code: haCode });
  if ("refused" in tokens || !tokens.refreshToken) {
    ctx.deps.logger.warn({ reason: "refused" in tokens ? tokens.reason : "no refresh token" }, "Home Assistant refused a sign-in's code");
    return sendHtml(res, 502, errorPage("Home Assistant did not accept the login. Sign in again."));
  }
  const principal = await ctx.deps.userOf(tokens.accessToken);
  if (!principal) return sendHtml(res, 502, errorPage("Home Assistant did not say who signed in. Sign in again."));
  const code = ctx.deps.codes.issue({
    clientId: request.clientId,
    clientName: request.clientName,
    redirectUri: request.redirectUri,
    codeChallenge: request.codeChallenge,
    resource: request.resource,
    scope: request.scope,
    principal: { id: principal.id, name: principal.name, isAdmin: principal.isAdmin },
    haRefreshToken: tokens.refreshToken,
    haClientId,
    haAccess: { token: tokens.accessToken, expiresAt: ctx.deps.clock.now() + tokens.expiresInSeconds * 1000 },
  });
  ctx.deps.logger.info({ user: principal.name, client: request.clientName }, "a person signed in with Home Assistant");
  redirect(res, withParams(request.redirectUri, { code, state: request.state, iss: origin }));
}
