export { OAuthError, type OAuthErrorCode } from "./errors.js";
export { ISSUED_TOKEN_PREFIX } from "./token-hash.js";
export { createOAuthFront, type OAuthFront } from "./front.js";
export type { FrontDeps } from "./context.js";
export { createGrantGuard, type GrantGuard, type GuardedGrant } from "./grant-guard.js";
export { createHaLoginUrl, type HaAddresses } from "./ha-login-url.js";
export { HaUnreachableError } from "./ha-unreachable.js";
export { OAUTH_PATHS, MCP_SCOPE, bearerChallenge, mcpResourceOf } from "./metadata.js";
export { startOAuth, type OAuthService, type StartOAuthOptions } from "./start.js";
