import type { IncomingMessage, ServerResponse } from "node:http";
import type { SimAuth } from "./auth-store.js";
import { readForm } from "./form.js";
import { checkRedirect, clientIdProblem } from "./indieauth.js";
import { errorPage, loginPage, type LoginPageParams } from "./login-page.js";
import { send } from "./respond.js";
import { handleRevoke, handleToken } from "./token-endpoint.js";

/**
 * HA's sign-in over HTTP: the `/auth/authorize` page (HA's frontend, here a
 * server-rendered form), `/auth/token` and `/auth/revoke`. Returns false for
 * any other path, which the REST API then answers, unless HA has banned the
 * caller: its ban middleware answers every path (see AuthHttpFaults).
 */
export function handleAuthRequest(o: { auth: SimAuth; req: IncomingMessage; res: ServerResponse; hint?: string }): boolean {
  const { req, res } = o;
  const url = new URL(req.url ?? "/", "http://localhost");
  if (o.auth.httpFaults.apply(url.pathname, res)) return true;
  const route = ROUTES.get(url.pathname);
  if (!route) return false;
  const handler = route.get(req.method ?? "GET");
  if (!handler) {
    send(res, 405, "text/plain; charset=utf-8", "405: Method Not Allowed");
    return true;
  }
  handler({ ...o, url }).catch(() => {
    if (!res.headersSent) send(res, 500, "text/plain; charset=utf-8", "500: Internal Server Error");
  });
  return true;
}

type Handler = (o: { auth: SimAuth; req: IncomingMessage; res: ServerResponse; url: URL; hint?: string }) => Promise<void>;

const authorizePage: Handler = async ({ res, url, hint }) => {
  const params = authorizeParams((k) => url.searchParams.get(k) ?? undefined);
  const refusal = refuse(params);
  if (refusal) return send(res, 400, HTML, errorPage(refusal));
  send(res, 200, HTML, loginPage({ params: params as LoginPageParams, ...(hint ? { hint } : {}) }));
};

const authorizeLogin: Handler = async ({ auth, req, res, hint }) => {
  const form = await readForm(req);
  if (!form) return send(res, 413, HTML, errorPage("The login form was too large."));
  const params = authorizeParams((k) => form.get(k));
  const refusal = refuse(params);
  if (refusal) return send(res, 400, HTML, errorPage(refusal));
  const p = params as LoginPageParams;
  const user = auth.checkPassword(form.get("username") ?? "", form.get("password") ?? "");
  // HA's local provider answers a wrong username or password with this one text, naming neither.
  if (!user) return send(res, 200, HTML, loginPage({ params: p, error: "Invalid username or password", ...(hint ? { hint } : {}) }));
  const code = auth.createCode({ clientId: p.clientId, userId: user.id });
  res.writeHead(302, { Location: redirectWithCode({ redirectUri: p.redirectUri, code, state: p.state }), "Cache-Control": "no-store" }).end();
};

const HTML = "text/html; charset=utf-8";

const ROUTES = new Map<string, Map<string, Handler>>([
  ["/auth/authorize", new Map<string, Handler>([["GET", authorizePage], ["POST", authorizeLogin]])],
  ["/auth/token", new Map([["POST", handleToken]])],
  ["/auth/revoke", new Map([["POST", handleRevoke]])],
]);

function authorizeParams(get: (key: string) => string | undefined): Partial<LoginPageParams> {
  return { clientId: get("client_id"), redirectUri: get("redirect_uri"), state: get("state"), responseType: get("response_type") };
}

/** Why HA would not let this request sign in, or undefined. `response_type` is carried but, as in HA, not checked. */
function refuse(p: Partial<LoginPageParams>): string | undefined {
  if (!p.clientId) return "The request has no client_id. Add client_id (the client's URL) to the authorize URL.";
  if (!p.redirectUri) return "The request has no redirect_uri. Add redirect_uri to the authorize URL.";
  const problem = clientIdProblem(p.clientId);
  if (problem) return `Invalid client id: ${problem}`;
  const redirect = checkRedirect({ clientId: p.clientId, redirectUri: p.redirectUri });
  return redirect.ok ? undefined : `Invalid redirect URI. ${redirect.reason}`;
}

/**
 * Where HA's login page sends the browser: the redirect URI with its own
 * query kept, then `code`, then `state` when one was given.
 */
export function redirectWithCode(o: { redirectUri: string; code: string; state: string | undefined }): string {
  let url = o.redirectUri;
  if (!url.includes("?")) url += "?";
  else if (!url.endsWith("&")) url += "&";
  url += `code=${encodeURIComponent(o.code)}`;
  if (o.state) url += `&state=${encodeURIComponent(o.state)}`;
  return url;
}
