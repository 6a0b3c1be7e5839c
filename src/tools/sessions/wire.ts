import { z } from "zod";
import { servicePatternSchema } from "../../config/index.js";
import { HaAgentError } from "../../shared/index.js";
import { NotFoundError, ULID_PATTERN, type Budgets, type MessageRef, type ModelConfig, type Policy, type Preferences, type SessionHead } from "../../store/index.js";
import { LIMITS, name, names } from "../limits.js";
import { fail, type ToolOutcome } from "../tool.js";

// Snake_case wire shapes of the session settings, and converters to the store's records.

export const SessionIdInput = z
  .string()
  .regex(ULID_PATTERN, "expected a session id as returned by ha_agent_start_session (26-character ULID)")
  .describe("The session id returned by ha_agent_start_session.");

export const ModelWire = z.object({
  provider: name().min(1).optional().describe('Model provider, e.g. "gemini". Omit for the add-on default.'),
  name: name().min(1).optional().describe('Model name, e.g. "gemini-3.8-flash". Omit for the add-on default.'),
  temperature: z.number().min(0).max(2).optional().describe("Sampling temperature 0-2. Omit for the provider default."),
});

export const BudgetsWire = z.object({
  max_steps: z.number().int().positive().describe("Most agent steps per turn (default 8)."),
  max_tool_calls: z.number().int().nonnegative().describe("Most tool calls per turn (default 16)."),
  max_duration_ms: z.number().int().positive().describe("Wall-time limit per turn in ms (default 120000)."),
  max_tokens_per_turn: z.number().int().positive().describe("Soft token cap per turn, thinking included (default 100000)."),
});

export const PolicyWire = z.object({
  allow_actuation: z.boolean().describe("May the agent change things in the home? Default false (read-only)."),
  allowlisted_services: names(LIMITS.services).describe('Services the agent may call when actuation is allowed, e.g. ["switch.turn_off"].'),
  enforce_fixed_model: z.boolean().describe("Refuse per-turn model overrides. Default false."),
  max_open_continuations: z.number().int().positive().describe("Turns that may run at once in this session (default 1: single-flight)."),
});

/**
 * The allowlist as a caller sends it: every entry checked against the one
 * service-pattern grammar. Only input is checked, so a session stored before
 * the check still reads back.
 */
export const AllowlistedServicesInput = z
  .array(servicePatternSchema())
  .max(LIMITS.services, { error: `at most ${LIMITS.services} items` })
  .describe('Services the agent may call when actuation is allowed, as domain.service patterns, e.g. ["switch.turn_off", "light.*"].');

export const PreferencesWire = z.object({
  language: z.string().max(35, { error: "at most 35 characters, e.g. en or pt-BR" }).optional().describe('Answer language, e.g. "en" or "de".'),
  units: z.enum(["metric", "imperial"]).optional().describe("Unit system for answers."),
  verbosity: z.enum(["brief", "normal", "detailed"]).optional().describe("How long answers should be."),
});

export const modelToWire = (m: ModelConfig): z.infer<typeof ModelWire> => ({ ...m });
export const budgetsToWire = (b: Budgets): z.infer<typeof BudgetsWire> => ({
  max_steps: b.maxSteps,
  max_tool_calls: b.maxToolCalls,
  max_duration_ms: b.maxDurationMs,
  max_tokens_per_turn: b.maxTokensPerTurn,
});
export const policyToWire = (p: Policy): z.infer<typeof PolicyWire> => ({
  allow_actuation: p.allowActuation,
  allowlisted_services: p.allowlistedServices,
  enforce_fixed_model: p.enforceFixedModel,
  max_open_continuations: p.maxOpenContinuations,
});
export const preferencesToWire = (p: Preferences): z.infer<typeof PreferencesWire> => ({ ...p });

export const iso = (ms: number): string => new Date(ms).toISOString();

export const ContinuationWire = z.object({
  continuation_id: z.string(),
  status: z.enum(["pending", "running", "streaming", "completed", "failed", "cancelled", "expired", "interrupted"]),
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

/** Store errors become failure values the caller can act on; anything else is a bug and is rethrown. */
export function storeFailure(err: unknown): ToolOutcome<never> {
  if (err instanceof HaAgentError && ["not_found", "session_ended", "session_expired", "stale_write", "storage_error", "invalid_id", "store_unavailable", "too_many_sessions"].includes(err.code)) {
    return fail(err.code === "invalid_id" ? "not_found" : err.code, err.message);
  }
  throw err;
}

/** The store's own not-found answer, for a session `sessions.get` did not return. */
export function notFound(sessionId: string): ToolOutcome<never> {
  return storeFailure(new NotFoundError("session", sessionId));
}
