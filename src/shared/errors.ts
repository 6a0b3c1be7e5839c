/**
 * Base for every error this program raises on purpose. `code` is stable and
 * machine-readable; `message` tells the reader what to do about it.
 */
export class HaAgentError extends Error {
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}

/** Turns anything thrown into a one-line message, without a stack. */
export function describeError(err: unknown): string {
  if (err instanceof Error) return err.message;
  if (typeof err === "string") return err;
  try {
    return JSON.stringify(err);
  } catch {
    return String(err);
  }
}
