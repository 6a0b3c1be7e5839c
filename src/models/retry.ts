import type { Clock } from "../shared/index.js";
import { ModelError } from "./errors.js";

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  /** Backoff for 5xx and unreachable providers: base × 2^(attempt-1), capped, with full jitter. */
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 4, baseDelayMs: 1_000, maxDelayMs: 20_000 };

export interface RetryDeps {
  clock: Clock;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  random: () => number;
}

export interface RetryOptions {
  signal?: AbortSignal;
  /** No retry is started if its wait would end after this moment (epoch ms). */
  deadline?: number;
  policy?: RetryPolicy;
  /**
   * Asked after a failure: false stops retrying. Providers say false once a
   * stream has delivered output, because a retry would deliver it twice.
   */
  canRetry?: () => boolean;
  /** Told about each retry before its wait, for a log line. */
  onRetry?: (info: { attempt: number; delayMs: number; error: ModelError }) => void;
}

/**
 * Runs one model invocation, retrying only what a retry can fix: 429
 * (`rate_limited`, after the provider's own delay when it gave one) and
 * 5xx or unreachable (`unavailable`, with jittered backoff). Everything else,
 * an abort included, is thrown at once. The SDKs' own retries stay off, so
 * each attempt is exactly one HTTP call.
 */
export async function withRetries<T>(attempt: (n: number) => Promise<T>, deps: RetryDeps, options: RetryOptions = {}): Promise<T> {
  const policy = options.policy ?? DEFAULT_RETRY_POLICY;
  for (let n = 1; ; n++) {
    try {
      return await attempt(n);
    } catch (err) {
      if (!(err instanceof ModelError)) throw err;
      if (options.signal?.aborted) throw abortError();
      const retryable = err.code === "rate_limited" || err.code === "unavailable";
      if (!retryable || n >= policy.maxAttempts || options.canRetry?.() === false) throw err;
      const delayMs = err.retryAfterMs ?? backoffDelay(n, policy, deps.random);
      if (options.deadline !== undefined && deps.clock.now() + delayMs > options.deadline) throw err;
      options.onRetry?.({ attempt: n, delayMs, error: err });
      await deps.sleep(delayMs, options.signal).catch(() => {
        throw abortError();
      });
    }
  }
}

/** Full jitter: a random wait up to the capped exponential step. */
export function backoffDelay(attempt: number, policy: RetryPolicy, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

export function abortError(): ModelError {
  return new ModelError("aborted", "The model call was cancelled.");
}

/** A sleep that ends early, rejecting, when the signal aborts. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError());
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError());
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
