import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { haClientIdOf, issuerOf, type AuthorizeContext } from "./authorize-route.js";
import { errorPage } from "./consent-page.js";
import { LOGIN_COOKIE, cookieOf } from "./cookies.js";
import { spend, type OAuthCaller } from "./context.js";
import { exchangeHaCode } from "./ha-auth.js";
import { redirect, sendHtml, withParams } from "./respond.js";
import { tokenHash } from "./token-hash.js";

const OTHER_BROWSER =
  "This sign-in was allowed in another browser. HA Agent finishes a sign-in only in the browser where Allow was clicked, so that a login link someone sends you cannot sign you in to their app. Nothing was granted. If you started this sign-in yourself, start it again from your MCP client and finish it in this browser.";

/**
 * `GET /oauth/callback`: Home Assistant's login page sends the browser here
 * with a code. The browser must be the one that allowed the sign-in (its
 * login cookie). The code is traded for HA's tokens server to server, HA's
 * refresh token is kept for the grant, and the browser goes back to the MCP
 * client with the front's own one-time code: HA's tokens never leave the add-on.
 */
export async function finishLogin(ctx: AuthorizeContext, req: IncomingMessage, res: ServerResponse, origin: string, caller: OAuthCaller): Promise<void> {
  const q = new URL(req.url ?? "/", origin).searchParams;
  const state = q.get("state") ?? "";
  spend(caller, ctx.pending.peek(state)?.request.clientId);
  const pending = ctx.pending.take(state);
  if (!pending || pending.request.origin !== origin) return sendHtml(res, 400, errorPage("This sign-in has expired or was already finished."));
  const request = pending.request;
  if (!sameBrowser(cookieOf(req, LOGIN_COOKIE), pending.browser)) {
    ctx.deps.logger.warn({ client: request.clientName }, "a sign-in came back in another browser than the one that allowed it; refused, nothing granted");
    return sendHtml(res, 403, errorPage(OTHER_BROWSER));
  }
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
  redirect(res, withParams(request.redirectUri, { code, state: request.state, iss: issuerOf(request.resource) }));
}

/** Whether the browser's login cookie is the one the pending sign-in was allowed with (compared by hash). */
function sameBrowser(cookie: string | undefined, expected: string): boolean {
  if (!cookie) return false;
  const a = Buffer.from(tokenHash(cookie));
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
