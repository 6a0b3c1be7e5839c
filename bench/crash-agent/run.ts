/**
 * `npm run test:crash-agent`: SIGKILLs a worker running real agent turns at
 * random moments, turns that act in the home (call_service), save
 * automations after a yes (automation_save) and read it, then checks after
 * every run that:
 *  - no action ran twice (the simulator's call_service events prove it);
 *  - every action Home Assistant saw has its intent in the journal;
 *  - no approved save reached Home Assistant twice, or without its intent
 *    journaled (a proxy in front of the simulator counts the config POSTs);
 *  - no model turn that was journaled was requested from the model again
 *    (the fake Gemini's request log proves it);
 * and at the end that every turn finished once resumed, and every approved
 * save reached Home Assistant exactly once.
 * Usage: node run.js [--kills 40] [--seed 1]
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createHaClient } from "../../src/ha/index.js";
import { startFakeGemini, type GeminiReply } from "@ha-agent/model-fakes";
import { silentLogger } from "../../src/shared/index.js";
import { generateHouse, startSimulator } from "@ha-agent/ha-simulator";
import { openStore } from "../../src/store/index.js";
import { startConfigPostCounter } from "../../test/support/config-post-counter.js";
import { createActionBook } from "./numbering.js";
import { GEMINI_KEY, MODEL, OWNER, allSessions, turnNumber, turnNumberFor } from "./protocol.js";
import { checkSaves, isSaveTurn, saveCall } from "./saves.js";

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const KILLS = arg("kills", 40);
let seed = arg("seed", 1);
const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
const here = dirname(fileURLToPath(import.meta.url));

interface Asked {
  n: number;
  step: number;
}

async function main(): Promise<void> {
  const started = performance.now();
  const sim = await startSimulator({ house: generateHouse({ entities: 2_000, seed: 3 }) });
  const lights = sim.home.states().map((s) => s.entity_id).filter((id) => id.startsWith("light.")).sort();
  const book = createActionBook(lights);
  // The one turn the final run leaves open: it stops as that turn is sent.
  const lastTurn = turnNumberFor(KILLS, 1);
  const asked: Asked[] = [];
  const gemini = await startFakeGemini({
    apiKey: GEMINI_KEY,
    models: [MODEL],
    responder: (body) => {
      // A call without tools is the memory fold or a last answer: it acts on nothing.
      if (!(body.tools ?? []).length) return { text: "A summary of earlier turns." };
      const contents = body.contents ?? [];
      let userAt = -1;
      contents.forEach((c, i) => {
        if (c.role !== "model" && (c.parts ?? []).some((p) => typeof p.text === "string" && turnNumber(p.text as string) !== undefined)) userAt = i;
      });
      const text = (contents[userAt]?.parts ?? []).find((p) => typeof p.text === "string")?.text as string;
      const n = turnNumber(text ?? "") ?? -1;
      const step = contents.slice(userAt + 1).filter((c) => c.role === "model").length;
      const seq = asked.push({ n, step }) - 1;
      if (step === 0) {
        const { entity, brightness } = book.actionOf(n);
        // The thought carries the request's number into the journaled raw turn.
        const reply: GeminiReply = {
          thought: `plan #${seq}`,
          calls: [{ name: "call_service", args: { domain: "light", service: "turn_on", entity_id: entity, service_data: { brightness } } }, { name: "state_query", args: { entity_ids: [entity] } }, ...(isSaveTurn(n) ? [saveCall(n, entity)] : [])],
        };
        return reply;
      }
      return { text: `done ${n} #${seq}` };
    },
  });
  const token = sim.users.tokenFor();
  // The workers reach Home Assistant through a proxy that counts the config POSTs: the saves it received.
  const counter = await startConfigPostCounter(sim);
  const observer = createHaClient({ wsUrl: sim.wsUrl, apiUrl: sim.apiUrl, token, logger: silentLogger });
  await observer.connect();
  const actions = new Map<string, number>();
  await observer.subscribeEvents("call_service", (event) => {
    const data = (event as { data: { service_data?: { entity_id?: string | string[]; brightness?: number } } }).data.service_data ?? {};
    const entity = Array.isArray(data.entity_id) ? data.entity_id[0] : data.entity_id;
    const key = `${entity} ${data.brightness}`;
    actions.set(key, (actions.get(key) ?? 0) + 1);
  });
  const dataDir = await mkdtemp(join(tmpdir(), "crash-agent-"));
  const sent = new Map<string, number>();
  const violations: string[] = [];

  const runWorker = (run: number, until: (line: string) => boolean, killAfterMs: number | undefined) =>
    new Promise<void>((resolve, reject) => {
      const child = spawn(process.execPath, [join(here, "worker.js"), dataDir, counter.url, token, gemini.url, String(run)], { stdio: ["ignore", "pipe", "pipe"] });
      let out = "";
      let err = "";
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        child.kill("SIGKILL");
      };
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
        out += chunk;
        let nl;
        while ((nl = out.indexOf("\n")) !== -1) {
          const line = out.slice(0, nl);
          out = out.slice(nl + 1);
          const m = /^sent (\S+) (\d+)$/.exec(line);
          if (m) {
            const n = Number(m[2]);
            // Two turns with one number would share one action: the harness, not the agent, would be at fault.
            if ([...sent].some(([id, x]) => x === n && id !== m[1])) violations.push(`the harness sent turn number ${n} twice; turn numbers must be unique`);
            sent.set(m[1]!, n);
          }
          if (line === "ready" && killAfterMs !== undefined) setTimeout(finish, killAfterMs);
          if (until(line)) finish();
        }
      });
      child.stderr.setEncoding("utf8").on("data", (c: string) => (err += c));
      // "close", not "exit": every line the worker wrote before it died is read first.
      child.on("close", (code, signal) => (signal === "SIGKILL" || code === 0 ? resolve() : reject(new Error(`worker exited by itself (${code}): ${err.trim()}`))));
    });

  async function check(final: boolean): Promise<{ turns: number; journaled: number; saves: number }> {
    for (const [key, count] of actions) if (count > 1) violations.push(`the action ${key} ran ${count} times`);
    const store = await openStore({ dataDir });
    const withIntent = new Set<number>();
    const lastJournaled = new Map<string, number>();
    let turns = 0;
    let journaled = 0;
    let saves: number;
    try {
      ({ saves } = await checkSaves({ store, posts: counter.posts, final, violations }));
      for (const s of allSessions(store)) {
        for (const ref of s.messages) {
          turns++;
          const n = sent.get(ref.continuationId);
          // The final run is stopped as it sends one more turn: that one alone may be open.
          if (final && ref.status !== "completed" && n !== lastTurn) {
            const error = (await store.continuations.get(OWNER.id, ref.continuationId))?.error;
            violations.push(`turn ${n} (${ref.continuationId}) ended ${ref.status}${error ? ` (${error.code}: ${error.message})` : ""}`);
          }
          for (const line of await store.steps.read(OWNER.id, ref.continuationId)) {
            const detail = line.detail as { call?: { name?: string }; turn?: { raw?: unknown }; step?: number };
            if (line.type === "tool_call" && detail.call?.name === "call_service" && n !== undefined) withIntent.add(n);
            if (line.type === "model_response") {
              journaled++;
              const seq = /#(\d+)/.exec(JSON.stringify(detail.turn?.raw ?? ""))?.[1];
              if (seq !== undefined && n !== undefined) lastJournaled.set(`${n} ${(detail.step ?? 1) - 1}`, Number(seq));
            }
          }
        }
      }
    } finally {
      await store.close();
    }
    const sentNumbers = new Set(sent.values());
    for (const [key, count] of actions) {
      // Only turns whose "sent" line arrived can be matched to their journal.
      const n = book.turnOf(key);
      if (n !== undefined && !sentNumbers.has(n)) continue;
      if (count > 0 && n !== undefined && !withIntent.has(n)) violations.push(`Home Assistant saw the action of turn ${n}, but its intent is not in the journal`);
    }
    for (const [key, seq] of lastJournaled) {
      const [n, step] = key.split(" ").map(Number) as [number, number];
      const again = asked.findIndex((a, i) => i > seq && a.n === n && a.step === step);
      if (again !== -1) violations.push(`turn ${n}, step ${step + 1}: journaled from request ${seq}, yet asked again as request ${again} (requests for it: ${asked.map((a, i) => (a.n === n ? `${i}:${a.step}` : "")).filter(Boolean).join(" ")})`);
    }
    return { turns, journaled, saves };
  }

  try {
    for (let i = 0; i < KILLS; i++) {
      await runWorker(i, () => false, Math.floor(random() * 1_500));
      await check(false);
      if (violations.length) break;
      if ((i + 1) % 10 === 0) console.log(`${i + 1} kills: ${sent.size} turns sent, ${asked.length} model requests, ${actions.size} actions seen`);
    }
    // A last run without a kill resumes everything and sends one more turn.
    await runWorker(KILLS, (line) => /^sent \S+ (\d+)$/.test(line) && Number(line.split(" ")[2]) >= lastTurn, undefined);
    const { turns, journaled, saves } = await check(true);
    const seconds = ((performance.now() - started) / 1000).toFixed(0);
    console.log(`\nkills: ${KILLS} in ${seconds} s; turns: ${turns}; model responses journaled: ${journaled}; model requests: ${asked.length}; actions seen: ${actions.size}; saves approved: ${saves}, posted: ${counter.posts.length}`);
    if (violations.length) {
      console.log(`\n0 passed, 1 failed\n${violations.slice(0, 20).join("\n")}`);
      process.exitCode = 1;
    } else {
      console.log("no action ran twice, every action had its intent journaled first, every approved save reached Home Assistant once, no journaled model turn was asked for again, every turn finished\n\n1 passed, 0 failed");
    }
  } finally {
    await observer.close();
    await counter.close();
    await gemini.close();
    await sim.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

void main();
