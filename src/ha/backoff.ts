export interface BackoffOptions {
  initialMs: number;
  maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { initialMs: 1_000, maxMs: 30_000 };

/**
 * Delay before reconnect attempt `attempt` (1-based): doubles from
 * `initialMs` up to `maxMs`, then keeps a random half of it ("equal jitter"),
 * so a fleet of clients does not hit a restarting HA in lockstep while each
 * one still backs off.
 */
export function backoffDelay(attempt: number, options: BackoffOptions, random: () => number = Math.random): number {
  const exponent = Math.max(0, attempt - 1);
  const ceiling = Math.min(options.maxMs, options.initialMs * 2 ** Math.min(exponent, 30));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}
