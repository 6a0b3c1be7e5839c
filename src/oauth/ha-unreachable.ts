/**
 * Home Assistant cannot be asked right now: down, restarting, answering 5xx,
 * or refusing this add-on's address (a ban answers 403 to everything). A
 * sign-in or token check is retried later; nothing is revoked. The message
 * is for whoever called, and never names HA's internal address; `detail`,
 * which does, is for the log.
 */
export class HaUnreachableError extends Error {
  readonly detail: string;

  constructor(detail: string, options?: { cause?: unknown }) {
    super("HA Agent cannot reach Home Assistant right now, or Home Assistant is refusing it. Nothing was changed; try again in a few seconds.", options);
    this.name = "HaUnreachableError";
    this.detail = detail;
  }
}
