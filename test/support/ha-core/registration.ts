import { HaFlowAbort } from "./errors.js";

/**
 * Dynamic client registration as homeassistant/components/mcp/registration.py
 * does it (`async_register_dynamic_client`, `_parse_registration_response`),
 * with the names of const.py.
 */

/** const.py `DCR_CLIENT_NAME`. */
export const DCR_CLIENT_NAME = "Home Assistant";
export type TokenEndpointAuthMethod = "none" | "client_secret_post" | "client_secret_basic";
/**
 * const.py `SUPPORTED_TOKEN_ENDPOINT_AUTH_METHODS`, in preference order:
 * registration.py's `select_token_endpoint_auth_method` says public clients
 * first when listed, then a confidential method HA can present.
 */
export const SUPPORTED_TOKEN_ENDPOINT_AUTH_METHODS: readonly TokenEndpointAuthMethod[] = ["none", "client_secret_post", "client_secret_basic"];

/** registration.py `select_token_endpoint_auth_method`: absent means client_secret_basic (RFC 8414); a list without one HA can use fails. */
export function selectTokenEndpointAuthMethod(methods: string[] | null): TokenEndpointAuthMethod {
  if (methods === null) return "client_secret_basic";
  const method = SUPPORTED_TOKEN_ENDPOINT_AUTH_METHODS.find((m) => methods.includes(m));
  if (!method) throw new HaFlowAbort("_async_register_dynamic_client", "oauth_registration_failed", `the server advertises ${JSON.stringify(methods)}, none of which HA can present`);
  return method;
}

/** registration.py `normalized_scopes`: sorted, unique; none and [] are the same. */
export const normalizedScopes = (scopes: string[] | null): string[] => [...new Set(scopes ?? [])].sort();

export interface RegisteredClient {
  clientId: string;
  clientSecret: string;
  method: TokenEndpointAuthMethod;
}

export interface Registration {
  /** The JSON body HA posted. */
  request: Record<string, unknown>;
  /** What the server answered, parsed. */
  response: Record<string, unknown>;
  status: number;
  client: RegisteredClient;
}

const refuse = (detail: string): never => {
  throw new HaFlowAbort("_async_register_dynamic_client", "oauth_registration_failed", detail);
};

/**
 * registration.py `async_register_dynamic_client`: the client metadata the
 * python `mcp` package's `OAuthClientMetadata` dumps (`mode="json"`,
 * `exclude_none`), plus `application_type: "web"`; POSTed as JSON with
 * `Accept: application/json`; 200 or 201 only.
 */
export async function registerDynamicClient(o: { fetch: typeof fetch; registrationEndpoint: string; redirectUri: string; tokenEndpointAuthMethods: string[] | null; scopes: string[] | null }): Promise<Registration> {
  const method = selectTokenEndpointAuthMethod(o.tokenEndpointAuthMethods);
  // pydantic's field order in OAuthClientMetadata; None fields are left out.
  const request: Record<string, unknown> = {
    redirect_uris: [o.redirectUri],
    token_endpoint_auth_method: method,
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    ...(o.scopes?.length ? { scope: o.scopes.join(" ") } : {}),
    client_name: DCR_CLIENT_NAME,
    application_type: "web",
  };
  const answer = await o.fetch(o.registrationEndpoint, { method: "POST", headers: { "content-type": "application/json", accept: "application/json" }, body: JSON.stringify(request) });
  const text = await answer.text();
  if (answer.status !== 200 && answer.status !== 201) refuse(`Registration failed with status ${answer.status} at ${o.registrationEndpoint}: ${text.slice(0, 300)}`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    refuse("Registration response was not JSON");
  }
  const client = parseRegistrationResponse(body, o.redirectUri, method, normalizedScopes(o.scopes));
  return { request, response: body as Record<string, unknown>, status: answer.status, client };
}

/**
 * registration.py `_parse_registration_response` and its checks: the redirect
 * URI HA asked for is among `redirect_uris` (when listed), `scope` covers every
 * requested scope (when given), a non-empty `client_id`, an auth method HA can
 * present, a secret when the method needs one, and a secret that never expires.
 */
export function parseRegistrationResponse(body: unknown, redirectUri: string, requested: TokenEndpointAuthMethod, requestedScopes: string[]): RegisteredClient {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return refuse("Registration response was not an object");
  const payload = body as Record<string, unknown>;
  const uris = payload.redirect_uris;
  if (uris !== undefined && uris !== null) {
    if (!Array.isArray(uris) || uris.some((u) => typeof u !== "string")) refuse("Registration response redirect_uris was invalid");
    if (!(uris as string[]).includes(redirectUri)) refuse(`Registration response did not include the redirect URI ${redirectUri} (got ${JSON.stringify(uris)})`);
  }
  const scope = payload.scope;
  if (scope !== undefined && scope !== null) {
    if (typeof scope !== "string") refuse("Registration response scope was invalid");
    const granted = new Set((scope as string).split(/\s+/).filter(Boolean));
    if (!requestedScopes.every((s) => granted.has(s))) refuse(`Registration response did not grant the requested scopes ${JSON.stringify(requestedScopes)} (got "${scope as string}")`);
  }
  const clientId = payload.client_id;
  if (typeof clientId !== "string" || !clientId) refuse("Registration response did not include client_id");
  const issued = payload.token_endpoint_auth_method;
  let method: TokenEndpointAuthMethod = requested;
  if (issued !== undefined && issued !== null) {
    if (!SUPPORTED_TOKEN_ENDPOINT_AUTH_METHODS.includes(issued as TokenEndpointAuthMethod)) refuse(`Registration response token_endpoint_auth_method ${JSON.stringify(issued)} is not supported`);
    method = issued as TokenEndpointAuthMethod;
  }
  const secret = payload.client_secret;
  let clientSecret: string;
  if (method === "none") {
    if (secret !== undefined && secret !== null && typeof secret !== "string") refuse("Registration response client_secret was invalid");
    clientSecret = typeof secret === "string" ? secret : "";
  } else {
    if (typeof secret !== "string" || !secret) refuse("Registration response did not include client_secret");
    clientSecret = secret as string;
  }
  const expires = payload.client_secret_expires_at;
  if (expires !== undefined && expires !== null) {
    if (typeof expires !== "number" || !Number.isInteger(expires) || expires < 0) refuse("client_secret_expires_at was invalid");
    if (expires !== 0) throw new HaFlowAbort("_async_register_dynamic_client", "oauth_secret_expires", "Authorization server issued a client secret that expires");
  }
  return { clientId: clientId as string, clientSecret, method };
}
