/** A command failure with one of HA's error codes (`not_found`, `invalid_format`, …). */
export class CommandError extends Error {
  constructor(
    readonly code: string,
    message: string,
    /** HA adds these to some errors so the frontend can translate them. */
    readonly translation?: { translation_domain: string; translation_key: string; translation_placeholders?: Record<string, string> },
  ) {
    super(message);
  }
}
