/**
 * How many of something (requests in flight, open streams) each principal
 * holds at once. Past the limit that principal is refused, and every other
 * principal is untouched: this is what keeps one caller from hurting another.
 */
export interface PerPrincipalLimit {
  readonly perPrincipal: number;
  /** Counts one more for `principalId`: a release function, or undefined when the limit is reached. */
  tryEnter(principalId: string): (() => void) | undefined;
  /** How many `principalId` holds now. */
  count(principalId: string): number;
}

export function createPerPrincipalLimit(perPrincipal: number): PerPrincipalLimit {
  const held = new Map<string, number>();
  return {
    perPrincipal,
    tryEnter(principalId) {
      const now = held.get(principalId) ?? 0;
      if (now >= perPrincipal) return undefined;
      held.set(principalId, now + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const left = (held.get(principalId) ?? 1) - 1;
        // Forgotten at zero, so the map holds only principals that hold something.
        if (left === 0) held.delete(principalId);
        else held.set(principalId, left);
      };
    },
    count: (principalId) => held.get(principalId) ?? 0,
  };
}
