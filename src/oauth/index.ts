export { startOAuth, type OAuthService, type StartOAuthOptions } from "./start.js";
export type { OAuthFront } from "./front.js";
export { OAuthError, type OAuthErrorCode } from "./errors.js";
export type { OAuthCaller } from "./context.js";
