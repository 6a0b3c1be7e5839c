export { OAuthError, type OAuthErrorCode } from "./errors.js";
export { ISSUED_TOKEN_PREFIX, newToken, tokenHash } from "./token-hash.js";
export * from "./grants/index.js";
