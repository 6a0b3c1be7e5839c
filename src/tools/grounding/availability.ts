import type { HistoryResult } from "../../ha/index.js";

const DOWN = new Set(["unavailable", "unknown"]);

/** Whether a state means HA has no real reading: unavailable or unknown. */
export const isDown = (state: string): boolean => DOWN.has(state);

interface StateChange {
  state: string;
  /** Epoch milliseconds. */
  at: number;
}

export interface Availability {
  changes: StateChange[];
  /** Times the entity went unavailable or unknown from a real state. */
  outages: number;
  lastOutageAt: number | null;
  /** How long it was down in the window, in milliseconds. */
  downMs: number;
  /** Changes between real (non-numeric) states, e.g. on↔off. */
  toggles: number;
  lastToggleAt: number | null;
}

/** Reads one entity's history rows (minimal response) into changes, outages and toggles. */
export function analyzeHistory(rows: HistoryResult[string] | undefined, windowEnd: number): Availability {
  const changes: StateChange[] = [];
  for (const row of rows ?? []) {
    const at = (row.lc ?? row.lu) * 1000;
    if (changes.length && changes[changes.length - 1]!.state === row.s) continue;
    changes.push({ state: row.s, at });
  }
  let outages = 0;
  let lastOutageAt: number | null = null;
  let downMs = 0;
  let toggles = 0;
  let lastToggleAt: number | null = null;
  for (let i = 0; i < changes.length; i++) {
    const c = changes[i]!;
    const next = changes[i + 1]?.at ?? windowEnd;
    if (DOWN.has(c.state)) downMs += Math.max(0, next - c.at);
    if (i === 0) continue; // the first row is the state at the window's start, not a change
    const prev = changes[i - 1]!;
    if (DOWN.has(c.state) && !DOWN.has(prev.state)) {
      outages++;
      lastOutageAt = c.at;
    } else if (!DOWN.has(c.state) && !DOWN.has(prev.state) && Number.isNaN(Number(c.state))) {
      toggles++;
      lastToggleAt = c.at;
    }
  }
  return { changes, outages, lastOutageAt, downMs, toggles, lastToggleAt };
}
