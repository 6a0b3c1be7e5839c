import type { Clock } from "../../shared/index.js";

/**
 * A small in-memory cache of pending or settled loads, each kept `ttlMs`. Holding the promise means two
 * callers asking at once share one load; a load that fails is forgotten, so the next call tries again.
 * Past `maxEntries` the oldest entry goes.
 */
export function createTtlCache<T>({ clock, ttlMs, maxEntries }: { clock: Clock; ttlMs: number; maxEntries: number }) {
  const entries = new Map<string, { expiresAt: number; value: Promise<T> }>();
  return {
    get(key: string, load: () => Promise<T>): Promise<T> {
      const now = clock.now();
      const hit = entries.get(key);
      if (hit && hit.expiresAt > now) return hit.value;
      entries.delete(key);
      const value = load();
      entries.set(key, { expiresAt: now + ttlMs, value });
      value.catch(() => {
        if (entries.get(key)?.value === value) entries.delete(key);
      });
      for (const oldest of entries.keys()) {
        if (entries.size <= maxEntries) break;
        entries.delete(oldest);
      }
      return value;
    },
    get size(): number {
      return entries.size;
    },
  };
}
