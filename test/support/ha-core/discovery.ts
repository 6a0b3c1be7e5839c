import type { AuthenticateHeader } from "./auth-header.js";
import { CannotConnect, HaFlowAbort, NotFoundError, TimeoutConnectError } from "./errors.js";

/**
 * Discovery as homeassistant/components/mcp/config_flow.py does it: the URL
 * check of `async_step_hassio`, then `async_step_auth_discovery`'s protected
 * resource and authorization server metadata, and `_select_scopes`.
 */

/** config_flow.py `OAUTH_PROTECTED_RESOURCE_ENDPOINT`. */
const OAUTH_PROTECTED_RESOURCE_ENDPOINT = "/.well-known/oauth-protected-resource";

/**
 * helpers/config_validation.py `url`: the scheme must be one of
 * EXTERNAL_URL_PROTOCOL_SCHEMA_LIST (http, https) and the URL must have a
 * network location (`vol.Url`); the value comes back unchanged.
 */
export function cvUrl(value: unknown): string {
  const text = String(value);
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    throw new Error(`invalid url: ${text}`);
  }
  if (!["http:", "https:"].includes(parsed.protocol) || parsed.host === "") throw new Error(`invalid url: ${text}`);
  return text;
}

/** A Supervisor discovery message as HA receives it (helpers/service_info/hassio.py `HassioServiceInfo`). */
export interface HassioServiceInfo {
  config: Record<string, unknown>;
  name: string;
  slug: string;
  uuid: string;
}

/**
 * config_flow.py `async_step_hassio`: reads only `config.url`, validates it
 * with `cv.url` (an invalid one aborts `invalid_discovery_info`), and keeps the
 * URL, slug and add-on name for `async_step_hassio_confirm`.
 */
export function stepHassio(info: HassioServiceInfo): { url: string; slug: string; addonName: string; uniqueId: string } {
  let url: string;
  try {
    url = cvUrl(info.config.url);
  } catch (error) {
    throw new HaFlowAbort("async_step_hassio", "invalid_discovery_info", (error as Error).message);
  }
  return { url, slug: info.slug, addonName: info.name, uniqueId: info.uuid };
}

/** yarl `URL.with_path`: same scheme, host and port; this path; no query or fragment. */
const withPath = (url: string, path: string): string => `${new URL(url).origin}${path}`;

/** One GET of config_flow.py `_async_fetch_any`'s inner `fetch`: raise_for_status, 404 as NotFoundError. */
async function fetchOne(fetchFn: typeof fetch, url: string): Promise<Response> {
  let response: Response;
  try {
    // httpx2.AsyncClient(): its default 5-second timeout, no redirects followed.
    response = await fetchFn(url, { signal: AbortSignal.timeout(5_000), redirect: "manual" });
  } catch (error) {
    if ((error as Error).name === "TimeoutError") throw new TimeoutConnectError(`timeout fetching ${url}`);
    throw new CannotConnect(`cannot fetch ${url}: ${(error as Error).message}`, { cause: error });
  }
  if (response.status >= 200 && response.status < 300) return response;
  await response.body?.cancel();
  if (response.status === 404) throw new NotFoundError(`404 from ${url}`);
  throw new CannotConnect(`HTTP ${response.status} from ${url}`);
}

/**
 * config_flow.py `_async_fetch_any`: every URL at once; the first success in
 * completion order wins; when all fail, the first failure to complete is raised.
 */
export async function fetchAny(fetchFn: typeof fetch, urls: string[]): Promise<{ url: string; response: Response }> {
  const attempts = urls.map((url) => fetchOne(fetchFn, url).then((response) => ({ url, response })));
  const failures: Error[] = [];
  return new Promise((resolve, reject) => {
    for (const attempt of attempts) {
      attempt.then(resolve, (error: Error) => {
        failures.push(error);
        if (failures.length === attempts.length) reject(failures[0] ?? new CannotConnect("No responses received from any URL"));
      });
    }
  });
}

export interface ResourceMetadata {
  authorizationServers: string[];
  supportedScopes: string[] | null;
  /** Which URL answered (for the test's story, not used by HA). */
  from: string;
}

/** config_flow.py `_protected_resource_urls`: the header's URL first, then path-inserted and root well-known fallbacks. */
export function protectedResourceUrls(authUrl: string, mcpServerUrl: string): string[] {
  const path = new URL(mcpServerUrl).pathname;
  const urls = authUrl ? [authUrl] : [];
  for (const url of [withPath(mcpServerUrl, `${OAUTH_PROTECTED_RESOURCE_ENDPOINT}${path}`), withPath(mcpServerUrl, OAUTH_PROTECTED_RESOURCE_ENDPOINT)]) {
    if (!urls.includes(url)) urls.push(url);
  }
  return urls;
}

/** config_flow.py `_resource_metadata_from_document`: `resource` must equal the MCP URL exactly. */
export function resourceMetadataFromDocument(data: unknown, mcpServerUrl: string, from: string): ResourceMetadata | null {
  if (typeof data !== "object" || data === null || Array.isArray(data)) return null;
  const doc = data as Record<string, unknown>;
  const servers = doc.authorization_servers;
  if (!servers || !Array.isArray(servers) || servers.length === 0 || !doc.resource || doc.resource !== mcpServerUrl) return null;
  return { authorizationServers: servers as string[], supportedScopes: (doc.scopes_supported as string[] | undefined) ?? null, from };
}

/** config_flow.py `async_discover_protected_resource`: each URL alone, in order; an ignored document still counts as invalid. */
export async function discoverProtectedResource(fetchFn: typeof fetch, authUrl: string, mcpServerUrl: string): Promise<ResourceMetadata> {
  let lastError: Error | undefined;
  let sawInvalid = false;
  const ignored: string[] = [];
  for (const url of protectedResourceUrls(authUrl, mcpServerUrl)) {
    let response: Response;
    try {
      ({ response } = await fetchAny(fetchFn, [url]));
    } catch (error) {
      if (error instanceof NotFoundError) continue;
      lastError = error as Error;
      continue;
    }
    let data: unknown;
    try {
      data = await response.json();
    } catch {
      sawInvalid = true;
      continue;
    }
    const metadata = resourceMetadataFromDocument(data, mcpServerUrl, url);
    if (metadata === null) {
      sawInvalid = true;
      ignored.push(`${url} (resource ${JSON.stringify((data as { resource?: unknown }).resource)})`);
      continue;
    }
    return metadata;
  }
  if (lastError !== undefined && !sawInvalid) throw lastError;
  throw new CannotConnect(`OAuth resource metadata is invalid for ${mcpServerUrl}${ignored.length ? `; ignored: ${ignored.join(", ")}` : ""}`);
}

export interface OAuthConfig {
  authorizeUrl: string;
  tokenUrl: string;
  scopes: string[] | null;
  registrationEndpoint: string | null;
  tokenEndpointAuthMethods: string[] | null;
  /** Which well-known URL answered; null when HA fell back to /authorize and /token. */
  from: string | null;
}

/** config_flow.py `_authorization_server_discovery_paths`. */
export function authorizationServerDiscoveryPaths(authServerUrl: string): string[] {
  const path = new URL(authServerUrl).pathname;
  if (path && path !== "/") return [`/.well-known/oauth-authorization-server${path}`, `/.well-known/openid-configuration${path}`, `${path}/.well-known/openid-configuration`];
  return ["/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"];
}

/** config_flow.py `_string_list`: absent is null (RFC 8414's client_secret_basic default); anything but a list of strings is []. */
function stringList(data: Record<string, unknown>, key: string): string[] | null {
  if (!(key in data)) return null;
  const value = data[key];
  return Array.isArray(value) && value.every((item) => typeof item === "string") ? (value as string[]) : [];
}

/** registration.py `resolve_registration_endpoint`: absolute as given, else joined onto the authorization server URL. */
export function resolveRegistrationEndpoint(authServerUrl: string, endpoint: string): string {
  return /^[a-z][a-z0-9+.-]*:/i.test(endpoint) ? endpoint : new URL(endpoint, authServerUrl).toString();
}

/**
 * config_flow.py `async_discover_authorization_server`: both well-known URLs
 * at once, first success wins; a 404 (all of them) means /authorize and
 * /token at the server's root; endpoints starting with "/" are put on its origin.
 */
export async function discoverAuthorizationServer(fetchFn: typeof fetch, authServerUrl: string): Promise<OAuthConfig> {
  const urls = authorizationServerDiscoveryPaths(authServerUrl).map((path) => withPath(authServerUrl, path));
  let answered: { url: string; response: Response };
  try {
    answered = await fetchAny(fetchFn, urls);
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    return { authorizeUrl: withPath(authServerUrl, "/authorize"), tokenUrl: withPath(authServerUrl, "/token"), scopes: null, registrationEndpoint: null, tokenEndpointAuthMethods: null, from: null };
  }
  const data = (await answered.response.json()) as Record<string, unknown>;
  let authorizeUrl = data.authorization_endpoint as string;
  let tokenUrl = data.token_endpoint as string;
  if (authorizeUrl.startsWith("/")) authorizeUrl = withPath(authServerUrl, authorizeUrl);
  if (tokenUrl.startsWith("/")) tokenUrl = withPath(authServerUrl, tokenUrl);
  const registration = data.registration_endpoint;
  return {
    authorizeUrl,
    tokenUrl,
    scopes: (data.scopes_supported as string[] | undefined) ?? null,
    registrationEndpoint: typeof registration === "string" && registration ? resolveRegistrationEndpoint(authServerUrl, registration) : null,
    tokenEndpointAuthMethods: stringList(data, "token_endpoint_auth_methods_supported"),
    from: answered.url,
  };
}

/** config_flow.py `_select_scopes`: the challenge's scope, else the resource's, else the authorization server's. */
export function selectScopes(header: AuthenticateHeader | null, oauth: OAuthConfig, resource: ResourceMetadata | null): string[] | null {
  if (header?.scopes?.length) return header.scopes;
  if (resource?.supportedScopes?.length) return resource.supportedScopes;
  return oauth.scopes;
}
