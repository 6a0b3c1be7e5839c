import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { runCrashTest } from "./harness.js";

// `npm run test:crash` = build the benchmarks if stale, then `node dist-bench/bench/crash/run.js --kills 200`.
async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const value = (flag: string) => (args.includes(flag) ? args[args.indexOf(flag) + 1] : undefined);
  const kills = Number(value("--kills") ?? "200");
  const seed = Number(value("--seed") ?? String(Date.now() % 100_000));
  if (!Number.isInteger(kills) || kills < 1 || !Number.isInteger(seed)) {
    console.error("usage: run.js [--kills N] [--seed N] [--keep]");
    return 2;
  }
  const dataDir = await mkdtemp(join(tmpdir(), "ha-agent-crash-"));
  const workerPath = join(dirname(fileURLToPath(import.meta.url)), "worker.js");
  console.log(`crash test: ${kills} kills, seed ${seed}, data in ${dataDir}`);
  const started = Date.now();
  const result = await runCrashTest({
    workerPath,
    dataDir,
    kills,
    seed,
    onKill: (n, r) => {
      if (n % 25 === 0) console.log(`  ${n} kills: ${r.ackedDurableSteps} durable steps and ${r.finishedContinuations} finished turns checked`);
    },
  }).catch((err: unknown) => {
    console.error(`the data is kept in ${dataDir} for inspection`);
    throw err;
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(
    [
      `kills: ${result.kills} (${result.killedBeforeReady} during the worker's own boot recovery) in ${seconds} s`,
      `durable steps acknowledged and found again: ${result.ackedDurableSteps}`,
      `finished continuations kept: ${result.finishedContinuations}`,
      `continuations marked interrupted by recovery: ${result.interruptedRecovered}`,
      `continuations finished from their log's final line: ${result.finishedFromLog}`,
      `torn log lines cut: ${result.tornLinesCut}`,
      `slowest boot recovery: ${result.maxRecoveryMs} ms`,
    ].join("\n"),
  );
  if (result.violations.length > 0) {
    console.error(`FAILED (seed ${seed}); the data is kept in ${dataDir}:\n${result.violations.slice(0, 20).join("\n")}`);
    return 1;
  }
  if (!args.includes("--keep")) await rm(dataDir, { recursive: true, force: true });
  console.log("PASSED: every promise held after every kill");
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  },
);
