import { HaAgentError } from "../shared/index.js";

/**
 * Why a model call failed, for code to act on:
 * - `auth`: the key is missing, wrong or lacks access (never retried);
 * - `bad_request`: the provider rejected the request (never retried);
 * - `model_not_found`: the model name is unknown to the provider;
 * - `rate_limited`: still limited after our retries; `retryAfterMs` says when to try again;
 * - `unavailable`: the provider kept failing (5xx) or could not be reached;
 * - `aborted`: the caller's signal fired;
 * - `invalid_response`: the provider answered something we cannot read;
 * - `server_setup`: the server must be started differently (a missing flag); the message says what to add.
 */
export type ModelErrorCode = "auth" | "bad_request" | "model_not_found" | "rate_limited" | "unavailable" | "aborted" | "invalid_response" | "server_setup";

/** A failed model call. The message names the option to fix and never holds a key or a stack. */
export class ModelError extends HaAgentError {
  declare readonly code: ModelErrorCode;
  /** HTTP status of the last answer, when there was one. */
  readonly status: number | undefined;
  /** For `rate_limited`: how long the provider asked us to wait. */
  readonly retryAfterMs: number | undefined;

  constructor(code: ModelErrorCode, message: string, details: { status?: number; retryAfterMs?: number; cause?: unknown } = {}) {
    super(code, message, { cause: details.cause });
    this.status = details.status;
    this.retryAfterMs = details.retryAfterMs;
  }
}
