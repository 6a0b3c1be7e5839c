export { createTokenVerifier, type TokenVerifier, type TokenVerifierOptions } from "./token-verifier.js";
export { authenticate, TOKEN_HINTS, type AuthenticateOptions } from "./bearer.js";
export { withIssuedTokens, type IssuedTokenCheck } from "./issued-tokens.js";
export { AuthUnavailableError, TooManyTokenChecksError } from "./errors.js";
export { couldBeHaToken } from "./token-shape.js";
export { fetchCurrentUser } from "./current-user.js";
export { CheckBudget, type CheckBudgetOptions } from "./check-budget.js";
