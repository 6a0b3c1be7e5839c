import { CRASH_OWNER } from "./protocol.js";
import { openStore, type Store } from "../../src/store/index.js";
import { seededRandom } from "./random.js";

/**
 * Crash-test worker: does real store work in a loop until it is SIGKILLed.
 * It reports to its parent over stdout, one line per fact, only after the
 * store acknowledged it (pipes are synchronous on Linux, so a written line is
 * never lost to the kill):
 *   ready
 *   ack <continuationId> <seq> <marker>     a durable append resolved
 *   done <continuationId> <status>          a final status was written
 *   key <sessionId> <key> <continuationId>  a keyed continuation was created
 */

const say = (line: string) => process.stdout.write(`${line}\n`);

async function oneTurn(store: Store, rnd: () => number, sessionId: string, counter: { n: number }): Promise<void> {
  const session = store.sessions.get(CRASH_OWNER, sessionId);
  if (!session || session.status !== "active") return;
  // Resume an interrupted turn now and then, as ha_agent_resume would.
  const interrupted = session.messages.find((m) => m.status === "interrupted");
  let contId: string;
  if (interrupted && rnd() < 0.5) {
    contId = interrupted.continuationId;
    await store.continuations.update(CRASH_OWNER, contId, { status: "running" });
  } else {
    const key = rnd() < 0.3 ? `k${Math.floor(rnd() * 5)}` : undefined;
    const { continuation, created } = await store.continuations.create(CRASH_OWNER, sessionId, {
      message: `turn ${counter.n}`,
      ...(key ? { idempotencyKey: key } : {}),
    });
    if (key) say(`key ${sessionId} ${key} ${continuation.id}`);
    if (!created) return;
    contId = continuation.id;
    await store.continuations.update(CRASH_OWNER, contId, { status: rnd() < 0.5 ? "running" : "streaming" });
  }
  const steps = 1 + Math.floor(rnd() * 12);
  for (let i = 0; i < steps; i++) {
    counter.n += 1;
    const marker = `m${process.pid}-${counter.n}`;
    const durable = rnd() < 0.3;
    let artifact;
    if (rnd() < 0.05) artifact = await store.artifacts.put(CRASH_OWNER, contId, { content: `output ${marker}`.repeat(50), mediaType: "text/plain" });
    const line = await store.steps.append(
      CRASH_OWNER,
      contId,
      { type: durable ? "tool_call" : "plan", detail: { marker, pad: "x".repeat(Math.floor(rnd() * 400)) }, ...(artifact ? { artifact } : {}) },
      { durable },
    );
    if (durable) say(`ack ${contId} ${line.seq} ${marker}`);
  }
  const roll = rnd();
  const status = roll < 0.75 ? "completed" : roll < 0.9 ? "failed" : "cancelled";
  await store.continuations.update(CRASH_OWNER, contId, {
    status,
    ...(status === "completed" ? { response: { finalMessage: `done:${contId}` }, memory: { rollingSummary: `after:${contId}`, facts: [], pins: [], lastK: [] } } : {}),
    ...(status === "failed" ? { error: { code: "test", message: "failed on purpose" } } : {}),
    usage: { steps },
  });
  say(`done ${contId} ${status}`);
}

async function lane(store: Store, rnd: () => number, counter: { n: number }): Promise<never> {
  for (;;) {
    const active = store.sessions.list(CRASH_OWNER, { status: "active", limit: 100 }).sessions;
    const free = active.filter((s) => s.openContinuations.length === 0);
    let sessionId: string;
    if (free.length === 0 || (active.length < 6 && rnd() < 0.2)) {
      sessionId = (await store.sessions.create({ owner: CRASH_OWNER })).id;
    } else {
      sessionId = (free[Math.floor(rnd() * free.length)] as (typeof free)[number]).id;
    }
    if (rnd() < 0.05 && active.length > 3) {
      await store.sessions.end(CRASH_OWNER, sessionId, "crash test rotates sessions").catch(() => undefined);
      continue;
    }
    await oneTurn(store, rnd, sessionId, counter).catch((err: unknown) => {
      // Lanes race for the same session now and then; the store refuses the loser.
      const code = (err as { code?: string }).code;
      if (code !== "busy" && code !== "already_final" && code !== "session_ended") throw err;
    });
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const dataDir = args[args.indexOf("--data") + 1];
  const seed = Number(args[args.indexOf("--seed") + 1] ?? "1");
  if (!dataDir || args.indexOf("--data") === -1) {
    console.error("usage: worker.js --data DIR --seed N");
    process.exit(2);
  }
  const rnd = seededRandom(seed);
  const store = await openStore({ dataDir });
  say("ready");
  const counter = { n: 0 };
  await Promise.all([lane(store, rnd, counter), lane(store, rnd, counter), lane(store, rnd, counter)]);
}

main().catch((err: unknown) => {
  console.error(`crash worker failed: ${err instanceof Error ? err.stack : String(err)}`);
  process.exit(1);
});
