export { createTokenVerifier, type TokenVerifier, type TokenVerifierOptions } from "./token-verifier.js";
export { authenticate } from "./bearer.js";
export { AuthUnavailableError, TooManyTokenChecksError } from "./errors.js";
export { couldBeHaToken } from "./token-shape.js";
export { fetchCurrentUser } from "./current-user.js";
