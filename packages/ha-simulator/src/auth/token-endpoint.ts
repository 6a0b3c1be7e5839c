import type { IncomingMessage, ServerResponse } from "node:http";
import { ACCESS_TOKEN_SECONDS, type SimAuth } from "./auth-store.js";
import { readForm } from "./form.js";
import { clientIdProblem } from "./indieauth.js";
import { send } from "./respond.js";

/**
 * HA's `/auth/token` (`components/auth/__init__.py`, TokenView): the
 * authorization-code and refresh grants, with HA's exact status codes and
 * bodies, and `action=revoke`, which HA still accepts here.
 */
export async function handleToken(o: { auth: SimAuth; req: IncomingMessage; res: ServerResponse }): Promise<void> {
  const data = await readForm(o.req);
  if (!data) return json(o.res, 413, { error: "invalid_request", error_description: "Request body too large" });
  if (data.get("action") === "revoke") return revoke(o.auth, data, o.res);
  const grant = data.get("grant_type");
  if (grant === "authorization_code") return authorizationCode(o.auth, data, o.res);
  if (grant === "refresh_token") return refreshGrant(o.auth, data, o.res);
  json(o.res, 400, { error: "unsupported_grant_type" });
}

/** HA's `/auth/revoke`: always 200 with an empty body, whether or not the token existed (RFC 7009, 2.2). */
export async function handleRevoke(o: { auth: SimAuth; req: IncomingMessage; res: ServerResponse }): Promise<void> {
  revoke(o.auth, (await readForm(o.req)) ?? new Map(), o.res);
}

function revoke(auth: SimAuth, data: Map<string, string>, res: ServerResponse): void {
  const token = data.get("token");
  const record = token === undefined ? undefined : auth.refreshTokenByToken(token);
  if (record) auth.removeRefreshToken(record.id);
  res.writeHead(200, { "Content-Length": 0 }).end();
}

function authorizationCode(auth: SimAuth, data: Map<string, string>, res: ServerResponse): void {
  const clientId = data.get("client_id");
  if (clientId === undefined || clientIdProblem(clientId)) return json(res, 400, { error: "invalid_request", error_description: "Invalid client id" });
  const code = data.get("code");
  const user = code === undefined ? undefined : auth.redeemCode({ clientId, code });
  if (!user) return json(res, 400, { error: "invalid_request", error_description: "Invalid code" });
  const refresh = auth.createRefreshToken({ userId: user.id, clientId });
  json(
    res,
    200,
    { access_token: auth.createAccessToken(refresh), token_type: "Bearer", refresh_token: refresh.token, expires_in: ACCESS_TOKEN_SECONDS, ha_auth_provider: "homeassistant" },
    NO_STORE,
  );
}

function refreshGrant(auth: SimAuth, data: Map<string, string>, res: ServerResponse): void {
  // Unlike the code grant, HA lets client_id be absent here; it must then match a token that has none, which no login makes.
  const clientId = data.get("client_id");
  if (clientId !== undefined && clientIdProblem(clientId)) return json(res, 400, { error: "invalid_request", error_description: "Invalid client id" });
  const token = data.get("refresh_token");
  if (token === undefined) return json(res, 400, { error: "invalid_request" });
  const refresh = auth.refreshTokenByToken(token);
  if (!refresh) return json(res, 400, { error: "invalid_grant" });
  if (refresh.clientId !== clientId) return json(res, 400, { error: "invalid_request" });
  // No new refresh token: HA's refresh grant only ever returns a new access token.
  json(res, 200, { access_token: auth.createAccessToken(refresh), token_type: "Bearer", expires_in: ACCESS_TOKEN_SECONDS }, NO_STORE);
}

const NO_STORE = { "Cache-Control": "no-store", Pragma: "no-cache" };

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  send(res, status, "application/json", JSON.stringify(body), headers);
}
