/**
 * The simulator for `bench:index`, in its own process so that the figures
 * measure the index's process alone (CPU, heap, RSS), as in production where
 * Home Assistant runs elsewhere. Driven over the IPC channel by `run.ts`.
 */
import { generateHouse, startSimulator } from "@ha-agent/ha-simulator";
import { querySetFor } from "./query-set.js";
import type { LabelledQuery } from "./recall.js";

export type ChildRequest = { type: "burst"; changes: number } | { type: "close" };
export type ChildReply =
  | { type: "ready"; wsUrl: string; apiUrl: string; token: string; entities: number; queries: LabelledQuery[] }
  | { type: "error"; message: string };

const send = (m: ChildReply) => process.send?.(m);

async function main(): Promise<void> {
  const entities = Number(process.argv[2] ?? 2000);
  const seed = Number(process.argv[3] ?? 1);
  const house = generateHouse({ entities, seed });
  const sim = await startSimulator({ house });
  process.on("message", (raw: ChildRequest) => {
    if (raw.type === "burst") {
      sim.faults.burst({ changes: raw.changes }).catch((err: unknown) => send({ type: "error", message: String(err) }));
    } else if (raw.type === "close") {
      void sim.close().finally(() => process.exit(0));
    }
  });
  send({ type: "ready", wsUrl: sim.wsUrl, apiUrl: sim.apiUrl, token: sim.users.tokenFor(), entities: house.entities.length, queries: querySetFor(house) });
}

main().catch((err: unknown) => {
  send({ type: "error", message: String(err) });
  process.exit(1);
});
