import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

setFlagsFromString("--expose-gc");
/** A full collection; the test process runs with --expose-gc set here. */
export const gc = runInNewContext("gc") as () => void;

/** The live heap after two full collections, for tests that bound what a structure keeps. */
export function heapUsed(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}
