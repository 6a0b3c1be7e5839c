/**
 * At most `limit` model calls at once across the whole program, handed out
 * round-robin between sessions: a session with ten calls waiting gets one
 * slot, then every other waiting session gets one, so nobody starves.
 */
export class FairGate {
  #running = 0;
  /** Waiters per session, in arrival order; the map's order is the round-robin order. */
  readonly #queues = new Map<string, (() => void)[]>();

  constructor(readonly limit: number) {}

  get running(): number {
    return this.#running;
  }

  get waiting(): number {
    let n = 0;
    for (const q of this.#queues.values()) n += q.length;
    return n;
  }

  /** Resolves with a release function once a slot is free; rejects if `signal` aborts first. */
  acquire(sessionId: string, signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.#running < this.limit && this.waiting === 0) {
      this.#running++;
      return Promise.resolve(this.#releaser());
    }
    return new Promise((resolve, reject) => {
      const grant = () => {
        signal?.removeEventListener("abort", onAbort);
        resolve(this.#releaser());
      };
      const onAbort = () => {
        const queue = this.#queues.get(sessionId);
        const at = queue?.indexOf(grant) ?? -1;
        if (queue && at >= 0) queue.splice(at, 1);
        if (queue?.length === 0) this.#queues.delete(sessionId);
        reject(signal?.reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      const queue = this.#queues.get(sessionId);
      if (queue) queue.push(grant);
      else this.#queues.set(sessionId, [grant]);
    });
  }

  #releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#running--;
      this.#next();
    };
  }

  #next(): void {
    while (this.#running < this.limit) {
      const first = this.#queues.entries().next();
      if (first.done) return;
      const [sessionId, queue] = first.value;
      const grant = queue.shift()!;
      // Move the session to the back of the line: round-robin.
      this.#queues.delete(sessionId);
      if (queue.length) this.#queues.set(sessionId, queue);
      this.#running++;
      grant();
    }
  }
}
