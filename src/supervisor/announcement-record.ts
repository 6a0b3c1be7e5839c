import { mkdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { nodeStoreFs, writeJsonAtomic, type StoreFs } from "../store/index.js";

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

export function announcementStore(dataDir: string, fs: StoreFs = nodeStoreFs): AnnouncementStore {
  const path = join(dataDir, FILE);
  const tmpDir = join(dataDir, "tmp");
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
      await mkdir(tmpDir, { recursive: true });
      // Whole-file replace, fsynced: a crash or power cut leaves the old record or the new one, never half of either.
      await writeJsonAtomic({ fs, tmpDir, path, value: AnnouncementRecordSchema.parse(record) });
    },
    async remove() {
      await rm(path, { force: true });
    },
  };
}
