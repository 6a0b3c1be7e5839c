// Loaded with `node --import` into the program under test (see shiftedClockEnv in
// shifted-clock.ts): Date.now runs ahead of the machine's clock by the number of
// milliseconds in the file SHIFTED_CLOCK_FILE, read at start and again on SIGUSR2.
// So a test can let hours pass, for the program only, without waiting for them.
// Timers are not moved: only what the program reads from the clock is.
import { readFileSync } from "node:fs";
import process from "node:process";

const file = process.env.SHIFTED_CLOCK_FILE;
const machineNow = Date.now.bind(Date);
let offset = 0;

function readOffset() {
  try {
    offset = Number(readFileSync(file, "utf8").trim()) || 0;
  } catch {
    offset = 0;
  }
  // The test waits for this line before it relies on the new time.
  process.stderr.write(`shifted clock: ${offset} ms\n`);
}

if (file) {
  readOffset();
  process.on("SIGUSR2", readOffset);
  Date.now = () => machineNow() + offset;
}
