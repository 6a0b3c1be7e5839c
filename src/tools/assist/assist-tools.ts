import { z } from "zod";
import { dict, own } from "../../shared/index.js";
import { fail, type AnyObjectSchema, type ToolCallContext, type ToolOutcome, type ToolSpec } from "../tool.js";
import type { ToolRegistry } from "../registry.js";
import { formatZodError } from "../zod-errors.js";

/**
 * How long `ask` and `await_continuation` wait for the agent before they
 * answer with what it has so far. Home Assistant's client gives each call
 * 10 s, opening its MCP session included (mcp/coordinator.py).
 */
export const ASSIST_WAIT_MS = 7_000;

/** Every Assist call answers by then, finished or not. */
export const ASSIST_DEADLINE_MS = 8_500;

interface AssistView {
  /** The parameters offered; the rest keep their defaults. */
  fields: readonly string[];
  description: string;
  /** Arguments the Assist view always sets. */
  fixed?: Record<string, unknown>;
}

/**
 * The tools Home Assistant's conversation agents see, chosen for what people
 * ask Assist: the agent itself, search and state, history and energy, and
 * why an automation did or did not run. Each is the full tool with fewer
 * parameters and a shorter description, so the whole set fits a small local
 * model's context beside HA's own prompt (docs/home-assistant.md).
 */
const VIEWS: readonly (readonly [string, AssistView])[] = Object.entries({
  ask: {
    fields: ["message"],
    description: `Ask HA Agent's own agent a question about the home that needs several steps; it searches, reads states, history and automations itself. Answers within ${ASSIST_WAIT_MS / 1000} s, or returns continuation_id: then call ha_agent_await_continuation.`,
    fixed: { timeout_ms: ASSIST_WAIT_MS },
  },
  await_continuation: {
    fields: ["continuation_id"],
    description: `The rest of an answer from ha_agent_ask: waits up to ${ASSIST_WAIT_MS / 1000} s, then gives the answer, or how far it got and whether to call again.`,
    fixed: { timeout_ms: ASSIST_WAIT_MS },
  },
  index_search: {
    fields: ["query", "domain", "area", "limit"],
    description: "Find entities from the user's own words (name, area, kind), best first, with their state. Use before state_query or history when the entity id is not known.",
  },
  state_query: {
    fields: ["entity_ids", "domain", "area", "device_class", "state", "limit"],
    description: "Current states of entities, by entity ids or by domain, area, device class or state, with units as Home Assistant shows them.",
  },
  history: {
    fields: ["entity_ids", "start", "end"],
    description: "What entities did over a period: time in each state, changes in order, and min/mean/max for numbers.",
  },
  energy: {
    fields: ["start", "end", "period"],
    description: "Energy over a period as the Energy dashboard counts it: grid, solar, battery, gas, water and each device's use (kWh).",
  },
  automation_inspect: {
    fields: ["automation", "runs"],
    description: "Why an automation or script did or did not run: its newest runs told from their traces (trigger, conditions, actions, errors). Administrators only.",
  },
} satisfies Record<string, AssistView>);

/** The Assist views of the full registry's tools, in the order above; a tool the registry lacks is left out. */
export function createAssistTools(full: ToolRegistry): ToolSpec[] {
  return VIEWS.flatMap(([name, view]) => {
    const spec = full.get(name);
    return spec ? [assistView(spec, view)] : [];
  });
}

function assistView(spec: ToolSpec, view: AssistView): ToolSpec {
  const shape = spec.input.shape as Record<string, z.ZodType>;
  const missing = view.fields.filter((f) => !Object.hasOwn(shape, f));
  if (missing.length) throw new Error(`The Assist view of ${spec.name} names parameters it does not have: ${missing.join(", ")}`);
  // The view parses only its own fields; a rule across fields would be skipped, so a tool with one has no view.
  if (spec.input._zod.def.checks?.length) throw new Error(`${spec.name} checks its input across fields, which an Assist view cannot carry`);
  const input: AnyObjectSchema = z.object(Object.fromEntries(view.fields.map((f) => [f, shape[f]!])));
  return {
    ...spec,
    description: view.description,
    input,
    invoke: async (args: Record<string, unknown>, ctx: ToolCallContext) => {
      // The fields the view leaves out get what the full schema gives them when absent (their defaults), or the view's fixed value.
      const full = dict<unknown>(args);
      for (const [field, schema] of Object.entries(shape)) {
        if (view.fields.includes(field)) continue;
        const parsed = schema.safeParse(view.fixed ? own(view.fixed, field) : undefined);
        if (!parsed.success) return fail("invalid_argument", formatZodError(parsed.error));
        if (parsed.data !== undefined) full[field] = parsed.data;
      }
      return withDeadline(spec, (signal) => spec.invoke(full, { ...ctx, signal }), ctx.signal);
    },
  };
}

/** Runs a call that must answer within ASSIST_DEADLINE_MS; past it, the work is stopped and the caller told what to try. */
async function withDeadline(spec: ToolSpec, run: (signal: AbortSignal) => Promise<ToolOutcome<Record<string, unknown>>>, callerSignal: AbortSignal): Promise<ToolOutcome<Record<string, unknown>>> {
  const stop = new AbortController();
  const onCaller = () => stop.abort(callerSignal.reason);
  callerSignal.addEventListener("abort", onCaller, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<ToolOutcome<never>>((resolve) => {
    timer = setTimeout(() => {
      stop.abort(new Error("the Assist deadline passed"));
      resolve(fail("too_slow", `${spec.title} did not finish within ${ASSIST_DEADLINE_MS / 1000} s, the time Home Assistant gives a call. Ask about a shorter period or fewer entities, or ask ha_agent_ask, which keeps working after it answers.`));
    }, ASSIST_DEADLINE_MS);
  });
  try {
    return await Promise.race([run(stop.signal), late]);
  } finally {
    clearTimeout(timer);
    callerSignal.removeEventListener("abort", onCaller);
  }
}
