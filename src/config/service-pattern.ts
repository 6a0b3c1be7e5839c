import { z } from "zod";

/**
 * The one grammar for naming services that may be called: `domain.service`,
 * lower case, where either part may be `*`. The add-on option
 * `actuation_allowlist` and a session's `allowlisted_services` both use it.
 */
export const SERVICE_PATTERN_GRAMMAR = 'domain.service in lower case, where either part may be *, e.g. "light.*", "*.turn_off" or "switch.turn_off"';

/** config.yaml's schema for actuation_allowlist repeats this for the Supervisor; a test keeps the two equal. */
export const SERVICE_PATTERN = /^([a-z0-9_]+|\*)\.([a-z0-9_]+|\*)$/;

/** One pattern, parsed: `*` matches any domain or service. */
export interface ServicePattern {
  domain: string;
  service: string;
}

/** The parsed pattern, or undefined when the text does not follow the grammar. */
export function parseServicePattern(text: string): ServicePattern | undefined {
  const m = SERVICE_PATTERN.exec(text);
  return m ? { domain: m[1]!, service: m[2]! } : undefined;
}

/** Whether `domain.service` is named by the pattern; a malformed pattern names nothing. */
export function matchesService(pattern: string, call: { domain: string; service: string }): boolean {
  const p = parseServicePattern(pattern);
  return p !== undefined && (p.domain === "*" || p.domain === call.domain) && (p.service === "*" || p.service === call.service);
}

/** A pattern as an input field: a malformed entry is refused with the entry and the grammar in the message. */
export const servicePatternSchema = () =>
  z
    .string()
    .max(255, { error: "at most 255 characters" })
    .regex(SERVICE_PATTERN, { error: (issue) => `${JSON.stringify(issue.input)} is not a service pattern: expected ${SERVICE_PATTERN_GRAMMAR}` });
