import { join } from "node:path";
import { z } from "zod";
import { writeJsonAtomic } from "./atomic.js";
import type { StoreFs } from "./fs.js";
import type { Layout } from "./paths.js";
import type { SessionHead } from "./session-schema.js";

/** The data directory's note of the latest wall-clock time this HA Agent saw, at its top. */
export const CLOCK_FILE = "clock.json";

/** How often a running HA Agent renews the note: after a power cut it is at most this far behind. */
export const CLOCK_MARK_INTERVAL_MS = 60_000;

export const ClockMarkSchema = z.object({
  /** Epoch ms: the wall clock when the note was written. */
  lastSeenAt: z.number().int().nonnegative(),
});

/**
 * The latest wall-clock time the data directory has seen: its note, and
 * every session's and turn's last write. A Pi without a real-time clock
 * boots with a time far behind this; deadlines written before the restart
 * then count from here, not from the wrong clock (docs/storage.md, "Clocks").
 * A note that cannot be read counts as missing: the records still say.
 */
export async function readLastSeen(fs: StoreFs, dataDir: string, heads: Iterable<SessionHead>): Promise<number | undefined> {
  let latest: number | undefined;
  const take = (t: number) => void (latest = latest === undefined ? t : Math.max(latest, t));
  try {
    const parsed = ClockMarkSchema.safeParse(JSON.parse((await fs.readFile(join(dataDir, CLOCK_FILE))).toString("utf8")));
    if (parsed.success) take(parsed.data.lastSeenAt);
  } catch {
    // Missing (a new directory, or written before the note existed) or damaged: rewritten at the next mark.
  }
  for (const head of heads) {
    take(head.updatedAt);
    for (const m of head.messages) take(m.updatedAt);
  }
  return latest;
}

/** Writes the note, never moving it back: a clock behind after a reboot must not erase what the last run saw. */
export async function writeClockMark(fs: StoreFs, layout: Layout, at: number): Promise<void> {
  await writeJsonAtomic({ fs, tmpDir: layout.tmpDir, path: join(layout.dataDir, CLOCK_FILE), value: { lastSeenAt: at } });
}
