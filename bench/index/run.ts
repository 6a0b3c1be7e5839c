/**
 * `npm run bench:index`: the index against the simulator's generated home at
 * 2,000 and 10,000 entities over a real WebSocket, with a naive substring
 * scan measured on the same data in the same run. Prints a table and writes
 * `bench-results/index.json`.
 */
import { fork, type ChildProcess } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { cpus, loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createHaClient } from "../../src/ha/index.js";
import { silentLogger } from "../../src/shared/index.js";
import { createHomeIndex, type HomeIndex } from "../../src/indexer/home-index.js";
import { SubstringScan } from "./baseline.js";
import { QUERY_SEED } from "./query-set.js";
import { percentile, recallAtK, type LabelledQuery } from "./recall.js";
import type { ChildReply, ChildRequest } from "./sim-child.js";

const here = dirname(fileURLToPath(import.meta.url));
// `--sizes 10000` measures one size alone (a fresh process shows that size's own memory).
const sizesArg = process.argv.indexOf("--sizes");
const SIZES = sizesArg > 0 ? process.argv[sizesArg + 1]!.split(",").map(Number) : [2000, 10_000];
const SEARCH_ROUNDS = 30;
const BASELINE_ROUNDS = 5;
const BURST = 60_000;
const STEADY_AFTER_MS = 10_000;
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

interface SizeResult {
  entities: number;
  readyMs: number;
  burst: { changes: number; applied: number; seconds: number; perSecond: number; perCpuSecond: number };
  search: {
    queries: number;
    samples: number;
    p50Ms: number;
    p99Ms: number;
    meanMs: number;
    coldP99Ms: number;
    recallAt5: number;
    misses: { query: string; got: string[] }[];
  };
  baseline: { p50Ms: number; p99Ms: number; meanMs: number; recallAt5: number };
  speedRatioMean: number;
  speedRatioP50: number;
  /** Right after start (after a GC), after 10 s idle before the burst (V8 has returned its build-time heap), and the peak of the whole run (burst included). */
  memory: { heapUsedMB: number; rssAfterStartMB: number; rssSteadyMB: number; rssPeakMB: number };
}

function startChild(entities: number): Promise<{ child: ChildProcess; ready: Extract<ChildReply, { type: "ready" }> }> {
  const child = fork(join(here, "sim-child.js"), [String(entities), String(QUERY_SEED)], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  return new Promise((resolve, reject) => {
    child.once("message", (m: ChildReply) => (m.type === "ready" ? resolve({ child, ready: m }) : reject(new Error(m.type === "error" ? m.message : "unexpected"))));
    child.once("exit", (code) => reject(new Error(`simulator child exited with ${code}`)));
  });
}

const ask = (child: ChildProcess, m: ChildRequest) => child.send(m);
const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
const round = (ms: number) => Math.round(ms * 1000) / 1000;

/** Wall-clock time per query over `rounds` rounds, after one warm-up round reported on its own. */
function timeQueries(queries: LabelledQuery[], search: (q: string) => unknown, rounds: number): { all: number[]; first: number[] } {
  const all: number[] = [];
  const first: number[] = [];
  // Round 0 is the warm-up (JIT compilation, first typo lookups); it is reported on its own.
  for (let r = 0; r <= rounds; r++) {
    for (const q of queries) {
      const t0 = performance.now();
      search(q.query);
      const dt = performance.now() - t0;
      if (r === 0) {
        first.push(dt);
        continue;
      }
      all.push(dt);
    }
  }
  const asc = (a: number, b: number) => a - b;
  return { all: all.sort(asc), first: first.sort(asc) };
}

async function measureBurst(index: HomeIndex, child: ChildProcess): Promise<SizeResult["burst"]> {
  const start = index.stats().eventsApplied;
  const target = start + BURST;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  // A burst the simulator could not send must fail the run, not be measured as a slow one.
  let failure: string | undefined;
  const onMessage = (m: ChildReply) => {
    if (m.type === "error") failure = m.message;
  };
  child.on("message", onMessage);
  ask(child, { type: "burst", changes: BURST });
  let lastAt = t0;
  let lastCount = start;
  const deadline = t0 + 60_000;
  while (lastCount < target && failure === undefined && performance.now() < deadline) {
    await new Promise((r) => setTimeout(r, 2));
    const now = index.stats().eventsApplied;
    if (now > lastCount) {
      lastAt = performance.now();
      lastCount = now;
    }
  }
  child.off("message", onMessage);
  if (failure !== undefined) throw new Error(`the simulator failed during the burst: ${failure}`);
  const cpu = process.cpuUsage(cpu0);
  const applied = lastCount - start;
  const seconds = (lastAt - t0) / 1000;
  return {
    changes: BURST,
    applied,
    seconds: round(seconds),
    perSecond: Math.round(applied / seconds),
    perCpuSecond: Math.round(applied / ((cpu.user + cpu.system) / 1e6)),
  };
}

async function benchSize(entities: number): Promise<SizeResult> {
  const { child, ready } = await startChild(entities);
  const ha = createHaClient({ wsUrl: ready.wsUrl, apiUrl: ready.apiUrl, token: ready.token, logger: silentLogger });
  const index = createHomeIndex({ ha, logger: silentLogger });
  try {
    gc();
    let authOkAt = 0;
    ha.onStatus((s) => {
      if (s === "connected" && !authOkAt) authOkAt = performance.now();
    });
    await ha.connect();
    await index.start();
    const readyMs = performance.now() - authOkAt;

    gc();
    const mem = process.memoryUsage();
    // Idle until V8's memory reducer has handed back the heap the build needed.
    await index.whenIdle();
    // A full GC each second stands in for the idle-time GCs V8 runs by itself; it lets the heap shrink.
    for (let waited = 0; waited < STEADY_AFTER_MS; waited += 1000) {
      await new Promise((r) => setTimeout(r, 1000));
      gc();
    }
    const steady = process.memoryUsage();
    const burst = await measureBurst(index, child);

    gc();
    const queries = ready.queries;
    const indexed = timeQueries(queries, (q) => index.search(q, { limit: 5 }), SEARCH_ROUNDS);
    const recall = recallAtK(queries, (q) => index.search(q, { limit: 5 }).map((r) => r.entityId));
    const scan = new SubstringScan(index.query({}));
    const naive = timeQueries(queries, (q) => scan.search(q, 5), BASELINE_ROUNDS);
    const baseRecall = recallAtK(queries, (q) => scan.search(q, 5));
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    return {
      entities: ready.entities,
      readyMs: Math.round(readyMs),
      burst,
      search: {
        queries: queries.length,
        samples: indexed.all.length,
        p50Ms: round(percentile(indexed.all, 50)),
        p99Ms: round(percentile(indexed.all, 99)),
        meanMs: round(mean(indexed.all)),
        coldP99Ms: round(percentile(indexed.first, 99)),
        recallAt5: round(recall.recall),
        misses: recall.misses,
      },
      baseline: {
        p50Ms: round(percentile(naive.all, 50)),
        p99Ms: round(percentile(naive.all, 99)),
        meanMs: round(mean(naive.all)),
        recallAt5: round(baseRecall.recall),
      },
      speedRatioMean: Math.round((mean(naive.all) / mean(indexed.all)) * 10) / 10,
      speedRatioP50: Math.round((percentile(naive.all, 50) / percentile(indexed.all, 50)) * 10) / 10,
      memory: {
        heapUsedMB: mb(steady.heapUsed),
        rssAfterStartMB: mb(mem.rss),
        rssSteadyMB: mb(steady.rss),
        rssPeakMB: mb(process.resourceUsage().maxRSS * 1024),
      },
    };
  } finally {
    await index.stop();
    await ha.close();
    ask(child, { type: "close" });
  }
}

function table(results: SizeResult[]): string {
  const rows: [string, (r: SizeResult) => string, string][] = [
    ["entities", (r) => String(r.entities), ""],
    ["ready after auth_ok (ms)", (r) => String(r.readyMs), "≤ 1500"],
    ["burst events applied/s", (r) => String(r.burst.perSecond), "≥ 20000"],
    ["  per CPU-second of the index process", (r) => String(r.burst.perCpuSecond), ""],
    ["search p50 (ms)", (r) => String(r.search.p50Ms), ""],
    ["search p99 (ms)", (r) => String(r.search.p99Ms), "≤ 2"],
    ["search p99, warm-up round (ms)", (r) => String(r.search.coldP99Ms), ""],
    ["recall@5", (r) => String(r.search.recallAt5), "≥ 0.95"],
    ["baseline p50 / p99 (ms)", (r) => `${r.baseline.p50Ms} / ${r.baseline.p99Ms}`, ""],
    ["baseline recall@5", (r) => String(r.baseline.recallAt5), ""],
    ["speed ratio, baseline ÷ index (p50 / mean)", (r) => `${r.speedRatioP50}x / ${r.speedRatioMean}x`, ""],
    ["heap used (MB)", (r) => String(r.memory.heapUsedMB), ""],
    ["RSS idle, 10 s after start (MB)", (r) => String(r.memory.rssSteadyMB), "≤ 120"],
    ["RSS right after start (MB)", (r) => String(r.memory.rssAfterStartMB), ""],
    ["RSS peak, burst included (MB)", (r) => String(r.memory.rssPeakMB), ""],
  ];
  const lines = [`| metric | ${results.map((r) => `${r.entities}`).join(" | ")} | target (10k) |`, `|---|${results.map(() => "---").join("|")}|---|`];
  for (const [name, get, target] of rows) lines.push(`| ${name} | ${results.map(get).join(" | ")} | ${target} |`);
  return lines.join("\n");
}

async function main(): Promise<void> {
  const results: SizeResult[] = [];
  for (const size of SIZES) results.push(await benchSize(size));
  const env = { node: process.version, cpus: cpus().length, loadavg: loadavg().map((l) => Math.round(l * 100) / 100), at: new Date().toISOString() };
  console.log(table(results));
  console.log(`\n${env.cpus} CPUs, load average ${env.loadavg.join(" ")}, Node ${env.node}`);
  for (const r of results) for (const m of r.search.misses) console.log(`miss @${r.entities}: "${m.query}" → ${m.got.join(", ")}`);
  const out = join(process.cwd(), "bench-results", "index.json");
  await mkdir(dirname(out), { recursive: true });
  await writeFile(out, `${JSON.stringify({ env, results }, null, 2)}\n`);
  console.log(`\nwrote ${out}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
