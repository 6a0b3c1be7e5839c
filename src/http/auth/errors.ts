import { HaAgentError } from "../../shared/index.js";

/** Home Assistant could not be asked whether a token is valid; the caller should retry. */
export class AuthUnavailableError extends HaAgentError {
  constructor(
    /** What went wrong, with HA's address: for the log only. */
    readonly detail: string,
    options?: { cause?: unknown },
  ) {
    super("auth_unavailable", `Cannot check the token with Home Assistant right now (${detail}). Try again in a few seconds.`, options);
  }
}

/** Too many tokens HA never accepted came from this caller; checking more could get HA Agent banned. */
export class TooManyTokenChecksError extends HaAgentError {
  constructor(readonly retryAfterMs: number) {
    super("too_many_token_checks", `Too many unknown tokens were sent; try again in ${Math.ceil(retryAfterMs / 1000)} s with a valid Home Assistant token.`);
  }
}
