/** Enough reads in flight to keep libuv's thread pool busy without flooding it. */
export const READS_IN_FLIGHT = 32;

/** Runs `task` over `items`, at most `limit` at a time; rejects with the first failure. */
export async function forEachLimited<T>(items: T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next] as T;
      next += 1;
      await task(item);
    }
  });
  await Promise.all(workers);
}
