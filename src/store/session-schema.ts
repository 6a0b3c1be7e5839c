import { z } from "zod";
import { ULID_PATTERN } from "./ids.js";

/**
 * The data format: every record under the data directory is in it, and
 * `format.json` says it. Bumped with any change to a stored record's shape
 * (test/store/formats.test.ts fails until it is), with a migration step in
 * `migrations.ts`; a build refuses a directory in a newer format.
 */
export const FORMAT_VERSION = 2;

const Ulid = z.string().regex(ULID_PATTERN, "expected a ULID");

/** Per-turn limits a session gets when the caller sets none. */
export const DEFAULT_BUDGETS = { maxSteps: 8, maxToolCalls: 16, maxDurationMs: 120_000, maxTokensPerTurn: 100_000 } as const;

/**
 * The most a turn may be given. A turn never runs longer than an hour, the
 * shortest time a finished turn is kept (continuation_retention_hours), and
 * so stays far inside what a Node timer can hold (2^31 ms).
 */
export const BUDGET_LIMITS = { maxSteps: 50, maxToolCalls: 200, maxDurationMs: 3_600_000, maxTokensPerTurn: 2_000_000 } as const;
export const DEFAULT_LAST_K = 6;

/**
 * A stored budget. Callers are refused above the limit before anything is
 * written; a record written before the limits existed is read at the limit,
 * so an old session stays usable instead of expiring every turn at once.
 */
export const storedBudget = (min: number, max: number) =>
  z
    .number()
    .int()
    .min(min)
    .transform((v) => Math.min(v, max));

export const ModelConfigSchema = z.object({
  provider: z.string().min(1).max(255).optional(),
  name: z.string().min(1).max(255).optional(),
  temperature: z.number().min(0).max(2).optional(),
});

export const BudgetsSchema = z.object({
  maxSteps: storedBudget(1, BUDGET_LIMITS.maxSteps).default(DEFAULT_BUDGETS.maxSteps),
  maxToolCalls: storedBudget(0, BUDGET_LIMITS.maxToolCalls).default(DEFAULT_BUDGETS.maxToolCalls),
  maxDurationMs: storedBudget(1, BUDGET_LIMITS.maxDurationMs).default(DEFAULT_BUDGETS.maxDurationMs),
  maxTokensPerTurn: storedBudget(1, BUDGET_LIMITS.maxTokensPerTurn).default(DEFAULT_BUDGETS.maxTokensPerTurn),
});

export const PolicySchema = z.object({
  allowActuation: z.boolean().default(false),
  allowlistedServices: z.array(z.string().max(255)).max(100).default([]),
  enforceFixedModel: z.boolean().default(false),
  /**
   * `refuse`: an action the session has not pre-approved is refused. `ask`:
   * it waits for a person's yes instead, as long as the add-on's options
   * allow the service at all.
   */
  approval: z.enum(["refuse", "ask"]).default("refuse"),
  maxOpenContinuations: z.number().int().positive().default(1),
});

export const PreferencesSchema = z.object({
  language: z.string().max(35).optional(),
  units: z.enum(["metric", "imperial"]).optional(),
  verbosity: z.enum(["brief", "normal", "detailed"]).optional(),
});

// Memory is bounded here, so a session record stays small whatever is stored in it.
export const MEMORY_LIMITS = { facts: 50, factChars: 500, pins: 20, pinChars: 500, lastK: 20, messageChars: 16_000, summaryChars: 16_000 } as const;

export const FactSchema = z.object({ text: z.string().max(MEMORY_LIMITS.factChars), createdAt: z.number(), source: z.string().max(64).optional() });
export const PinSchema = z.object({ id: z.string().max(64), text: z.string().max(MEMORY_LIMITS.pinChars) });
export const TurnMessageSchema = z.object({
  role: z.enum(["user", "assistant"]),
  content: z.string().max(MEMORY_LIMITS.messageChars),
  continuationId: Ulid.optional(),
  ts: z.number(),
});

export const SessionMemorySchema = z.object({
  rollingSummary: z.string().max(MEMORY_LIMITS.summaryChars).default(""),
  facts: z.array(FactSchema).max(MEMORY_LIMITS.facts).default([]),
  pins: z.array(PinSchema).max(MEMORY_LIMITS.pins).default([]),
  lastK: z.array(TurnMessageSchema).max(MEMORY_LIMITS.lastK).default([]),
});

/** Totals of one model within a session. */
export const ModelStatsSchema = z.object({
  turns: z.number().int().nonnegative().default(0),
  modelCalls: z.number().int().nonnegative().default(0),
  steps: z.number().int().nonnegative().default(0),
  toolCalls: z.number().int().nonnegative().default(0),
  tokensIn: z.number().int().nonnegative().default(0),
  tokensOut: z.number().int().nonnegative().default(0),
  tokensThinking: z.number().int().nonnegative().default(0),
});

export const SessionStatsSchema = z.object({
  turns: z.number().int().nonnegative().default(0),
  steps: z.number().int().nonnegative().default(0),
  toolCalls: z.number().int().nonnegative().default(0),
  tokensIn: z.number().int().nonnegative().default(0),
  tokensOut: z.number().int().nonnegative().default(0),
  tokensThinking: z.number().int().nonnegative().default(0),
  /** The same totals per `provider/model`; a session may switch models per turn. */
  byModel: z.record(z.string(), ModelStatsSchema).default({}),
});

export const CONTINUATION_STATUSES = ["pending", "running", "streaming", "input_required", "completed", "failed", "cancelled", "expired", "interrupted"] as const;
export const ContinuationStatusSchema = z.enum(CONTINUATION_STATUSES);
export type ContinuationStatus = z.infer<typeof ContinuationStatusSchema>;
/** `input_required`: the turn waits for a person to approve an action; it keeps its session busy. */
export const OPEN_STATUSES: readonly ContinuationStatus[] = ["pending", "running", "streaming", "input_required"];
export const isOpenStatus = (status: ContinuationStatus): boolean => OPEN_STATUSES.includes(status);
/** Finished for good: neither open nor interrupted (which a resume takes up). */
export const isFinalStatus = (status: ContinuationStatus): boolean => !isOpenStatus(status) && status !== "interrupted";

/** A lightweight reference to one turn; the full record is `turns/{id}.json`. */
export const MessageRefSchema = z.object({
  continuationId: Ulid,
  status: ContinuationStatusSchema,
  createdAt: z.number(),
  updatedAt: z.number(),
  preview: z.string().default(""),
});

/**
 * The persona a session's turns take on, with its arguments as the caller
 * gave them: each turn resolves it again, so its priming is of the home now.
 */
export const PersonaChoiceSchema = z.object({
  name: z.string().min(1).max(64),
  args: z.record(z.string().max(64), z.string().max(2_000)).default({}),
});

export const IdempotencyEntrySchema = z.object({ key: z.string(), continuationId: Ulid });

export const SessionStatusSchema = z.enum(["active", "ended", "expired"]);

export const SessionRecordSchema = z.object({
  formatVersion: z.literal(FORMAT_VERSION),
  id: Ulid,
  owner: z.string().min(1),
  version: z.number().int().nonnegative(),
  status: SessionStatusSchema,
  createdAt: z.number(),
  updatedAt: z.number(),
  lastActivityAt: z.number(),
  endedAt: z.number().optional(),
  endReason: z.string().optional(),
  model: ModelConfigSchema.default({}),
  budgets: BudgetsSchema.default(BudgetsSchema.parse({})),
  policy: PolicySchema.default(PolicySchema.parse({})),
  preferences: PreferencesSchema.default({}),
  persona: PersonaChoiceSchema.optional(),
  memory: SessionMemorySchema.default(SessionMemorySchema.parse({})),
  stats: SessionStatsSchema.default(SessionStatsSchema.parse({})),
  messages: z.array(MessageRefSchema).default([]),
  openContinuations: z.array(Ulid).default([]),
  idempotencyKeys: z.array(IdempotencyEntrySchema).default([]),
});

/** How much a session's memory holds; what `get_session` reports without reading the memory itself. */
export const MemorySizesSchema = z.object({
  rollingSummaryChars: z.number().int().nonnegative(),
  facts: z.number().int().nonnegative(),
  pins: z.number().int().nonnegative(),
  lastK: z.number().int().nonnegative(),
});

/**
 * A session as the store holds it in memory: the record without its memory
 * bodies (up to ~370,000 characters each), which are read from
 * `session.json` when a turn or a write needs them.
 */
export const SessionHeadSchema = SessionRecordSchema.omit({ memory: true }).extend({ memorySizes: MemorySizesSchema });

export type ModelConfig = z.infer<typeof ModelConfigSchema>;
export type Budgets = z.infer<typeof BudgetsSchema>;
export type Policy = z.infer<typeof PolicySchema>;
export type Preferences = z.infer<typeof PreferencesSchema>;
export type PersonaChoice = z.infer<typeof PersonaChoiceSchema>;
export type SessionMemory = z.infer<typeof SessionMemorySchema>;
export type SessionStats = z.infer<typeof SessionStatsSchema>;
export type ModelStats = z.infer<typeof ModelStatsSchema>;
export type MessageRef = z.infer<typeof MessageRefSchema>;
export type SessionStatus = z.infer<typeof SessionStatusSchema>;
export type SessionRecord = z.infer<typeof SessionRecordSchema>;
export type MemorySizes = z.infer<typeof MemorySizesSchema>;
export type SessionHead = z.infer<typeof SessionHeadSchema>;
