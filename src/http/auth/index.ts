export { createTokenVerifier, type TokenVerifier, type TokenVerifierOptions } from "./token-verifier.js";
export { authenticate } from "./bearer.js";
export { AuthUnavailableError } from "./errors.js";
export { fetchCurrentUser } from "./current-user.js";
