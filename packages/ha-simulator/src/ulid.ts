import { randomFillSync } from "node:crypto";

const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/**
 * ULIDs like the context ids HA makes, fast enough for bursts of tens of
 * thousands of changes per second: randomness comes from a refilled pool
 * instead of one crypto call per id.
 */
export function createUlidFactory(): (timeMs: number) => string {
  const pool = new Uint8Array(4096);
  let at = pool.length;
  return (timeMs) => {
    let time = "";
    let t = Math.max(0, Math.floor(timeMs));
    for (let i = 0; i < 10; i++) {
      time = ALPHABET[t % 32]! + time;
      t = Math.floor(t / 32);
    }
    if (at + 16 > pool.length) {
      randomFillSync(pool);
      at = 0;
    }
    let random = "";
    for (let i = 0; i < 16; i++) random += ALPHABET[pool[at++]! & 31]!;
    return time + random;
  };
}
