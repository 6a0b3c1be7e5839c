import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";

/**
 * What this add-on last announced, kept in the data directory: the
 * Supervisor lets only Home Assistant list discovery entries, so the uuid
 * needed to withdraw the offer later is remembered here.
 */
export const AnnouncementRecordSchema = z.object({
  uuid: z.string().min(1),
  service: z.string().min(1),
  url: z.string().min(1),
  at: z.iso.datetime(),
});
export type AnnouncementRecord = z.infer<typeof AnnouncementRecordSchema>;

const FILE = "supervisor-discovery.json";

export interface AnnouncementStore {
  /** The record, or undefined when there is none or it cannot be read (an announcement is cheap to make again). */
  read(): Promise<AnnouncementRecord | undefined>;
  write(record: AnnouncementRecord): Promise<void>;
  remove(): Promise<void>;
}

export function announcementStore(dataDir: string): AnnouncementStore {
  const path = join(dataDir, FILE);
  return {
    async read() {
      try {
        const parsed = AnnouncementRecordSchema.safeParse(JSON.parse(await readFile(path, "utf8")));
        return parsed.success ? parsed.data : undefined;
      } catch {
        return undefined;
      }
    },
    async write(record) {
      await mkdir(dataDir, { recursive: true });
      // Whole-file replace: a crash leaves the old record or the new one, never half of either.
      const tmp = `${path}.tmp`;
      await writeFile(tmp, `${JSON.stringify(AnnouncementRecordSchema.parse(record))}\n`);
      await rename(tmp, path);
    },
    async remove() {
      await rm(path, { force: true });
    },
  };
}
