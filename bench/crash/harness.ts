import { spawn } from "node:child_process";
import { access } from "node:fs/promises";
import { HaAgentError } from "../../src/shared/index.js";
import { checkAfterCrash } from "./invariants.js";
import { emptyFacts, readFact, type WorkerFacts } from "./protocol.js";
import { seededRandom } from "./random.js";
import { tearRandomLog } from "./tear.js";

export class CrashWorkerMissingError extends HaAgentError {
  constructor(path: string) {
    super("worker_missing", `The crash-test worker ${path} does not exist; run "npm run build" first.`);
  }
}

export interface CrashRunResult {
  kills: number;
  killedBeforeReady: number;
  ackedDurableSteps: number;
  finishedContinuations: number;
  interruptedRecovered: number;
  /** Turns killed mid-finish whose result recovery took from the log's final line. */
  finishedFromLog: number;
  tornLinesCut: number;
  maxRecoveryMs: number;
  violations: string[];
}

/** Runs one worker until a random moment, then SIGKILLs it and returns what it reported. */
async function runOnce(workerPath: string, dataDir: string, seed: number, rnd: () => number, facts: WorkerFacts): Promise<boolean> {
  const child = spawn(process.execPath, [workerPath, "--data", dataDir, "--seed", String(seed)], { stdio: ["ignore", "pipe", "pipe"] });
  let buffered = "";
  let stderr = "";
  let readyAt: (() => void) | undefined;
  const ready = new Promise<void>((resolve) => (readyAt = resolve));
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk: string) => {
    buffered += chunk;
    let nl;
    while ((nl = buffered.indexOf("\n")) !== -1) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      readFact(facts, line);
      if (line === "ready") readyAt?.();
    }
  });
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  // Most kills land mid-work; some land during the worker's own boot recovery.
  const early = rnd() < 0.15;
  if (early) await new Promise((r) => setTimeout(r, 20 + rnd() * 150));
  else {
    await Promise.race([ready, exited]);
    await new Promise((r) => setTimeout(r, rnd() * 300));
  }
  const beforeReady = !facts.ready;
  child.kill("SIGKILL");
  const code = await exited;
  if (code !== null && code !== 0) throw new Error(`crash worker exited by itself (code ${code}): ${stderr.trim()}`);
  return beforeReady;
}

/**
 * Kills a store-writing worker `kills` times at random moments; after each
 * kill, boot recovery runs and every promise of the store is checked.
 */
export async function runCrashTest(options: {
  workerPath: string;
  dataDir: string;
  kills: number;
  seed: number;
  onKill?: (n: number, result: CrashRunResult) => void;
}): Promise<CrashRunResult> {
  await access(options.workerPath).catch(() => {
    throw new CrashWorkerMissingError(options.workerPath);
  });
  const rnd = seededRandom(options.seed);
  const facts = emptyFacts();
  const result: CrashRunResult = {
    kills: 0,
    killedBeforeReady: 0,
    ackedDurableSteps: 0,
    finishedContinuations: 0,
    interruptedRecovered: 0,
    finishedFromLog: 0,
    tornLinesCut: 0,
    maxRecoveryMs: 0,
    violations: [],
  };
  for (let i = 0; i < options.kills; i++) {
    facts.ready = false;
    if (await runOnce(options.workerPath, options.dataDir, options.seed * 1000 + i, rnd, facts)) result.killedBeforeReady += 1;
    result.kills += 1;
    if (rnd() < 0.3) await tearRandomLog(options.dataDir, rnd);
    const { violations, recovery } = await checkAfterCrash(options.dataDir, facts);
    result.interruptedRecovered += recovery.interrupted.length;
    result.tornLinesCut += recovery.tornLogLines;
    result.finishedFromLog += recovery.finishedFromLog;
    result.maxRecoveryMs = Math.max(result.maxRecoveryMs, recovery.durationMs);
    result.violations.push(...violations.map((v) => `after kill ${i + 1}: ${v}`));
    result.ackedDurableSteps = [...facts.acked.values()].reduce((n, m) => n + m.size, 0);
    result.finishedContinuations = facts.done.size;
    options.onKill?.(i + 1, result);
    if (result.violations.length > 0) break;
  }
  return result;
}
