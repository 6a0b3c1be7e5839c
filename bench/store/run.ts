import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { openStore } from "../../src/store/index.js";
import { generateDataDir } from "./generate.js";
import { measureAppends, measureTurns } from "./turns.js";

// `npm run bench:store`: boot scan of 10,000 sessions / 100,000 continuations,
// step-log append rate, and disk cost per agent step, group commit vs naive.
const SESSIONS = 10_000;
const PER_SESSION = 10;
const OPEN = 100;

async function timeBoot(dataDir: string): Promise<{ wallMs: number; recoveryMs: number; interrupted: number }> {
  const started = performance.now();
  const store = await openStore({ dataDir });
  const wallMs = Math.round(performance.now() - started);
  const figures = { wallMs, recoveryMs: store.recovery.durationMs, interrupted: store.recovery.interrupted.length };
  await store.close();
  return figures;
}

/**
 * The floor under the boot scan: only the reads it cannot avoid (each
 * `session.json` and a listing of each `turns/`), at the scan's concurrency.
 * The scan's figure depends on the disk; its ratio to this does not.
 */
async function timeRawReads(dataDir: string): Promise<number> {
  const started = performance.now();
  const sessionsDir = join(dataDir, "sessions");
  const names = await readdir(sessionsDir);
  let next = 0;
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (next < names.length) {
        const dir = join(sessionsDir, names[next++]!);
        await readFile(join(dir, "session.json"));
        await readdir(join(dir, "turns"));
      }
    }),
  );
  return Math.round(performance.now() - started);
}

async function main(): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), "ha-agent-bench-store-"));
  try {
    console.log(`store benchmark on ${cpus().length} cores, Node ${process.version}, temp dir ${root}`);
    const scanDir = join(root, "scan");
    let started = performance.now();
    await generateDataDir({ dataDir: scanDir, sessions: SESSIONS, perSession: PER_SESSION, openSessions: OPEN });
    const generationMs = Math.round(performance.now() - started);
    console.log(`generated ${SESSIONS} sessions / ${SESSIONS * PER_SESSION} continuations in ${generationMs} ms (not part of the scan)`);
    const firstBoot = await timeBoot(scanDir);
    const warmBoots = [await timeBoot(scanDir), await timeBoot(scanDir), await timeBoot(scanDir)].sort((a, b) => a.wallMs - b.wallMs);
    const medianBoot = warmBoots[1] as (typeof warmBoots)[number];
    const rawReads = [await timeRawReads(scanDir), await timeRawReads(scanDir), await timeRawReads(scanDir)].sort((a, b) => a - b)[1]!;

    started = performance.now();
    const appendsGroup = await measureAppends({ dataDir: join(root, "a1"), count: 2000, naive: false });
    const appendsNaive = await measureAppends({ dataDir: join(root, "a2"), count: 500, naive: true });
    const turnsGroup = await measureTurns({ dataDir: join(root, "t1"), turns: 40, naive: false });
    const turnsNaive = await measureTurns({ dataDir: join(root, "t2"), turns: 40, naive: true });

    console.log("\nBoot scan (target <= 2000 ms)");
    console.table([
      { run: "first boot (recovers 100 running turns)", "wall ms": firstBoot.wallMs, "scan ms": firstBoot.recoveryMs, interrupted: firstBoot.interrupted },
      { run: "later boot (median of 3)", "wall ms": medianBoot.wallMs, "scan ms": medianBoot.recoveryMs, interrupted: medianBoot.interrupted },
      { run: "baseline: the reads alone (median of 3)", "wall ms": rawReads, "scan ms": "", interrupted: "" },
    ]);
    console.log(`later boots take ${(medianBoot.wallMs / rawReads).toFixed(1)}× the reads alone`);
    console.log("Step-log appends");
    console.table([appendsGroup, appendsNaive]);
    console.log("Disk cost of a typical 10-step turn (3 durable intents); targets: <= 1 fsync per step counting every fsync, <= 2 session.json writes per turn");
    console.table([turnsGroup, turnsNaive]);

    const result = {
      date: new Date().toISOString(),
      node: process.version,
      cores: cpus().length,
      dataset: { sessions: SESSIONS, continuations: SESSIONS * PER_SESSION, openContinuations: OPEN, generationMs },
      bootScan: { first: firstBoot, laterMedian: medianBoot, rawReadsMs: rawReads, targetMs: 2000 },
      appends: [appendsGroup, appendsNaive],
      turns: [turnsGroup, turnsNaive],
    };
    await mkdir("bench-results", { recursive: true });
    await writeFile(join("bench-results", "store.json"), `${JSON.stringify(result, null, 2)}\n`);
    console.log("wrote bench-results/store.json");
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
