import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";

/** One look at the program from outside, as an operator's `top` and `ls /proc/PID/fd` see it. */
export interface Sample {
  /** Seconds since the program was ready. */
  t: number;
  rssMb: number;
  fds: number;
  dataBytes: number;
  turns: number;
}

export async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  return Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0) / 1024;
}

export async function openFds(pid: number): Promise<number> {
  return (await readdir(`/proc/${pid}/fd`)).length;
}

/** Bytes of every file under `dir`, as `du --apparent-size` counts them. */
export async function bytesUnder(dir: string): Promise<number> {
  let total = 0;
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    // A folder the sweeper or a rename removed between the listing and now.
    return 0;
  }
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory()) total += await bytesUnder(path);
    else total += await stat(path).then((s) => s.size, () => 0);
  }
  return total;
}

/** Least-squares slope of y over x, and how well a line fits (r²). */
export function slope(points: { x: number; y: number }[]): { perX: number; r2: number } {
  const n = points.length;
  if (n < 2) return { perX: 0, r2: 0 };
  const mx = points.reduce((s, p) => s + p.x, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (const p of points) {
    sxy += (p.x - mx) * (p.y - my);
    sxx += (p.x - mx) ** 2;
    syy += (p.y - my) ** 2;
  }
  const perX = sxx === 0 ? 0 : sxy / sxx;
  return { perX, r2: sxx === 0 || syy === 0 ? 0 : (sxy * sxy) / (sxx * syy) };
}
