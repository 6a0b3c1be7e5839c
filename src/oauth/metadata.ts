import { MCP_PATHS, mcpPathOf, type McpPath } from "../shared/index.js";

/** The scope every token of the front carries: use of this MCP server. */
export const MCP_SCOPE = "mcp";

/** Where each endpoint lives, below the add-on's origin. */
export const OAUTH_PATHS = {
  protectedResource: "/.well-known/oauth-protected-resource",
  protectedResourceMcp: `/.well-known/oauth-protected-resource${MCP_PATHS.all}`,
  protectedResourceAssist: `/.well-known/oauth-protected-resource${MCP_PATHS.assist}`,
  authorizationServer: "/.well-known/oauth-authorization-server",
  authorize: "/oauth/authorize",
  token: "/oauth/token",
  register: "/oauth/register",
  revoke: "/oauth/revoke",
  callback: "/oauth/callback",
} as const;

/** An MCP URL a client reaches at this origin: the resource a token is bound to. */
export const mcpResourceOf = (origin: string, path: McpPath = MCP_PATHS.all): string => `${origin}${path}`;

/** The origin and MCP path of `resource` when it names one of this server's MCP endpoints (at any origin); undefined otherwise. */
export function parseResource(resource: string): { origin: string; path: McpPath } | undefined {
  let url: URL;
  try {
    url = new URL(resource);
  } catch {
    return undefined;
  }
  const path = mcpPathOf(url.pathname);
  if (!path || url.search || url.hash || url.username || url.password || (url.protocol !== "http:" && url.protocol !== "https:")) return undefined;
  return { origin: url.origin, path };
}

/**
 * Protected-resource metadata (RFC 9728). `resource` must be exactly the MCP
 * URL the client used: Home Assistant's client ignores a document whose
 * resource differs (mcp/config_flow.py, _resource_metadata_from_document).
 */
export function protectedResourceMetadata(origin: string, path: McpPath) {
  return {
    resource: mcpResourceOf(origin, path),
    authorization_servers: [origin],
    scopes_supported: [MCP_SCOPE],
    bearer_methods_supported: ["header"],
    resource_name: "HA Agent",
  };
}

/**
 * Authorization-server metadata (RFC 8414). The issuer and every endpoint a
 * client calls itself are at the origin it asked; the authorization
 * endpoint, which a person's browser opens, is at `pagesOrigin`: the same
 * origin, except when the client asked by a name only the add-on network
 * resolves (see sign-in-origin.ts).
 */
export function authorizationServerMetadata(origin: string, pagesOrigin: string = origin) {
  return {
    issuer: origin,
    authorization_endpoint: `${pagesOrigin}${OAUTH_PATHS.authorize}`,
    token_endpoint: `${origin}${OAUTH_PATHS.token}`,
    registration_endpoint: `${origin}${OAUTH_PATHS.register}`,
    revocation_endpoint: `${origin}${OAUTH_PATHS.revoke}`,
    scopes_supported: [MCP_SCOPE],
    response_types_supported: ["code"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    // A client must refuse a server that does not list S256; it is also the only method accepted.
    code_challenge_methods_supported: ["S256"],
    token_endpoint_auth_methods_supported: ["none"],
    revocation_endpoint_auth_methods_supported: ["none"],
    client_id_metadata_document_supported: true,
    authorization_response_iss_parameter_supported: true,
  };
}

/** The `WWW-Authenticate` value of a 401 from an MCP path or `/events`: quoted values, as Home Assistant's client parses them with a regex that needs the quotes. */
export function bearerChallenge(origin: string, path: McpPath, error?: { code: string; description: string }): string {
  const parts = [`resource_metadata="${origin}/.well-known/oauth-protected-resource${path}"`, `scope="${MCP_SCOPE}"`];
  if (error) parts.push(`error="${error.code}"`, `error_description="${error.description.replace(/["\\]/g, "")}"`);
  return `Bearer ${parts.join(", ")}`;
}
