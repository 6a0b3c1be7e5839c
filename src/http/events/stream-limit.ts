/** Streams one principal may hold open at once. */
export const MAX_STREAMS_PER_PRINCIPAL = 8;

/** Counts open streams per principal; `tryOpen` gives a release function, or undefined at the cap. */
export function createStreamLimit(perPrincipal = MAX_STREAMS_PER_PRINCIPAL) {
  const open = new Map<string, number>();
  return {
    perPrincipal,
    tryOpen(principalId: string): (() => void) | undefined {
      const now = open.get(principalId) ?? 0;
      if (now >= perPrincipal) return undefined;
      open.set(principalId, now + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const left = (open.get(principalId) ?? 1) - 1;
        if (left === 0) open.delete(principalId);
        else open.set(principalId, left);
      };
    },
  };
}
