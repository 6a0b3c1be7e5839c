import type { HassState } from "../common/index.js";

/** Everything a rendering reads and records: states, variables, the clock, and the listeners HA's RenderInfo collects. */
export interface Env {
  lookup(entityId: string): HassState | undefined;
  allStates(): HassState[];
  scopes: Map<string, unknown>[];
  nowMs: number;
  timeZone: string;
  strict: boolean;
  warn(message: string): void;
  /** performance.now() after which the rendering gives up. */
  deadline: number | undefined;
  info: { entities: Set<string>; domains: Set<string>; all: boolean; time: boolean };
}
