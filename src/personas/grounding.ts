import { createGroundingTools, type ToolSpec } from "../tools/index.js";
import { PersonaError } from "./errors.js";
import type { PersonaContext } from "./persona.js";

const built = new WeakMap<PersonaContext, Map<string, ToolSpec>>();

/**
 * Calls one of the grounding tools (diagnose_entity, state_query, …) over
 * the persona's view of the home, for the person it is resolved for, so
 * priming shows exactly what the tool would show them: what Home Assistant
 * shows only to administrators is left out for anyone else, as the tool
 * leaves it out. A tool failure becomes a PersonaError with the tool's own
 * code and message (`admin_only` among them).
 */
export async function ground<T>(ctx: PersonaContext, name: string, args: Record<string, unknown>): Promise<T> {
  let tools = built.get(ctx);
  if (!tools) {
    tools = new Map(createGroundingTools({ index: ctx.index, ha: ctx.ha, clock: ctx.clock, ...(ctx.timeZone ? { timeZone: () => ctx.timeZone!() } : {}) }).map((t) => [t.name, t]));
    built.set(ctx, tools);
  }
  const tool = tools.get(name);
  if (!tool) throw new Error(`no grounding tool ${name}`);
  const outcome = await tool.invoke(tool.input.parse(args), { principal: ctx.caller, signal: AbortSignal.timeout(15_000), progress: async () => {} });
  if (!outcome.ok) throw new PersonaError(outcome.error.code, outcome.error.message);
  return outcome.value as T;
}

/** The fields of diagnose_entity's answer that priming shows. */
export interface Diagnosis {
  entity_id: string;
  name: string;
  state: string | null;
  last_changed: string | null;
  area: string | null;
  device: { name: string; manufacturer: string | null; model: string | null } | null;
  integration: { platform: string; title: string | null } | null;
  history: { window_hours: number; state_changes: number; unavailable_count: number; toggles: number };
  recent_changes: { state: string; at: string }[];
  related: { entity_id: string; name: string; state: string | null }[];
  logbook: { when: string; message: string }[];
  log_entries: { integration: string; level: string; message: string; count: number; last_seen: string }[];
  findings: string[];
  notes: string[];
}

/** The fields of state_query's answer that priming shows. */
export interface StateRows {
  entities: { entity_id: string; name: string; state: string | null; area: string | null; unit: string | null; last_changed: string | null }[];
  total: number;
}
