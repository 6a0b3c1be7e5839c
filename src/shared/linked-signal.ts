/**
 * A signal of one call's own, aborted when any of `sources` aborts, and a
 * `release` that unlinks it from them once the call is over.
 *
 * Why not `AbortSignal.any`: Node 20 (lib/internal/abort_controller.js)
 * keeps a composite or timeout signal that has an abort listener in a
 * process-wide set until the listener is removed, and adds a WeakRef to each
 * source's set of dependants that it never prunes. A library that leaves its
 * listener on the signal it is given (`@google/genai` does, once a call
 * succeeds) so kept the signal and all it holds for the life of the process,
 * and a long-lived source (the runtime's drain signal) gained an entry per
 * call. The signal here is plain, goes with the call, and our listeners are
 * removed by `release`. Without a source there is no signal.
 */
export function linkedSignal(sources: readonly (AbortSignal | undefined)[]): { signal: AbortSignal | undefined; release(): void } {
  const present = sources.filter((s): s is AbortSignal => s !== undefined);
  if (!present.length) return { signal: undefined, release: () => undefined };
  const own = new AbortController();
  const aborted = present.find((s) => s.aborted);
  if (aborted) {
    own.abort(aborted.reason);
    return { signal: own.signal, release: () => undefined };
  }
  const follows = present.map((source) => {
    const follow = () => own.abort(source.reason);
    source.addEventListener("abort", follow, { once: true });
    return () => source.removeEventListener("abort", follow);
  });
  return { signal: own.signal, release: () => follows.forEach((unlink) => unlink()) };
}
