import type { SessionMemory } from "./session-schema.js";

/**
 * Sessions whose memory stays in the heap. A memory at its limits
 * (MEMORY_LIMITS: 16,000 + 50×500 + 20×500 + 20×16,000 characters) takes up
 * to ~0.75 MB as two-byte strings, so 32 of them stay under 25 MB of the
 * program's 512 MB heap, however many sessions the disk holds. 32 is well
 * above the turns that run at once, so a conversation's next turn usually
 * finds its memory here; a miss costs one read of its `session.json`.
 */
export const MEMORY_CACHE_SESSIONS = 32;

/** Least-recently-used memories by session id; a Map keeps insertion order, so its first key is the oldest. */
export class MemoryCache {
  readonly #entries = new Map<string, SessionMemory>();

  constructor(readonly capacity: number = MEMORY_CACHE_SESSIONS) {}

  get(sessionId: string): SessionMemory | undefined {
    const memory = this.#entries.get(sessionId);
    if (memory) {
      this.#entries.delete(sessionId);
      this.#entries.set(sessionId, memory);
    }
    return memory;
  }

  set(sessionId: string, memory: SessionMemory): void {
    this.#entries.delete(sessionId);
    this.#entries.set(sessionId, memory);
    for (const oldest of this.#entries.keys()) {
      if (this.#entries.size <= this.capacity) break;
      this.#entries.delete(oldest);
    }
  }

  delete(sessionId: string): void {
    this.#entries.delete(sessionId);
  }
}
