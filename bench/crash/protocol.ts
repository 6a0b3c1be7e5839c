/** The owner every crash-test session belongs to. */
export const CRASH_OWNER = "crash-test-owner";

/** What the worker reported before it was killed. */
export interface WorkerFacts {
  /** continuationId → (seq → marker) of durable appends that resolved. */
  acked: Map<string, Map<number, string>>;
  /** continuationId → final status that was acknowledged. */
  done: Map<string, string>;
  /** `${sessionId} ${key}` → continuationId. */
  keys: Map<string, string>;
  ready: boolean;
}

export function emptyFacts(): WorkerFacts {
  return { acked: new Map(), done: new Map(), keys: new Map(), ready: false };
}

/** Folds one stdout line of the worker into the facts. */
export function readFact(facts: WorkerFacts, line: string): void {
  const [kind, a, b, c] = line.trim().split(" ");
  if (kind === "ready") facts.ready = true;
  else if (kind === "ack" && a && b && c) {
    const seqs = facts.acked.get(a) ?? new Map<number, string>();
    seqs.set(Number(b), c);
    facts.acked.set(a, seqs);
  } else if (kind === "done" && a && b) facts.done.set(a, b);
  else if (kind === "key" && a && b && c) facts.keys.set(`${a} ${b}`, c);
}
