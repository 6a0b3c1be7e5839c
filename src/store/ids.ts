import { monotonicFactory } from "ulid";
import type { Clock } from "../shared/index.js";
import { InvalidIdError } from "./errors.js";

/** Crockford base32, 26 characters, first one at most 7 (48-bit time). */
export const ULID_PATTERN = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/;

export function isUlid(id: unknown): id is string {
  return typeof id === "string" && ULID_PATTERN.test(id);
}

/** Every id passes here before it becomes part of a path, so `../` or `/` can never reach the disk. */
export function checkId(kind: string, id: string): string {
  if (!isUlid(id)) throw new InvalidIdError(kind, id);
  return id;
}

/** Monotonic ULIDs from the injected clock, so ids sort by creation even within one millisecond. */
export function idGenerator(clock: Clock): () => string {
  const next = monotonicFactory();
  return () => next(clock.now());
}
