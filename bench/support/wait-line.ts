import type { ChildProcess } from "node:child_process";

/** Resolves with the first match of `pattern` in a benchmarked program's stdout; rejects if it exits first. */
export function waitLine(child: ChildProcess, pattern: RegExp): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    let out = "";
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = pattern.exec(out);
      if (m) {
        child.stdout!.off("data", onData);
        resolve(m);
      }
    };
    child.stdout!.on("data", onData);
    child.once("exit", (code) => reject(new Error(`exited with ${code} before ${pattern}: ${out}`)));
  });
}
