/**
 * Prints how the HA client behaves against the simulator with a big house:
 * time to connect, to receive the entity snapshot, to recover from a dropped
 * connection, and to notice a frozen (half-open) HA. Figures, not pass/fail.
 *
 *   npm run build && node dist/ha/bench/run.js [entities=15000]
 */
import { silentLogger } from "../../src/shared/index.js";
import { generateHouse, startSimulator } from "@ha-agent/ha-simulator";
import { createHaClient } from "../../src/ha/index.js";
import type { EntitiesMessage } from "../../src/ha/types.js";

const entities = Number(process.argv[2] ?? 15_000);
const pingIntervalMs = 500;
const pongTimeoutMs = 1_000;

function waitFor(check: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const timer = setInterval(() => {
      if (check()) {
        clearInterval(timer);
        resolve();
      }
    }, 1);
  });
}

const sim = await startSimulator({ house: generateHouse({ entities, seed: 1 }) });
const client = createHaClient({
  wsUrl: sim.wsUrl,
  apiUrl: sim.apiUrl,
  token: sim.users.tokenFor(),
  logger: silentLogger,
  pingIntervalMs,
  pongTimeoutMs,
  backoff: { initialMs: 50, maxMs: 1_000 },
});

let t = performance.now();
await client.connect();
console.log(`connect + auth: ${(performance.now() - t).toFixed(1)} ms`);

let snapshots = 0;
let snapshotSize = 0;
t = performance.now();
await client.subscribeEntities((message: EntitiesMessage, snapshot) => {
  if (!snapshot) return;
  snapshots++;
  snapshotSize = Object.keys(message.a ?? {}).length;
});
await waitFor(() => snapshots === 1);
console.log(`entity snapshot (${snapshotSize} entities): ${(performance.now() - t).toFixed(1)} ms`);

t = performance.now();
const states = await client.getStates();
console.log(`get_states (${states.length} states): ${(performance.now() - t).toFixed(1)} ms`);

t = performance.now();
sim.faults.dropAll();
await waitFor(() => snapshots === 2);
console.log(`dropAll → reconnected + new snapshot: ${(performance.now() - t).toFixed(1)} ms (first backoff 25–50 ms)`);

t = performance.now();
sim.faults.freeze(true);
await waitFor(() => client.status === "reconnecting");
console.log(`freeze → half-open detected: ${(performance.now() - t).toFixed(1)} ms (ping every ${pingIntervalMs} ms, pong timeout ${pongTimeoutMs} ms)`);
sim.faults.freeze(false);
t = performance.now();
await waitFor(() => snapshots === 3);
console.log(`thaw → reconnected + new snapshot: ${(performance.now() - t).toFixed(1)} ms`);

await client.close();
await sim.close();
