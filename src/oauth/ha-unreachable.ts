/** Home Assistant could not be asked (down, restarting, or answering 5xx): a sign-in or token check is retried later, nothing is revoked. */
export class HaUnreachableError extends Error {
  constructor(detail: string, options?: { cause?: unknown }) {
    super(`Home Assistant could not be reached: ${detail}. Try again in a few seconds.`, options);
    this.name = "HaUnreachableError";
  }
}
