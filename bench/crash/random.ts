import { createRng } from "@ha-agent/ha-simulator";

/** The simulator's seeded PRNG (mulberry32), so a failing crash run can be replayed with its seed. */
export function seededRandom(seed: number): () => number {
  return createRng(seed).next;
}
