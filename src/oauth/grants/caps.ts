/** The fields the caps look at. */
interface CapEntry {
  id: string;
  principalId: string;
  lastUsedAt: number;
}

/**
 * The grants to drop so one more fits: first the least recently used grants
 * of the same principal past `maxPerPrincipal`, then the least recently used
 * of all past `maxGrants`. One user can thus only push out their own
 * sign-ins, and the file stays bounded whoever signs in.
 */
export function grantsToEvict(options: { entries: CapEntry[]; principalId: string; maxGrants: number; maxPerPrincipal: number }): string[] {
  const byAge = [...options.entries].sort((a, b) => a.lastUsedAt - b.lastUsedAt);
  const evicted = new Set<string>();
  const own = byAge.filter((entry) => entry.principalId === options.principalId);
  for (const entry of own.slice(0, Math.max(0, own.length - options.maxPerPrincipal + 1))) evicted.add(entry.id);
  let excess = byAge.length - evicted.size - options.maxGrants + 1;
  for (const entry of byAge) {
    if (excess <= 0) break;
    if (evicted.has(entry.id)) continue;
    evicted.add(entry.id);
    excess -= 1;
  }
  return [...evicted];
}
