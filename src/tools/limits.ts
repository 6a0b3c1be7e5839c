import { z } from "zod";

/**
 * Upper bounds on what callers may send in tool arguments. Every string and
 * list a tool accepts has one: unbounded input would be held in memory and,
 * for sessions, written to disk and loaded again at every boot.
 */
export const LIMITS = {
  /** A name, id or filter value: entity ids, areas, domains, device classes, states. */
  name: 255,
  /** A search or a short free text: queries, reasons, cursors. */
  text: 500,
  /** Entity ids in one call. */
  entityIds: 500,
  /** Services in a session's allowlist. */
  services: 100,
  /** A message to the agent. */
  message: 8_000,
} as const;

/** A bounded name or id; the message says the limit. */
export const name = () => z.string().max(LIMITS.name, { error: `at most ${LIMITS.name} characters` });

/** A bounded free text. */
export const text = (max: number = LIMITS.text) => z.string().max(max, { error: `at most ${max} characters` });

/** A bounded list of bounded names. */
export const names = (max: number) => z.array(name()).max(max, { error: `at most ${max} items` });
