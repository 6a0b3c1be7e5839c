import { isFinalStatus, type ContinuationRecord, type SessionHead, type Store } from "../../store/index.js";

const DAY_MS = 86_400_000;
/** How far back usage and the model's errors look. */
export const USAGE_DAYS = 30;

/**
 * The continuation records of the last 30 days, read once each when final
 * (a final record never changes) and again while a turn still runs. The
 * cache follows the sessions' lists, so it never outgrows them.
 */
export function createTurnRecords(options: { store: Pick<Store, "sessions" | "continuations">; now: () => number }) {
  const finals = new Map<string, ContinuationRecord>();
  const allSessions = (): SessionHead[] => {
    const out: SessionHead[] = [];
    let cursor: string | undefined;
    do {
      const page = options.store.sessions.listAll({ limit: 100, ...(cursor ? { cursor } : {}) });
      out.push(...page.sessions);
      cursor = page.nextCursor;
    } while (cursor);
    return out;
  };
  return {
    allSessions,
    /** Records created in the last 30 days, of every owner or of one. */
    async recent(owner?: string): Promise<ContinuationRecord[]> {
      const since = options.now() - USAGE_DAYS * DAY_MS;
      const out: ContinuationRecord[] = [];
      const listed = new Set<string>();
      for (const session of allSessions()) {
        for (const ref of session.messages) {
          if (ref.createdAt < since) continue;
          listed.add(ref.continuationId);
          if (owner !== undefined && session.owner !== owner) continue;
          let record = finals.get(ref.continuationId);
          if (!record) {
            record = await options.store.continuations.get(session.owner, ref.continuationId);
            if (!record) continue;
            if (isFinalStatus(record.status)) finals.set(record.id, record);
          }
          out.push(record);
        }
      }
      // Turns the sweeper removed, or older than 30 days, leave the cache: it never outgrows the sessions' lists.
      for (const id of finals.keys()) if (!listed.has(id)) finals.delete(id);
      return out;
    },
    /** How many final records are held, for tests. */
    get cachedFinals(): number {
      return finals.size;
    },
  };
}

export type TurnRecords = ReturnType<typeof createTurnRecords>;
