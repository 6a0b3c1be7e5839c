import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { HaFlowAbort } from "./errors.js";
import type { RegisteredClient } from "./registration.js";

/**
 * The OAuth 2 half of the flow, as homeassistant/helpers/config_entry_oauth2_flow.py
 * does it (`async_get_redirect_uri`, `LocalOAuth2Implementation(WithPkce)`,
 * `AbstractOAuth2FlowHandler.async_step_auth` / `async_step_creation`,
 * `OAuth2AuthorizeCallbackView`) with the mcp integration's parts
 * (config_flow.py `extra_authorize_data`, application_credentials.py
 * `McpRegisteredOAuth2Implementation._token_request`).
 */

/** config_entry_oauth2_flow.py `MY_AUTH_CALLBACK_PATH` and `AUTH_CALLBACK_PATH`. */
export const MY_AUTH_CALLBACK_PATH = "https://my.home-assistant.io/redirect/oauth";
export const AUTH_CALLBACK_PATH = "/auth/external/callback";

/** What `async_get_redirect_uri` reads: the loaded components and the frontend request's `HA-Frontend-Base` header. */
export interface HassConfig {
  components: ReadonlySet<string>;
  /** The `HA-Frontend-Base` header of the person's request: the origin their browser uses for HA. */
  frontendBase: string | undefined;
}

/** config_entry_oauth2_flow.py `async_get_redirect_uri`: my.home-assistant.io when `my` is loaded (default_config), else `<HA-Frontend-Base>/auth/external/callback`. */
export function redirectUriOf(hass: HassConfig): string {
  if (hass.components.has("my")) return MY_AUTH_CALLBACK_PATH;
  if (hass.frontendBase === undefined) throw new HaFlowAbort("_async_register_dynamic_client", "no_url_available", "No header in request");
  return `${hass.frontendBase}${AUTH_CALLBACK_PATH}`;
}

/** `LocalOAuth2ImplementationWithPkce.generate_code_verifier(128)`: `secrets.token_urlsafe(96)[:128]`. */
export const generateCodeVerifier = (length = 128): string => randomBytes(96).toString("base64url").slice(0, length);

/** `LocalOAuth2ImplementationWithPkce.compute_code_challenge`: unpadded base64url of SHA-256. */
export const computeCodeChallenge = (verifier: string): string => createHash("sha256").update(verifier, "ascii").digest("base64url");

/** PyJWT's compact JSON (`separators=(",", ":")`); the header's keys sorted, as PyJWT sorts them. */
const b64json = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString("base64url");

/** config_entry_oauth2_flow.py `_encode_jwt`: HS256 over {flow_id, redirect_uri} with `secrets.token_hex()` as the key. */
export function encodeJwt(secret: string, data: Record<string, unknown>): string {
  const signingInput = `${b64json({ alg: "HS256", typ: "JWT" })}.${b64json(data)}`;
  return `${signingInput}.${createHmac("sha256", secret).update(signingInput).digest("base64url")}`;
}

/** config_entry_oauth2_flow.py `_decode_jwt`: null for a state HA did not sign. */
export function decodeJwt(secret: string, encoded: string): Record<string, unknown> | null {
  const [header, payload, signature] = encoded.split(".");
  if (!header || !payload || !signature) return null;
  const expected = createHmac("sha256", secret).update(`${header}.${payload}`).digest();
  const given = Buffer.from(signature, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return JSON.parse(Buffer.from(payload, "base64url").toString()) as Record<string, unknown>;
}

/**
 * yarl's query quoting (`_QUERY_PART_QUOTER`, qs=True): unreserved
 * characters, "!$'()*," and "?/:@" stay; a space becomes "+"; the rest is
 * percent-encoded as UTF-8.
 */
export function yarlQuote(value: string): string {
  return [...Buffer.from(value, "utf8")]
    .map((byte) => {
      const ch = String.fromCharCode(byte);
      if (/[A-Za-z0-9\-._~!$'()*,?/:@]/.test(ch)) return ch;
      if (ch === " ") return "+";
      return `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
    })
    .join("");
}

/** yarl `with_query(...)` then `update_query(...)`: keys in insertion order, later ones replacing earlier ones in place. */
export function withQuery(base: string, ...parts: Record<string, string>[]): string {
  const merged = new Map<string, string>();
  for (const part of parts) for (const [key, value] of Object.entries(part)) merged.set(key, value);
  const url = new URL(base);
  return `${url.origin}${url.pathname}?${[...merged].map(([k, v]) => `${yarlQuote(k)}=${yarlQuote(v)}`).join("&")}`;
}

/** One flow's implementation: the registered client, the PKCE verifier made when it was built, and HA's JWT secret. */
export interface FlowImplementation {
  client: RegisteredClient;
  authorizeUrl: string;
  tokenUrl: string;
  /** `McpRegisteredOAuth2Implementation.redirect_uri`: the callback the client was registered with. */
  redirectUri: string;
  codeVerifier: string;
}

/**
 * `AbstractOAuth2FlowHandler.async_generate_authorize_url`: the
 * implementation's URL (`LocalOAuth2Implementation.async_generate_authorize_url`:
 * response_type, client_id, redirect_uri, state; then the PKCE pair of
 * `LocalOAuth2ImplementationWithPkce.extra_authorize_data`), updated with the
 * mcp flow's `extra_authorize_data` (access_type, prompt, scope).
 */
export function authorizeUrlOf(o: { impl: FlowImplementation; flowId: string; jwtSecret: string; scopes: string[] | null }): { url: string; state: string } {
  const state = encodeJwt(o.jwtSecret, { flow_id: o.flowId, redirect_uri: o.impl.redirectUri });
  const implementation = withQuery(
    o.impl.authorizeUrl,
    { response_type: "code", client_id: o.impl.client.clientId, redirect_uri: o.impl.redirectUri, state },
    { code_challenge: computeCodeChallenge(o.impl.codeVerifier), code_challenge_method: "S256" },
  );
  // config_flow.py `extra_authorize_data` (the handler's; its super() adds nothing).
  const flowExtra: Record<string, string> = { access_type: "offline", prompt: "consent", ...(o.scopes !== null ? { scope: o.scopes.join(" ") } : {}) };
  const current = Object.fromEntries(new URL(implementation).searchParams);
  return { url: withQuery(implementation, current, flowExtra), state };
}

/**
 * `OAuth2AuthorizeCallbackView.get`: the state must be a JWT HA signed; then
 * `code` (or `error`) goes to the flow named in it.
 */
export function receiveCallback(o: { back: URL; jwtSecret: string; flowId: string }): { code: string; state: Record<string, unknown> } {
  const raw = o.back.searchParams.get("state");
  if (raw === null) throw new HaFlowAbort("OAuth2AuthorizeCallbackView", "missing_state", `Missing state parameter in ${o.back.toString()}`);
  const state = decodeJwt(o.jwtSecret, raw);
  if (state === null) throw new HaFlowAbort("OAuth2AuthorizeCallbackView", "invalid_state", `Invalid state: the state in ${o.back.toString()} is not the one HA signed`);
  if (state.flow_id !== o.flowId) throw new HaFlowAbort("OAuth2AuthorizeCallbackView", "invalid_state", `the state names flow ${String(state.flow_id)}, not ${o.flowId}`);
  const error = o.back.searchParams.get("error");
  const code = o.back.searchParams.get("code");
  if (code === null) throw new HaFlowAbort("async_step_authorize_rejected", "user_rejected_authorize", error ?? "Missing code or error parameter");
  return { code, state };
}

/** Python's `urllib.parse.quote_plus`, as application_credentials.py `_encode_client_basic_auth` uses it: only letters, digits and "_.-~" stay; a space is "+". */
const quotePlus = (value: string): string => encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).replace(/%20/g, "+");

export interface TokenExchange {
  /** The form fields HA posted, in its order. */
  form: [string, string][];
  headers: Record<string, string>;
  token: Record<string, unknown>;
}

/**
 * `LocalOAuth2Implementation.async_resolve_external_data` and `_token_request`
 * (client_id last, client_secret only when non-empty; form-encoded by aiohttp),
 * or `McpRegisteredOAuth2Implementation._token_request` for
 * client_secret_basic (secret in an Authorization header). Then
 * `async_step_creation`'s checks: `expires_in` present and an integer.
 */
export async function exchangeCode(o: { fetch: typeof fetch; impl: FlowImplementation; code: string; state: Record<string, unknown> }): Promise<TokenExchange> {
  const { client } = o.impl;
  const form: [string, string][] = [
    ["grant_type", "authorization_code"],
    ["code", o.code],
    ["redirect_uri", String(o.state.redirect_uri)],
    ["code_verifier", o.impl.codeVerifier],
    ["client_id", client.clientId],
  ];
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" };
  // A public client sends no secret: McpRegisteredOAuth2Implementation blanks an echoed one.
  const secret = client.method === "none" ? "" : client.clientSecret;
  if (client.method === "client_secret_basic") {
    headers.authorization = `Basic ${Buffer.from(`${quotePlus(client.clientId)}:${quotePlus(secret)}`).toString("base64")}`;
  } else if (secret) form.push(["client_secret", secret]);
  const answer = await o.fetch(o.impl.tokenUrl, { method: "POST", headers, body: new URLSearchParams(form).toString(), signal: AbortSignal.timeout(30_000) });
  const text = await answer.text();
  if (answer.status === 401) throw new HaFlowAbort("async_step_creation", "oauth_unauthorized", `token endpoint ${o.impl.tokenUrl} answered 401: ${text.slice(0, 300)}`);
  if (answer.status >= 400) throw new HaFlowAbort("async_step_creation", "oauth_failed", `token endpoint ${o.impl.tokenUrl} answered ${answer.status}: ${text.slice(0, 300)}`);
  const token = JSON.parse(text) as Record<string, unknown>;
  if (!("expires_in" in token)) throw new HaFlowAbort("async_step_creation", "oauth_error", `Invalid token (no expires_in): ${Object.keys(token).join(", ")}`);
  const expiresIn = Number.parseInt(String(token.expires_in), 10);
  if (Number.isNaN(expiresIn)) throw new HaFlowAbort("async_step_creation", "oauth_error", `expires_in is not an integer: ${String(token.expires_in)}`);
  return { form, headers, token: { ...token, expires_in: expiresIn, expires_at: Date.now() / 1000 + expiresIn } };
}
