export { SimAuth, ACCESS_TOKEN_SECONDS, CODE_LIFETIME_MS, type RefreshTokenInfo } from "./auth-store.js";
export { handleAuthRequest, redirectWithCode } from "./routes.js";
export { checkRedirect, clientIdProblem } from "./indieauth.js";
export type { TokenEndpointFault } from "./http-faults.js";
