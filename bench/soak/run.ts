/**
 * `npm run bench:soak`: months in a home, compressed into minutes. The real
 * program, as users run it, against a simulated home of 10,000 entities with
 * steady state changes, MCP clients searching and reading, agent turns on a
 * fake model, and Home Assistant restarted partway through. It prints what
 * grows when a program runs for months: RSS (and its slope after warm-up),
 * open file descriptors, bytes on disk per turn, and whether the index agrees
 * with HA after each restart, and how soon.
 * Options: --minutes N (3), --entities N (10000), --changes-per-s N (50), --restarts N (1, or 2 from 10 minutes),
 * --turn-every-s N (3; 0 for no agent turns), --snapshots 1 (live objects by constructor after warm-up and at the end).
 * The program runs with `--inspect=127.0.0.1:0` so that the bench can force a full GC every 2 minutes and read the heap
 * that is left (see heap-probe.ts); nothing else in the program changes.
 * Traffic stays on 127.0.0.1 and every loop ends at the deadline.
 */
import { spawn } from "node:child_process";
import { setMaxListeners } from "node:events";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { startFakeGemini, type GeminiReply, type GeminiRequestBody } from "@ha-agent/model-fakes";
import { generateHouse, startSimulator, type Simulator } from "@ha-agent/ha-simulator";
import { MAIN, NODE_FLAGS, START_ENV } from "../../test/support/program.js";
import { compare, whileDown, type AgreementSample } from "./agreement.js";
import { connectHeapProbe, inspectorUrl, type HeapProbe } from "./heap-probe.js";
import { bytesUnder, openFds, rssMb, slope, type Sample } from "./process-stats.js";
import { waitLine } from "../support/wait-line.js";

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const MINUTES = arg("minutes", 3);
const ENTITIES = arg("entities", 10_000);
const CHANGES_PER_S = arg("changes-per-s", 50);
const RESTARTS = arg("restarts", MINUTES >= 10 ? 2 : 1);
const TURN_EVERY_MS = arg("turn-every-s", 3) * 1000;
const SNAPSHOTS = arg("snapshots", 0) > 0;
/** How often the heap is read after a forced full GC. Each forced GC also returns memory, so not every 5 s sample. */
const HEAP_SAMPLE_MS = 120_000;
const RUN_MS = MINUTES * 60_000;
/** Start-up, the first turns and JIT settle before the slope is taken: a tenth of the run, 1 to 5 minutes. */
const WARM_UP_MS = Math.min(300_000, Math.max(60_000, RUN_MS / 10));
const SAMPLE_MS = 5_000;
const HA_DOWN_MS = 5_000;
/** A slope read from less than this is noise, not a trend; it is printed but not judged. */
const SLOPE_MIN_WINDOW_MS = 10 * 60_000;
const RSS_SLOPE_TARGET_MB_PER_H = 10;
const AGREE_TARGET_MS = 30_000;
const KEY = "AIzaSoakBenchKey0000000000000000000000000";
setMaxListeners(0);

const rows: { what: string; measured: string; target: string; pass?: boolean }[] = [];
function report(what: string, measured: string, target = "", pass?: boolean): void {
  rows.push({ what, measured, target, pass });
  console.log(`${pass === undefined ? "    " : pass ? "PASS" : "FAIL"}  ${what}: ${measured}${target ? `  (target ${target})` : ""}`);
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One turn: a search, then an answer; the session's summary call (no tools) gets a line. */
function responder(body: GeminiRequestBody): GeminiReply {
  if (!(body.tools ?? []).length) return { text: "Summary." };
  const answered = (body.contents ?? []).at(-1)?.parts?.some((p) => p.functionResponse);
  return answered ? { text: "The kitchen is at 21 °C." } : { calls: [{ name: "index_search", args: { query: "kitchen temperature" } }] };
}

async function connect(url: string, token: string): Promise<Client> {
  const c = new Client({ name: "bench-soak", version: "1" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
  await c.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return c;
}


/** Sensors, split: the sample compared after restarts, and the rest, which the steady changes churn. */
function pickEntities(sim: Simulator): { sample: AgreementSample; churn: string[] } {
  const sensors = sim.home
    .states()
    .map((s) => s.entity_id)
    .filter((id) => id.startsWith("sensor."))
    .sort();
  const sample: AgreementSample = { changed: [], removed: [], unchanged: [] };
  const churn: string[] = [];
  // Every 25th sensor is in the sample: 400 at 10,000 entities, spread over the house.
  sensors.forEach((id, i) => {
    if (i % 25 !== 0) churn.push(id);
    else [sample.changed, sample.changed, sample.removed, sample.unchanged][(i / 25) % 4]!.push(id);
  });
  return { sample, churn };
}

interface RestartResult {
  /** Seconds into the run when HA went down. */
  at_s: number;
  agreed_after_ms: number | null;
  /** From HA listening again to the first answer that said catching_up: the reconnect's backoff. Null if none was seen. */
  reconnected_after_ms: number | null;
  agreement: number;
  sampled: number;
  /** Answers that disagreed with HA without saying stale: what a client would have taken for the truth. */
  unflagged_wrong_answers: number;
  /** The first of them: ms since the restart began (HA back at `back_ms`), and what disagreed. */
  unflagged_examples: { ms: number; back_ms: number | null; wrong: string[] }[];
  stale_answers: number;
}

async function restartAndCheck(o: { sim: Simulator; client: Client; sample: AgreementSample; round: number; startedAt: number }): Promise<RestartResult> {
  const { sim, client, sample, round } = o;
  const atS = Math.round((Date.now() - o.startedAt) / 1000);
  let added: string[] = [];
  const restart = sim.faults.restart({ downtimeMs: HA_DOWN_MS, whileDown: () => void (added = whileDown(sim, sample, round)) });
  let listening: number | undefined;
  void restart.then(() => (listening = performance.now()));
  let unflagged = 0;
  let stale = 0;
  let reconnected: number | null = null;
  const began = performance.now();
  const examples: RestartResult["unflagged_examples"] = [];
  let last = { agree: 0, total: 0 };
  const give = performance.now() + HA_DOWN_MS + 60_000;
  while (performance.now() < give) {
    const ids = [...sample.changed, ...sample.removed, ...sample.unchanged, ...added];
    const check = await compare(client, sim, ids).catch(() => undefined);
    if (check) {
      last = check;
      if (check.stale) stale++;
      if (check.reason === "catching_up" && listening !== undefined) reconnected ??= Math.round(performance.now() - listening);
      // An answer that says stale (ha_unreachable until the program has reconnected, then catching_up) is not wrong:
      // between HA listening again and the reconnect's backoff ending, the program cannot know HA is back.
      if (!check.stale && check.agree < check.total && unflagged++ < 3)
        examples.push({ ms: Math.round(performance.now() - began), back_ms: listening === undefined ? null : Math.round(listening - began), wrong: check.wrong });
      if (listening !== undefined && !check.stale && check.agree === check.total) {
        return { at_s: atS, agreed_after_ms: Math.round(performance.now() - listening), reconnected_after_ms: reconnected, agreement: 1, sampled: check.total, unflagged_wrong_answers: unflagged, unflagged_examples: examples, stale_answers: stale };
      }
    }
    await sleep(100);
  }
  await restart;
  return { at_s: atS, agreed_after_ms: null, reconnected_after_ms: reconnected, agreement: last.total ? last.agree / last.total : 0, sampled: last.total, unflagged_wrong_answers: unflagged, unflagged_examples: examples, stale_answers: stale };
}

async function main(): Promise<void> {
  console.log(`bench:soak — the real program for ${MINUTES} min at ${ENTITIES} entities, ${CHANGES_PER_S} state changes/s, ${RESTARTS} HA restart(s); figures from this run\n`);
  const sim = await startSimulator({ house: generateHouse({ entities: ENTITIES, seed: 7 }) });
  const gemini = await startFakeGemini({ apiKey: KEY, responder });
  const token = sim.users.tokenFor();
  const dataDir = await mkdtemp(join(tmpdir(), "bench-soak-"));
  await mkdir("bench-results", { recursive: true });
  const program = spawn(process.execPath, [...NODE_FLAGS, "--inspect=127.0.0.1:0", MAIN], {
    env: { PATH: process.env.PATH ?? "", ...START_ENV, HA_URL: sim.url, HA_TOKEN: token, DATA_DIR: dataDir, MCP_PORT: "0", STATUS_PORT: "0", LOG_LEVEL: "warn", MODEL_PROVIDER: "gemini", GEMINI_API_KEY: KEY, GEMINI_BASE_URL: gemini.url },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const pid = program.pid!;
  const clients: Client[] = [];
  const inspector = inspectorUrl(program.stderr!);
  program.stderr!.pipe(process.stderr);
  let heap: HeapProbe | undefined;
  try {
    heap = await connectHeapProbe(await inspector);
    const [, mcpUrl] = (await waitLine(program, /^MCP endpoint: (\S+)$/m)) as RegExpMatchArray;
    program.stdout!.resume();
    const base = mcpUrl!.replace(/\/mcp$/, "");
    // The listener may refuse a request while the program starts on a busy machine: ask again.
    while ((await fetch(`${base}/healthz`).then((r) => r.status, () => 0)) !== 200) await sleep(100);
    const readyRss = await rssMb(pid);
    report("RSS when /healthz first turned 200", `${readyRss.toFixed(1)} MB`);

    const [searcher, reader, asker, checker] = await Promise.all([1, 2, 3, 4].map(() => connect(mcpUrl!, token)));
    clients.push(searcher!, reader!, asker!, checker!);
    const { sample, churn } = pickEntities(sim);
    const startedAt = Date.now();
    const deadline = performance.now() + RUN_MS;
    const running = () => performance.now() < deadline;
    const counts = { changes: 0, searches: 0, queries: 0, turns: 0, turnFailures: 0, callErrors: 0 };
    const samples: Sample[] = [];
    const heapSamples: { t: number; heapUsedMb: number; externalMb: number; turns: number }[] = [];
    let warmObjects: Awaited<ReturnType<HeapProbe["objectCounts"]>> | undefined;
    const restarts: RestartResult[] = [];

    /** Calls `run` every `everyMs` until the deadline, counting what throws. */
    const every = async (everyMs: number, run: () => Promise<void>) => {
      while (running()) {
        const next = performance.now() + everyMs;
        await run().catch(() => void counts.callErrors++);
        await sleep(Math.max(0, next - performance.now()));
      }
    };
    let value = 0;
    const loops = [
      every(100, async () => {
        for (let i = 0; i < CHANGES_PER_S / 10; i++) sim.home.setState(churn[(value * 7 + i * 131) % churn.length]!, String(value++ % 1000));
        counts.changes += CHANGES_PER_S / 10;
      }),
      every(250, async () => {
        await searcher!.callTool({ name: "ha_agent_index_search", arguments: { query: ["kitchen temperature", "upstairs lights", "motion", "bedroom humidity"][counts.searches % 4]!, limit: 10 } });
        counts.searches++;
      }),
      every(1_000, async () => {
        await reader!.callTool({ name: "ha_agent_state_query", arguments: { domain: "light", limit: 50 } });
        counts.queries++;
      }),
      // --turn-every-s 0: no agent turns, to tell what the turns add from what the rest does.
      !TURN_EVERY_MS ? Promise.resolve() : every(TURN_EVERY_MS, async () => {
        const r = await asker!.callTool({ name: "ha_agent_ask", arguments: { message: `How warm is the kitchen? (${counts.turns})`, timeout_ms: 20_000 } });
        if ((r.structuredContent as { status?: string } | undefined)?.status === "completed") counts.turns++;
        else counts.turnFailures++;
      }),
      every(SAMPLE_MS, async () => {
        samples.push({ t: (Date.now() - startedAt) / 1000, rssMb: await rssMb(pid), fds: await openFds(pid), dataBytes: await bytesUnder(dataDir), turns: counts.turns });
      }),
      every(HEAP_SAMPLE_MS, async () => {
        const h = await heap!.afterGc();
        heapSamples.push({ t: (Date.now() - startedAt) / 1000, heapUsedMb: h.heapUsedMb, externalMb: h.externalMb, turns: counts.turns });
      }),
      (async () => {
        if (!SNAPSHOTS) return;
        await sleep(WARM_UP_MS);
        if (running()) warmObjects = await heap!.objectCounts(join("bench-results", "soak-warm.heapsnapshot"));
      })(),
      (async () => {
        for (let round = 1; round <= RESTARTS; round++) {
          await sleep(Math.max(0, startedAt + (RUN_MS * round) / (RESTARTS + 1) - Date.now()));
          if (!running()) break;
          const r = await restartAndCheck({ sim, client: checker!, sample, round, startedAt });
          restarts.push(r);
          console.log(`      restart ${round} at ${r.at_s} s: ${r.agreed_after_ms === null ? "never agreed" : `agreed ${r.agreed_after_ms} ms after HA was back`}`);
          for (const e of r.unflagged_examples) console.log(`        wrong, not marked stale, ${e.ms} ms after HA went down (back at ${e.back_ms ?? "-"} ms): ${e.wrong.join("; ")}`);
        }
      })(),
    ];
    await Promise.all(loops);

    const warm = samples.filter((s) => s.t * 1000 >= WARM_UP_MS);
    const first = warm[0] ?? samples[0]!;
    const last = samples.at(-1)!;
    const rss = slope(warm.map((s) => ({ x: s.t / 3600, y: s.rssMb })));
    const windowMs = (last.t - first.t) * 1000;
    const peak = Number(/^VmHWM:\s+(\d+)/m.exec(await readFile(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
    console.log("");
    report("load", `${counts.changes} state changes, ${counts.searches} index_search, ${counts.queries} state_query, ${counts.turns} turns (${counts.turnFailures} not completed), ${counts.callErrors} calls that threw`);
    report("RSS over time (MB, every minute)", samples.filter((_, i) => i % Math.round(60_000 / SAMPLE_MS) === 0).map((s) => s.rssMb.toFixed(0)).join(" "));
    report(`RSS after warm-up (${Math.round(WARM_UP_MS / 1000)} s) → end, peak`, `${first.rssMb.toFixed(1)} → ${last.rssMb.toFixed(1)} MB, peak ${peak.toFixed(1)} MB`);
    const judged = windowMs >= SLOPE_MIN_WINDOW_MS;
    report(
      "RSS slope after warm-up (least squares)",
      `${rss.perX.toFixed(1)} MB/h (r² ${rss.r2.toFixed(2)}, over ${(windowMs / 60_000).toFixed(1)} min)${judged ? "" : "; too short to judge, run --minutes 15 or more"}`,
      judged ? `≤ ${RSS_SLOPE_TARGET_MB_PER_H} MB/h` : "",
      judged ? rss.perX <= RSS_SLOPE_TARGET_MB_PER_H : undefined,
    );
    const warmHeap = heapSamples.filter((s) => s.t * 1000 >= WARM_UP_MS);
    const heapSlope = slope(warmHeap.map((s) => ({ x: s.t / 3600, y: s.heapUsedMb })));
    const heapTurns = (warmHeap.at(-1)?.turns ?? 0) - (warmHeap[0]?.turns ?? 0);
    const heapGrowth = (warmHeap.at(-1)?.heapUsedMb ?? 0) - (warmHeap[0]?.heapUsedMb ?? 0);
    report("heap after a forced full GC (MB, every 2 minutes)", heapSamples.map((s) => s.heapUsedMb.toFixed(1)).join(" "));
    report(
      "heap-after-GC slope after warm-up (least squares)",
      `${heapSlope.perX.toFixed(1)} MB/h (r² ${heapSlope.r2.toFixed(2)}, ${warmHeap.length} samples); ${heapTurns > 0 ? `${((heapGrowth * 1048576) / heapTurns / 1024).toFixed(2)} KiB per turn over ${heapTurns} turns` : "no turns"}, at ${TURN_EVERY_MS ? Math.round(3_600_000 / TURN_EVERY_MS) : 0} turns an hour`,
    );
    if (warmObjects) {
      const end = await heap!.objectCounts(join("bench-results", "soak-end.heapsnapshot"));
      const grew = [...end]
        .map(([name, e]) => ({ name, count: e.count - (warmObjects!.get(name)?.count ?? 0), bytes: e.selfBytes - (warmObjects!.get(name)?.selfBytes ?? 0) }))
        .sort((a, b) => b.bytes - a.bytes)
        .slice(0, 15);
      report("live objects grown from warm-up to end (by own bytes)", grew.map((g) => `${g.name} ${g.count >= 0 ? "+" : ""}${g.count} (${(g.bytes / 1024).toFixed(0)} KiB)`).join("; "));
    }
    const maxFds = Math.max(...samples.map((s) => s.fds));
    report("open file descriptors after warm-up → end (max)", `${first.fds} → ${last.fds} (${maxFds})`, "end ≤ after warm-up + 5", last.fds <= first.fds + 5);
    const turnsSince = last.turns - first.turns;
    const perTurn = turnsSince > 0 ? (last.dataBytes - first.dataBytes) / turnsSince : 0;
    report("disk growth per turn after warm-up", `${(perTurn / 1024).toFixed(1)} KiB (${((last.dataBytes - first.dataBytes) / 1048576).toFixed(2)} MiB for ${turnsSince} turns; ${(last.dataBytes / 1048576).toFixed(2)} MiB under the data dir)`);
    report("agent turns completed", `${counts.turns} of ${counts.turns + counts.turnFailures}`, "all but those during HA restarts", counts.turnFailures <= RESTARTS * 3);
    restarts.forEach((r, i) => {
      const ok = r.agreed_after_ms !== null && r.agreed_after_ms <= AGREE_TARGET_MS && r.unflagged_wrong_answers === 0;
      report(
        `restart ${i + 1} at ${r.at_s} s: index agrees with HA (${r.sampled} entities sampled)`,
        `${(r.agreement * 100).toFixed(1)}%${r.agreed_after_ms === null ? ", never" : ` ${r.agreed_after_ms} ms after HA was back`}${r.reconnected_after_ms === null ? "" : ` (reconnected at ${r.reconnected_after_ms} ms, then caught up)`}; ${r.stale_answers} answers marked stale meanwhile, ${r.unflagged_wrong_answers} wrong without saying stale`,
        `100% within ${AGREE_TARGET_MS / 1000} s, none wrong unmarked`,
        ok,
      );
    });

    const result = {
      date: new Date().toISOString(),
      options: { minutes: MINUTES, entities: ENTITIES, changesPerSecond: CHANGES_PER_S, restarts: RESTARTS, turnEverySeconds: TURN_EVERY_MS / 1000, warmUpSeconds: WARM_UP_MS / 1000 },
      counts,
      heap: { afterGcSlopeMbPerHour: heapSlope.perX, r2: heapSlope.r2, samples: heapSamples },
      rss: { readyMb: readyRss, afterWarmUpMb: first.rssMb, endMb: last.rssMb, peakMb: peak, slopeMbPerHour: rss.perX, r2: rss.r2, windowMinutes: windowMs / 60_000 },
      fds: { afterWarmUp: first.fds, end: last.fds, max: maxFds },
      disk: { bytesPerTurn: perTurn, endBytes: last.dataBytes },
      restarts,
      rows,
      samples,
    };
    await writeFile(join("bench-results", "soak.json"), `${JSON.stringify(result, null, 2)}\n`);
    console.log("wrote bench-results/soak.json");
  } finally {
    heap?.close();
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    program.kill("SIGTERM");
    await new Promise((r) => program.once("exit", r));
    await gemini.close();
    await sim.close();
    await rm(dataDir, { recursive: true, force: true });
  }
  const failed = rows.filter((r) => r.pass === false).length;
  console.log(`\n${rows.filter((r) => r.pass).length} passed, ${failed} failed`);
  process.exitCode = failed ? 1 : 0;
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
