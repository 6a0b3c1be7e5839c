/** The scope every token of the front carries: use of this MCP server. */
export const MCP_SCOPE = "mcp";

/** Where each endpoint lives, below the add-on's origin. */
export const OAUTH_PATHS = {
  protectedResource: "/.well-known/oauth-protected-resource",
  protectedResourceMcp: "/.well-known/oauth-protected-resource/mcp",
  authorizationServer: "/.well-known/oauth-authorization-server",
  authorize: "/oauth/authorize",
  token: "/oauth/token",
  register: "/oauth/register",
  revoke: "/oauth/revoke",
  callback: "/oauth/callback",
} as const;

/** The MCP URL a client reaches at this origin: the resource every token is bound to. */
export const mcpResourceOf = (origin: string): string => `${origin}/mcp`;

/**
 * Protected-resource metadata (RFC 9728). `resource` must be exactly the MCP
 * URL the client used: Home Assistant's client ignores a document whose
 * resource differs.
 */
export function protectedResourceMetadata(origin: string) {
  return {
    resource: mcpResourceOf(origin),
    authorization_servers: [origin],
    scopes_supported: [MCP_SCOPE],
    bearer_methods_supported: ["header"],
    resource_name: "HA Agent",
  };
}

/** Authorization-server metadata (RFC 8414); the issuer is the add-on's own origin. */
export function authorizationServerMetadata(origin: string) {
  return {
    issuer: origin,
    authorization_endpoint: `${origin}${OAUTH_PATHS.authorize}`,
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

/** The `WWW-Authenticate` value of a 401 from `/mcp` or `/events`: quoted values, as Home Assistant's client parses them with a regex that needs the quotes. */
export function bearerChallenge(origin: string, error?: { code: string; description: string }): string {
  const parts = [`resource_metadata="${origin}${OAUTH_PATHS.protectedResourceMcp}"`, `scope="${MCP_SCOPE}"`];
  if (error) parts.push(`error="${error.code}"`, `error_description="${error.description.replace(/["\\]/g, "")}"`);
  return `Bearer ${parts.join(", ")}`;
}
