/**
 * The agent crash test's worker: the real store, HA client, index and
 * agent runtime with the real Gemini client, talking to the parent's
 * simulator and fake Gemini over sockets, until it is SIGKILLed. On start it
 * resumes every interrupted turn, as a user would with ha_agent_resume, then
 * sends new turns, approving each save a turn waits on (sessions ask first;
 * their service calls are pre-approved). It reports on stdout: `ready`,
 * `sent <contId> <N>`.
 */
import { createAgent } from "../../src/agent/index.js";
import { createHaClient } from "../../src/ha/index.js";
import { createHomeIndex } from "../../src/indexer/index.js";
import { builtInModelProviders, createModelSource } from "../../src/models/index.js";
import { silentLogger, systemClock } from "../../src/shared/index.js";
import { openStore } from "../../src/store/index.js";
import { GEMINI_KEY, MODEL, OWNER, allSessions, turnNumberFor } from "./protocol.js";

const say = (line: string) => process.stdout.write(`${line}\n`);
/** Service calls pre-approved (light.* by the add-on), saves asked: a save always waits for a yes. */
const POLICY = { allowActuation: true, approval: "ask" as const };

async function main(): Promise<void> {
  const [dataDir, haUrl, token, geminiUrl, runText] = process.argv.slice(2) as [string, string, string, string, string];
  const run = Number(runText);
  const store = await openStore({ dataDir });
  const ha = createHaClient({ wsUrl: `${haUrl.replace(/^http/, "ws")}/api/websocket`, apiUrl: `${haUrl}/api`, token, logger: silentLogger });
  const index = createHomeIndex({ ha, logger: silentLogger });
  await ha.connect();
  await index.start();
  const models = createModelSource({ registry: builtInModelProviders(), settings: { provider: "gemini", model: MODEL, geminiApiKey: GEMINI_KEY, geminiBaseUrl: geminiUrl }, clock: systemClock, logger: silentLogger });
  const { runtime } = createAgent({ store, index, ha, models, clock: systemClock, logger: silentLogger, ceiling: { allow: true, allowlist: ["light.*"] }, automationEdits: true });
  // Waits for a turn to end, saying yes to every approval it waits on; an approval waiting since the last run is taken up by the yes.
  const finish = async (id: string) => {
    for (;;) {
      const record = await runtime.wait(OWNER, id, 60_000);
      if (record.status !== "input_required" || !record.approval) return;
      await runtime.approve(OWNER, { continuationId: id, approvalId: record.approval.id, decision: "approve", via: "tool" });
    }
  };
  say("ready");

  // Finish what the last run left, first.
  for (const s of allSessions(store)) {
    for (const m of s.messages.filter((x) => x.status === "interrupted" || x.status === "input_required")) {
      if (m.status === "interrupted") await runtime.resume(OWNER, m.continuationId).catch(() => undefined);
      await finish(m.continuationId);
    }
  }
  let session = store.sessions.list(OWNER.id, { status: "active", limit: 1 }).sessions[0] ?? (await store.sessions.create({ owner: OWNER.id, policy: POLICY }));
  for (let k = 0; ; k++) {
    const n = turnNumberFor(run, k);
    if (session.messages.length > 20) {
      // A full session is ended, as a user would, so the run stays within the per-user session cap.
      await store.sessions.end(OWNER.id, session.id, "full");
      session = await store.sessions.create({ owner: OWNER.id, policy: POLICY });
    }
    const { continuation } = await runtime.send(OWNER, { sessionId: session.id, message: `crash turn ${n}` });
    say(`sent ${continuation.id} ${n}`);
    await finish(continuation.id);
    session = store.sessions.get(OWNER.id, session.id)!;
  }
}

main().catch((err: unknown) => {
  console.error(`crash worker failed: ${err instanceof Error ? err.stack : String(err)}`);
  process.exit(1);
});
