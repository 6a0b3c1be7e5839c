import type { HaClient } from "../ha/index.js";
import { describeError, type Clock, type Logger } from "../shared/index.js";
import { INDEX_FORMAT_VERSION, readIndexMeta, writeIndexMeta } from "./meta.js";

/** Keeps `index/meta.json` in step with the Home Assistant version the index was built from. */
export interface MetaRecorder {
  /** Writes the meta file when the HA version changed since the last write; never rejects. */
  record(): Promise<void>;
  /** The write in progress, if any. */
  writing(): Promise<void> | undefined;
}

export interface MetaRecorderDeps {
  /** Omitted means no meta file (tests, benchmarks). */
  dataDir: string | undefined;
  ha: HaClient;
  clock: Clock;
  logger: Logger;
  stopped: () => boolean;
}

export function createMetaRecorder({ dataDir, ha, clock, logger, stopped }: MetaRecorderDeps): MetaRecorder {
  let metaVersion: string | null | undefined;
  async function checkMeta(dir: string): Promise<void> {
    const haVersion = ha.haVersion ?? null;
    if (metaVersion === haVersion) return;
    metaVersion = haVersion;
    const prior = await readIndexMeta(dir);
    if (prior && (prior.formatVersion !== INDEX_FORMAT_VERSION || prior.haVersion !== haVersion)) {
      logger.info({ from: prior, toFormat: INDEX_FORMAT_VERSION, toHa: haVersion }, "index format or Home Assistant version changed; rebuilt from scratch");
    }
    await writeIndexMeta(dir, { formatVersion: INDEX_FORMAT_VERSION, haVersion, builtAt: clock.now() });
  }

  // Meta writes run one after another (they share a temp file), and whenIdle() and stop() wait for them.
  let metaWriting: Promise<void> | undefined;
  return {
    record() {
      if (!dataDir || stopped()) return Promise.resolve();
      const next = (metaWriting ?? Promise.resolve())
        .then(() => checkMeta(dataDir))
        .catch((err: unknown) => logger.warn({ err: describeError(err) }, "could not write index/meta.json"))
        .finally(() => {
          if (metaWriting === next) metaWriting = undefined;
        });
      metaWriting = next;
      return next;
    },
    writing: () => metaWriting,
  };
}
