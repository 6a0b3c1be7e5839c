import { generateHouse, startSimulator } from "@ha-agent/ha-simulator";
import { connectHaws } from "../../packages/ha-simulator/test/support/haws.js";

/**
 * Measures how fast the simulator pushes state changes to a real
 * home-assistant-js-websocket client subscribed with subscribe_entities.
 * Run: node scripts/ensure-built.mjs bench && node dist-bench/bench/simulator/burst.js [entities] [changes]
 */
async function main(): Promise<void> {
  const entities = Number(process.argv[2] ?? 10_000);
  const changes = Number(process.argv[3] ?? 200_000);
  let t = performance.now();
  const house = generateHouse({ entities, seed: 42 });
  console.log(`generateHouse(${entities}): ${(performance.now() - t).toFixed(0)} ms`);
  t = performance.now();
  const sim = await startSimulator({ house });
  console.log(`startSimulator: ${(performance.now() - t).toFixed(0)} ms`);
  t = performance.now();
  await sim.faults.burst({ changes });
  const alone = performance.now() - t;
  console.log(`burst with no subscriber: ${changes} changes in ${alone.toFixed(0)} ms (${Math.round(changes / (alone / 1000))}/s)`);
  const conn = await connectHaws(sim.url, sim.users.tokenFor());

  let updates = 0;
  let snapshotSeen = false;
  let frames = 0;
  let resolveDone!: () => void;
  const done = new Promise<void>((r) => (resolveDone = r));
  let target = Infinity;
  // The library's own entity collection copies the whole entity map on every
  // message (O(n) per change), so it measures the client, not the server; a
  // plain subscription counts what arrives.
  const countUnsub = await conn.subscribeMessage<{ a?: object; c?: Record<string, unknown> }>(
    (msg) => {
      if (msg.a) snapshotSeen = true;
      updates += Object.keys(msg.c ?? {}).length;
      if (updates >= target) resolveDone();
    },
    { type: "subscribe_entities" },
  );
  const socket = (conn as unknown as { socket: { on(e: string, l: () => void): void } }).socket;
  socket.on("message", () => frames++);
  while (!snapshotSeen) await new Promise((r) => setTimeout(r, 10));

  const generateStart = performance.now();
  target = changes;
  const sent = sim.faults.burst({ changes });
  await sent;
  const generated = performance.now() - generateStart;
  await done;
  const total = performance.now() - generateStart;
  console.log(`burst: ${changes} changes generated in ${generated.toFixed(0)} ms (${Math.round(changes / (generated / 1000))}/s)`);
  console.log(`client received all ${updates} diffs in ${total.toFixed(0)} ms (${Math.round(changes / (total / 1000))} changes/s end to end)`);
  console.log(`messages sent: ${sim.stats().messagesSent} in ${frames} frames`);
  await countUnsub();
  conn.close();
  await sim.close();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
