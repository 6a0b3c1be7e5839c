/**
 * How many MCP requests each principal has running at once. Nothing else
 * about a caller is held between requests, so this is what bounds the work
 * and memory one caller can tie up: past the limit that caller is refused,
 * and every other caller is untouched.
 */
export interface InFlightLimit {
  readonly perPrincipal: number;
  /** Counts one more request for `principalId`: a release function, or undefined when the limit is reached. */
  tryEnter(principalId: string): (() => void) | undefined;
  /** Requests `principalId` has running now. */
  count(principalId: string): number;
}

export function createInFlightLimit(perPrincipal: number): InFlightLimit {
  const running = new Map<string, number>();
  return {
    perPrincipal,
    tryEnter(principalId) {
      const now = running.get(principalId) ?? 0;
      if (now >= perPrincipal) return undefined;
      running.set(principalId, now + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const left = (running.get(principalId) ?? 1) - 1;
        // Forgotten at zero, so the map holds only callers with work running.
        if (left === 0) running.delete(principalId);
        else running.set(principalId, left);
      };
    },
    count: (principalId) => running.get(principalId) ?? 0,
  };
}
