/**
 * A signal of one model call's own, aborted when `source` aborts, and a
 * `release` that unlinks the two once the call is over.
 *
 * Why: `@google/genai` adds an abort listener to the signal it is given and,
 * when a call succeeds, deliberately never removes it (its response body
 * keeps the timeout armed). The agent hands over `AbortSignal.any([turn,
 * timeout])`, and Node keeps a composite or timeout signal that has an abort
 * listener in a process-wide set (`gcPersistentSignals` in Node's
 * lib/internal/abort_controller.js) until the listener is removed. So every
 * model call left its signal, the SDK's controller and what they hold in the
 * heap for the life of the process. The SDK's listener now sits on this
 * plain signal, which goes with the call, and ours is removed by `release`.
 */
export function callSignal(source: AbortSignal | undefined): { signal: AbortSignal | undefined; release(): void } {
  if (!source) return { signal: undefined, release: () => undefined };
  const own = new AbortController();
  if (source.aborted) {
    own.abort(source.reason);
    return { signal: own.signal, release: () => undefined };
  }
  const follow = () => own.abort(source.reason);
  source.addEventListener("abort", follow, { once: true });
  return { signal: own.signal, release: () => source.removeEventListener("abort", follow) };
}
