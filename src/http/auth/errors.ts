import { HaAgentError } from "../../shared/index.js";

/** Home Assistant could not be asked whether a token is valid; the caller should retry. */
export class AuthUnavailableError extends HaAgentError {
  constructor(detail: string, options?: { cause?: unknown }) {
    super("auth_unavailable", `Cannot check the token with Home Assistant right now (${detail}). Try again in a few seconds.`, options);
  }
}
