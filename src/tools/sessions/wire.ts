import { z } from "zod";
import { servicePatternSchema } from "../../config/index.js";
import { BUDGET_LIMITS, ContinuationStatusSchema, DEFAULT_BUDGETS, NotFoundError, ULID_PATTERN, type Budgets, type MessageRef, type ModelConfig, type Policy, type Preferences, type SessionHead } from "../../store/index.js";
import { LIMITS, name, names, oneOrList, text } from "../limits.js";
import { openObject } from "../open-object.js";
import type { ToolOutcome } from "../tool.js";
import { toolFailure } from "../failure.js";
import { HaAgentError } from "../../shared/index.js";
import { describeActuation, type ActuationCeiling } from "../actions/index.js";

// Snake_case wire shapes of the session settings, and converters to the store's records.

export const SessionIdInput = z
  .string()
  .regex(ULID_PATTERN, "expected a session id as returned by ha_agent_start_session (26-character ULID)");

export const ModelWire = z.object({
  provider: name().min(1).optional().describe('e.g. "gemini"'),
  name: name().min(1).optional().describe("The add-on's model, or one its allowed_models option lists"),
  temperature: z.number().min(0).max(2).optional().describe("0-2"),
});

/** A whole number between min and max; the message names the limit, and the field is named by the caller's path. */
const budget = (min: number, max: number, what: string) =>
  z
    .number()
    .int({ error: "expected a whole number" })
    .min(min, { error: `at least ${min}` })
    .max(max, { error: `at most ${max}, the most ${what}` });

/** Each per-turn budget, with its documented maximum (docs/agent.md, "Budgets"). */
export const BUDGET_FIELDS = {
  max_steps: budget(1, BUDGET_LIMITS.maxSteps, "steps a turn may take"),
  max_tool_calls: budget(0, BUDGET_LIMITS.maxToolCalls, "tool calls a turn may make"),
  max_duration_ms: budget(1_000, BUDGET_LIMITS.maxDurationMs, "time a turn may take (1 hour)"),
  max_tokens_per_turn: budget(1_000, BUDGET_LIMITS.maxTokensPerTurn, "tokens a turn may use"),
};

export const BudgetsWire = z.object({
  max_steps: BUDGET_FIELDS.max_steps,
  max_tool_calls: BUDGET_FIELDS.max_tool_calls,
  max_duration_ms: BUDGET_FIELDS.max_duration_ms,
  max_tokens_per_turn: BUDGET_FIELDS.max_tokens_per_turn,
});

const BUDGET_KEYS = { max_steps: "maxSteps", max_tool_calls: "maxToolCalls", max_duration_ms: "maxDurationMs", max_tokens_per_turn: "maxTokensPerTurn" } as const;

/**
 * The defaults and maxima of these budgets, in the order given: said once,
 * on the object that holds them, since Google's converter drops every bound.
 */
export const budgetsSaid = (fields: readonly (keyof typeof BUDGET_KEYS)[]): string =>
  `defaults ${fields.map((f) => DEFAULT_BUDGETS[BUDGET_KEYS[f]]).join(", ")}; at most ${fields.map((f) => BUDGET_LIMITS[BUDGET_KEYS[f]]).join(", ")}`;

export const PolicyWire = z.object({
  allow_actuation: z.boolean().describe("Act without asking"),
  allowlisted_services: names(LIMITS.services).describe('With allow_actuation: the services it may call, e.g. ["switch.turn_off"]; empty means all.'),
  enforce_fixed_model: z.boolean().describe("Refuse messages naming another model"),
  approval: z.enum(["refuse", "ask"]).describe("ask: actions the add-on allows wait for a person's yes; default refuse"),
  max_open_continuations: z.number().int().positive().describe("Turns running at once; default 1"),
});

/**
 * The allowlist as a caller sends it: every entry checked against the one
 * service-pattern grammar. Only input is checked, so a session stored before
 * the check still reads back.
 */
export const AllowlistedServicesInput = oneOrList(servicePatternSchema(), { max: LIMITS.services, example: '["switch.turn_off", "light.*"]', commaSeparated: true }).describe('With allow_actuation, e.g. ["light.*"]; empty: any the add-on allows');

export const PreferencesWire = z.object({
  language: z.string().max(35, { error: "at most 35 characters, e.g. en or pt-BR" }).optional().describe('e.g. "de"'),
  units: z.enum(["metric", "imperial"]).optional(),
  verbosity: z.enum(["brief", "normal", "detailed"]).optional(),
});

/** The add-on's configured model, which a session runs on unless it names another. */
/** The most arguments a persona choice may carry. */
const PERSONA_ARGS = 20;

/** A persona for the turns, as start_session and ask take it. */
export const PersonaFields = {
  persona: z.string().max(64).optional().describe("A prompt's name (prompts/list)"),
  // The count and the names' length are checked, not published: probatio writes an object with maxProperties out as a string.
  persona_args: openObject({ maxKeys: PERSONA_ARGS, maxKeyLength: 64, value: text() }).optional(),
};

/**
 * Checks a persona choice before anything is written: the name exists and
 * the arguments fit its schema. Throws a refusal (code `unknown_persona` or
 * `invalid_argument`) that names the fix.
 */
export type PersonaCheck = (choice: { name: string; args: Record<string, string> }) => void;

/** The persona choice of a call's arguments; undefined when it names none. */
export function personaChoice(args: { persona?: string | undefined; persona_args?: Record<string, string> | undefined }): { name: string; args: Record<string, string> } | undefined {
  if (!args.persona) {
    if (args.persona_args) throw new HaAgentError("invalid_argument", "persona_args: give persona too, or leave persona_args out.");
    return undefined;
  }
  const given = Object.entries(args.persona_args ?? {});
  if (given.length > PERSONA_ARGS) throw new HaAgentError("invalid_argument", `persona_args: at most ${PERSONA_ARGS} arguments.`);
  const long = given.find(([key]) => key.length > 64);
  if (long) throw new HaAgentError("invalid_argument", `persona_args.${long[0].slice(0, 64)}: argument names are at most 64 characters.`);
  return { name: args.persona, args: Object.fromEntries(given) };
}

export interface ConfiguredModel {
  provider: string;
  model: string;
}

export const ModelInUseWire = ModelWire.extend({
  provider: z.string().optional().describe("The provider the session's turns use."),
  name: z.string().optional().describe("The model the session's turns use unless a message names another (not in a session that fixes its model)."),
});

/** The model a session's turns use: its own choice over the add-on's configured one. */
export const modelToWire = (m: ModelConfig, configured?: ConfiguredModel): z.infer<typeof ModelInUseWire> => ({
  ...(configured ? { provider: configured.provider, name: configured.model } : {}),
  ...m,
  ...(configured ? { provider: configured.provider } : {}),
});
export const budgetsToWire = (b: Budgets): z.infer<typeof BudgetsWire> => ({
  max_steps: b.maxSteps,
  max_tool_calls: b.maxToolCalls,
  max_duration_ms: b.maxDurationMs,
  max_tokens_per_turn: b.maxTokensPerTurn,
});
/** A session's policy as the tools report it: the stored fields, and what they mean after the add-on's options. */
export const PolicyOutWire = PolicyWire.extend({
  in_effect: z
    .object({
      may: z.array(z.string()).describe("What the agent does without asking."),
      asks_first: z.array(z.string()).describe("What waits for the owner's yes (input_required)."),
      refused: z.array(z.string()).describe("What is refused, and which setting would change that."),
    })
    .describe("What this session's turns may do in the home, after the add-on's options: allow_actuation false with approval ask still acts, after a yes."),
});

/** The add-on's options when none are given: actuation off, as by default. */
const ACTUATION_OFF: ActuationCeiling = { allow: false, allowlist: [] };

export const policyToWire = (p: Policy, ceiling: ActuationCeiling = ACTUATION_OFF): z.infer<typeof PolicyOutWire> => {
  const summary = describeActuation(ceiling, p);
  return {
    allow_actuation: p.allowActuation,
    allowlisted_services: p.allowlistedServices,
    enforce_fixed_model: p.enforceFixedModel,
    approval: p.approval,
    max_open_continuations: p.maxOpenContinuations,
    in_effect: { may: summary.may, asks_first: summary.asksFirst, refused: summary.refused },
  };
};
export const preferencesToWire = (p: Preferences): z.infer<typeof PreferencesWire> => ({ ...p });

export const iso = (ms: number): string => new Date(ms).toISOString();

export const ContinuationWire = z.object({
  continuation_id: z.string(),
  status: ContinuationStatusSchema,
  created_at: z.string(),
  updated_at: z.string(),
  preview: z.string().describe("Start of the message that opened the turn."),
});

export function continuationToWire(ref: MessageRef): z.infer<typeof ContinuationWire> {
  return { continuation_id: ref.continuationId, status: ref.status, created_at: iso(ref.createdAt), updated_at: iso(ref.updatedAt), preview: ref.preview };
}

export const SessionBriefWire = z.object({
  session_id: z.string(),
  status: z.enum(["active", "ended", "expired"]),
  created_at: z.string(),
  last_activity_at: z.string(),
  turns: z.number().int(),
  open_continuations: z.array(z.string()),
});

export function sessionBriefToWire(s: SessionHead): z.infer<typeof SessionBriefWire> {
  return {
    session_id: s.id,
    status: s.status,
    created_at: iso(s.createdAt),
    last_activity_at: iso(s.lastActivityAt),
    turns: s.messages.length,
    open_continuations: s.openContinuations,
  };
}

/** The store's own not-found answer, for a session `sessions.get` did not return. */
export function notFound(sessionId: string): ToolOutcome<never> {
  return toolFailure(new NotFoundError("session", sessionId));
}
