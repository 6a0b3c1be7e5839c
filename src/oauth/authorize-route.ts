import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { readForm } from "./body.js";
import { consentPage, errorPage } from "./consent-page.js";
import { CONSENT_TTL_MS, openConsent, sealConsent, type ConsentRequest } from "./consent-request.js";
import { CONSENT_COOKIE, consentCookieHeader, cookieOf, loginCookieHeader, loginCookieOf } from "./cookies.js";
import type { OAuthClient } from "./clients/index.js";
import { spend, type FrontDeps, type OAuthCaller } from "./context.js";
import { OAuthError } from "./errors.js";
import { MCP_SCOPE, OAUTH_PATHS, mcpResourceOf } from "./metadata.js";
import type { PendingLogins } from "./pending-logins.js";
import { redirect, sendHtml, withParams } from "./respond.js";
import { tokenHash } from "./token-hash.js";
import type { UsedForms } from "./used-forms.js";

export interface AuthorizeContext {
  deps: FrontDeps;
  pending: PendingLogins;
  usedForms: UsedForms;
}

/** What a person is told when the pending table has no room for their sign-in. */
const FULL: Record<"total" | "client" | "address", string> = {
  address: "Too many sign-ins from your address are waiting for Home Assistant's login. Finish or abandon them, then try again in a few minutes.",
  client: "Too many sign-ins of this client are waiting for Home Assistant's login. Try again in a few minutes.",
  total: "Too many sign-ins are waiting for Home Assistant's login. Try again in a few minutes.",
};

/**
 * `GET /oauth/authorize`: checks the request and shows the consent page. A
 * bad client or redirect is shown as a page (the browser must not be sent to
 * an unchecked address); anything else goes back to the client as an error.
 */
export async function showConsent(ctx: AuthorizeContext, req: IncomingMessage, res: ServerResponse, origin: string, caller: OAuthCaller): Promise<void> {
  const q = new URL(req.url ?? "/", origin).searchParams;
  const clientId = q.get("client_id");
  const redirectUri = q.get("redirect_uri");
  spend(caller, clientId ?? undefined);
  if (!clientId) return sendHtml(res, 400, errorPage("The request names no client (client_id). Your MCP client must send one."));
  if (!redirectUri) return sendHtml(res, 400, errorPage("The request has no redirect_uri. Your MCP client must send the address to return to."));
  let client: OAuthClient;
  try {
    client = await ctx.deps.clients.resolve(clientId);
  } catch (err) {
    if (!(err instanceof OAuthError)) throw err;
    if (err.logDetail) ctx.deps.logger.warn({ reason: err.logDetail }, "a sign-in named a client whose metadata document could not be used");
    return sendHtml(res, 400, errorPage(err.message));
  }
  if (!ctx.deps.redirectAllowed(client, redirectUri)) {
    return sendHtml(res, 400, errorPage(`${client.name} asked to return to ${redirectUri}, which it did not register. Nothing was granted.`));
  }
  const state = q.get("state") ?? undefined;
  const resource = await ctx.deps.resources.atAuthorize(q.get("resource"), origin);
  // RFC 9207: `iss` is the issuer whose metadata the client read, the origin of the resource it named.
  const iss = resource ? issuerOf(resource) : origin;
  const back = (error: string, description: string) => redirect(res, withParams(redirectUri, { error, error_description: description, state, iss }));
  if (q.get("response_type") !== "code") return back("unsupported_response_type", "Only response_type=code is supported.");
  const challenge = q.get("code_challenge");
  if (!challenge || q.get("code_challenge_method") !== "S256" || !/^[A-Za-z0-9_-]{43}$/.test(challenge)) {
    return back("invalid_request", "PKCE is required: send code_challenge with code_challenge_method=S256.");
  }
  if (!state) return back("invalid_request", "Send a state parameter.");
  if (!resource) return back("invalid_target", `Tokens here are for this server's MCP URLs only, such as ${mcpResourceOf(origin)}.`);
  const scope = q.get("scope");
  if (scope !== null && scope.split(" ").some((s) => s !== "" && s !== MCP_SCOPE)) return back("invalid_scope", `The only scope is "${MCP_SCOPE}".`);

  // The form's id: one answer per form, and the consent cookie must carry it.
  const nonce = randomBytes(18).toString("base64url");
  const request: ConsentRequest = {
    clientId: client.clientId,
    clientName: client.name,
    redirectUri,
    state,
    codeChallenge: challenge,
    resource,
    scope: MCP_SCOPE,
    origin,
    nonce,
    expiresAt: ctx.deps.clock.now() + CONSENT_TTL_MS,
  };
  sendHtml(
    res,
    200,
    consentPage({ client, redirectHost: new URL(redirectUri).host, sealed: sealConsent(request, ctx.deps.consentKey), actionPath: OAUTH_PATHS.authorize }),
    { "set-cookie": consentCookieHeader(nonce, { secure: origin.startsWith("https:"), maxAgeS: CONSENT_TTL_MS / 1000 }) },
  );
}

/**
 * `POST /oauth/authorize`: the person's answer. Deny goes back to the client
 * as `access_denied`; allow sends the browser to Home Assistant's own login
 * page, with the add-on's origin as HA's client, so HA needs no registration.
 * The pending sign-in belongs to this browser: the login cookie set here must
 * come back with HA's redirect, so a login link forwarded to someone else
 * cannot finish a sign-in another person allowed.
 */
export async function takeConsent(ctx: AuthorizeContext, req: IncomingMessage, res: ServerResponse, origin: string, caller: OAuthCaller): Promise<void> {
  const form = await readForm(req);
  const request = openConsent(form.get("request") ?? "", ctx.deps.consentKey, ctx.deps.clock.now());
  if (!request || request.origin !== origin) return sendHtml(res, 400, errorPage("This consent page has expired or was altered."));
  if (cookieOf(req, CONSENT_COOKIE) !== request.nonce) return sendHtml(res, 403, errorPage("The answer did not come from the consent page HA Agent showed in this browser."));
  spend(caller, request.clientId);
  const secure = origin.startsWith("https:");
  const clear = consentCookieHeader("", { secure, maxAgeS: 0 });
  const claimed = ctx.usedForms.claim(request.nonce, request.expiresAt);
  if (claimed === "used") return sendHtml(res, 400, errorPage("This consent page was already answered; each page takes one answer. Nothing more was granted."), { "set-cookie": clear });
  if (claimed === "full") return sendHtml(res, 429, errorPage(FULL.total), { "retry-after": "60" });
  if (form.get("decision") !== "allow") {
    ctx.deps.logger.info({ client: request.clientName }, "a person denied a sign-in");
    return redirect(res, withParams(request.redirectUri, { error: "access_denied", error_description: "The person denied access.", state: request.state, iss: issuerOf(request.resource) }), { "set-cookie": clear });
  }
  const browser = loginCookieOf(req);
  const added = ctx.pending.add({ request, browser: tokenHash(browser.value), address: caller.address });
  if ("full" in added) {
    ctx.deps.logger.warn({ client: request.clientName, limit: added.full }, "a sign-in was refused: too many are waiting for Home Assistant's login");
    return sendHtml(res, 429, errorPage(FULL[added.full]), { "retry-after": "60", "set-cookie": clear });
  }
  const haLogin = await ctx.deps.haLoginUrl(origin);
  const target = withParams(`${haLogin}/auth/authorize`, { response_type: "code", client_id: haClientIdOf(origin), redirect_uri: `${origin}${OAUTH_PATHS.callback}`, state: added.id });
  redirect(res, target, { "set-cookie": [clear, loginCookieHeader(browser.value, secure)] });
}

/** The issuer a client that names `resource` discovered: the resource's own origin. */
export const issuerOf = (resource: string): string => new URL(resource).origin;

/** The client id HA knows the add-on by: its own origin, so that HA accepts the same-origin callback without a fetch. */
export const haClientIdOf = (origin: string): string => `${origin}/`;
