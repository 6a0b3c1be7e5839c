import type { SessionHead, Store } from "../../src/store/index.js";

/** The owner of every session the agent crash test makes. */
export const OWNER = { id: "crash-agent-owner", name: "Crash test", kind: "user" as const, isAdmin: true };
export const GEMINI_KEY = "AIzaCrashTestKey0000000000000000000000";
export const MODEL = "gemini-3.5-flash";

export { turnNumber, turnNumberFor } from "./numbering.js";

/** Every session of the crash test's owner, page by page: `list` returns at most 100 at a time. */
export function allSessions(store: Store): SessionHead[] {
  const all: SessionHead[] = [];
  let cursor: string | undefined;
  do {
    const page = store.sessions.list(OWNER.id, { limit: 100, ...(cursor ? { cursor } : {}) });
    all.push(...page.sessions);
    cursor = page.nextCursor;
  } while (cursor);
  return all;
}
