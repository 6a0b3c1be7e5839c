import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { readForm } from "./body.js";
import { consentPage, errorPage } from "./consent-page.js";
import { CONSENT_TTL_MS, openConsent, sealConsent, type ConsentRequest } from "./consent-request.js";
import type { OAuthClient } from "./clients/index.js";
import type { FrontDeps } from "./context.js";
import { OAuthError } from "./errors.js";
import { MCP_SCOPE, OAUTH_PATHS, mcpResourceOf } from "./metadata.js";
import type { createPendingLogins } from "./pending-logins.js";
import { redirect, sendHtml, withParams } from "./respond.js";

const COOKIE = "ha_agent_consent";

export interface AuthorizeContext {
  deps: FrontDeps;
  pending: ReturnType<typeof createPendingLogins>;
}

/**
 * `GET /oauth/authorize`: checks the request and shows the consent page. A
 * bad client or redirect is shown as a page (the browser must not be sent to
 * an unchecked address); anything else goes back to the client as an error.
 */
export async function showConsent(ctx: AuthorizeContext, req: IncomingMessage, res: ServerResponse, origin: string): Promise<void> {
  const q = new URL(req.url ?? "/", origin).searchParams;
  const clientId = q.get("client_id");
  const redirectUri = q.get("redirect_uri");
  if (!clientId) return sendHtml(res, 400, errorPage("The request names no client (client_id). Your MCP client must send one."));
  if (!redirectUri) return sendHtml(res, 400, errorPage("The request has no redirect_uri. Your MCP client must send the address to return to."));
  let client: OAuthClient;
  try {
    client = await ctx.deps.clients.resolve(clientId);
  } catch (err) {
    if (err instanceof OAuthError) return sendHtml(res, 400, errorPage(err.message));
    throw err;
  }
  if (!ctx.deps.redirectAllowed(client, redirectUri)) {
    return sendHtml(res, 400, errorPage(`${client.name} asked to return to ${redirectUri}, which it did not register. Nothing was granted.`));
  }
  const state = q.get("state") ?? undefined;
  const back = (error: string, description: string) => redirect(res, withParams(redirectUri, { error, error_description: description, state, iss: origin }));
  if (q.get("response_type") !== "code") return back("unsupported_response_type", "Only response_type=code is supported.");
  const challenge = q.get("code_challenge");
  if (!challenge || q.get("code_challenge_method") !== "S256" || !/^[A-Za-z0-9_-]{43}$/.test(challenge)) {
    return back("invalid_request", "PKCE is required: send code_challenge with code_challenge_method=S256.");
  }
  if (!state) return back("invalid_request", "Send a state parameter.");
  const resource = q.get("resource");
  if (resource !== null && resource !== mcpResourceOf(origin)) return back("invalid_target", `Tokens here are for ${mcpResourceOf(origin)} only.`);
  const scope = q.get("scope");
  if (scope !== null && scope.split(" ").some((s) => s !== "" && s !== MCP_SCOPE)) return back("invalid_scope", `The only scope is "${MCP_SCOPE}".`);

  const nonce = randomBytes(18).toString("base64url");
  const request: ConsentRequest = {
    clientId: client.clientId,
    clientName: client.name,
    redirectUri,
    state,
    codeChallenge: challenge,
    resource: mcpResourceOf(origin),
    scope: MCP_SCOPE,
    origin,
    nonce,
    expiresAt: ctx.deps.clock.now() + CONSENT_TTL_MS,
  };
  const secure = origin.startsWith("https:") ? "; Secure" : "";
  sendHtml(
    res,
    200,
    consentPage({ clientName: client.name, redirectHost: new URL(redirectUri).host, sealed: sealConsent(request, ctx.deps.consentKey), verifiedName: client.kind === "metadata_document", actionPath: OAUTH_PATHS.authorize }),
    // SameSite=Strict: a form another site posts in the person's browser arrives without it.
    { "set-cookie": `${COOKIE}=${nonce}; Path=${OAUTH_PATHS.authorize}; HttpOnly; SameSite=Strict; Max-Age=${CONSENT_TTL_MS / 1000}${secure}` },
  );
}

/**
 * `POST /oauth/authorize`: the person's answer. Deny goes back to the client
 * as `access_denied`; allow sends the browser to Home Assistant's own login
 * page, with the add-on's origin as HA's client, so HA needs no registration.
 */
export async function takeConsent(ctx: AuthorizeContext, req: IncomingMessage, res: ServerResponse, origin: string): Promise<void> {
  const form = await readForm(req);
  const request = openConsent(form.get("request") ?? "", ctx.deps.consentKey, ctx.deps.clock.now());
  if (!request || request.origin !== origin) return sendHtml(res, 400, errorPage("This consent page has expired or was altered."));
  if (cookieOf(req, COOKIE) !== request.nonce) return sendHtml(res, 403, errorPage("The answer did not come from the consent page HA Agent showed in this browser."));
  const clear = { "set-cookie": `${COOKIE}=; Path=${OAUTH_PATHS.authorize}; HttpOnly; SameSite=Strict; Max-Age=0` };
  if (form.get("decision") !== "allow") {
    ctx.deps.logger.info({ client: request.clientName }, "a person denied a sign-in");
    return redirect(res, withParams(request.redirectUri, { error: "access_denied", error_description: "The person denied access.", state: request.state, iss: origin }), clear);
  }
  const id = ctx.pending.add(request);
  const haLogin = await ctx.deps.haLoginUrl(origin);
  const target = withParams(`${haLogin}/auth/authorize`, { response_type: "code", client_id: haClientIdOf(origin), redirect_uri: `${origin}${OAUTH_PATHS.callback}`, state: id });
  redirect(res, target, clear);
}

/** The client id HA knows the add-on by: its own origin, so that HA accepts the same-origin callback without a fetch. */
export const haClientIdOf = (origin: string): string => `${origin}/`;

function cookieOf(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? "").split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === name) return v.join("=");
  }
  return undefined;
}
