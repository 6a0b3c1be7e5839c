import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Program } from "./program.js";

const PRELOAD = join(import.meta.dirname, "shifted-clock.mjs");

/**
 * A clock the test moves for a real program: the program is started with
 * `env` and reads Date.now as the machine's clock plus the offset last set.
 * `set` before a start takes effect at that start; `move` moves a running
 * program's clock and resolves once the program has read it.
 */
export interface ShiftedClock {
  env: Record<string, string>;
  set(offsetMs: number): Promise<void>;
  move(program: Program, offsetMs: number): Promise<void>;
}

export function shiftedClock(dir: string): ShiftedClock {
  const file = join(dir, "clock-offset");
  const env = { NODE_OPTIONS: `--import=${pathToFileURL(PRELOAD).href}`, SHIFTED_CLOCK_FILE: file };
  const set = (offsetMs: number) => writeFile(file, String(offsetMs));
  return {
    env,
    set,
    async move(program, offsetMs) {
      await set(offsetMs);
      const line = `shifted clock: ${offsetMs} ms\n`;
      const seen = program.stderr().split(line).length - 1;
      program.child.kill("SIGUSR2");
      const deadline = Date.now() + 10_000;
      while (program.stderr().split(line).length - 1 <= seen) {
        if (Date.now() > deadline) throw new Error(`the program did not read the new clock offset ${offsetMs}.\nstderr:\n${program.stderr()}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
  };
}
