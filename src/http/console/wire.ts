import { z } from "zod";

/**
 * What the console's JSON API sends and takes. Responses are parsed through
 * these before they leave, so a field not named here (a token, a key) never
 * reaches the page: zod drops unknown keys.
 */

export const ViewerSchema = z.object({
  id: z.string(),
  name: z.string(),
  isAdmin: z.boolean(),
  /** `ingress`: named by a trusted proxy's headers; `demo`: the demo house's user. */
  via: z.enum(["ingress", "demo"]),
});

export const ProblemSchema = z.object({
  code: z.enum(["no_model", "ha_unreachable", "index_building", "disk_nearly_full", "store_unwritable", "quarantined_files", "rate_limited", "model_failing"]),
  title: z.string(),
  fix: z.string(),
});

export const PolicySchema = z.object({
  mayAct: z.boolean(),
  /** Plain sentences, in order: what it may do, what asks first, what never happens. */
  may: z.array(z.string()),
  asks: z.array(z.string()),
  never: z.array(z.string()),
});

export const SnippetSchema = z.object({
  client: z.string(),
  where: z.string(),
  language: z.enum(["sh", "json"]),
  /** With a token: works with every client. */
  text: z.string(),
  /** Signing in with Home Assistant, for clients that can: only the URL, shown first. */
  signIn: z.object({ where: z.string(), text: z.string() }).optional(),
});

export const ConnectSchema = z.object({
  mcpUrl: z.string(),
  tokenHint: z.string(),
  /** Demo mode only: the demo house's token, which is all a client needs there. */
  demoToken: z.string().optional(),
  snippets: z.array(SnippetSchema),
});

const TargetStateSchema = z.object({ entityId: z.string(), name: z.string().optional(), stateThen: z.string().nullable(), stateNow: z.string().nullable() });

export const ApprovalViewSchema = z.object({
  continuationId: z.string(),
  approvalId: z.string(),
  service: z.string(),
  /** The question as every channel asks it: the call and the entity ids first, names quoted and cleaned. */
  question: z.string(),
  targets: z.array(TargetStateSchema),
  data: z.record(z.string(), z.unknown()),
  why: z.string(),
  expiresAt: z.number(),
  /** Only the session's owner answers; others see it waiting. */
  canAnswer: z.boolean(),
  alsoWaitsIn: z.string(),
});

export const TurnRefSchema = z.object({ continuationId: z.string(), status: z.string(), createdAt: z.number(), updatedAt: z.number(), preview: z.string() });

export const SessionViewSchema = z.object({
  id: z.string(),
  owner: z.string(),
  ownerName: z.string(),
  status: z.string(),
  /** The first message, shortened: how a person recognises the session. */
  title: z.string(),
  persona: z.string().nullable(),
  /** The newest turn's status, read live while it runs. */
  latestStatus: z.string().nullable(),
  createdAt: z.number(),
  updatedAt: z.number(),
  turns: z.array(TurnRefSchema),
  tokens: z.number(),
  canAct: z.boolean(),
});

export const HealthViewSchema = z.object({
  status: z.enum(["ok", "degraded", "unavailable"]),
  uptimeSeconds: z.number(),
  ha: z.object({ status: z.string(), version: z.string().nullable() }),
  index: z.object({ ready: z.boolean(), entities: z.number(), devices: z.number(), areas: z.number(), lastSyncAt: z.number().nullable(), eventsPerSecond: z.number() }),
  store: z.object({ writable: z.boolean(), freeBytes: z.number().nullable(), totalBytes: z.number().nullable(), quarantined: z.number(), lastRecovery: z.object({ durationMs: z.number(), interrupted: z.number(), problems: z.array(z.string()) }) }),
  model: z.object({ status: z.string(), provider: z.string(), model: z.string(), lastError: z.object({ code: z.string(), message: z.string(), at: z.number() }).nullable(), rateLimitedLastHour: z.number() }),
});

export const OverviewSchema = z.object({
  version: z.string(),
  mode: z.string(),
  /** Home Assistant's time zone: every time on the page is written in it. */
  timeZone: z.string(),
  /** Home Assistant's language and country as a locale ("en-NL"): dates and numbers are written as there. */
  locale: z.string(),
  viewer: ViewerSchema.nullable(),
  health: HealthViewSchema,
  problems: z.array(ProblemSchema),
  policy: PolicySchema,
  connect: ConnectSchema,
  sessions: z.array(SessionViewSchema),
  approvals: z.array(ApprovalViewSchema),
});

export const TimelineEntrySchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("model"), step: z.number(), model: z.string(), tokensIn: z.number(), tokensOut: z.number(), tokensThinking: z.number(), durationMs: z.number(), text: z.string(), toolCalls: z.array(z.string()) }),
  z.object({ kind: z.literal("tool"), step: z.number(), index: z.number(), name: z.string(), action: z.boolean(), args: z.unknown(), result: z.unknown().optional(), isError: z.boolean().optional(), durationMs: z.number().optional() }),
  z.object({ kind: z.literal("approval"), approvalId: z.string(), service: z.string(), targets: z.array(z.string()), data: z.record(z.string(), z.unknown()) }),
  z.object({ kind: z.literal("decision"), approvalId: z.string(), decision: z.string(), via: z.string().optional(), reason: z.string().optional() }),
  z.object({ kind: z.literal("wrap_up"), budget: z.string() }),
  /** The memory fold: a model call of the turn, after its answer, that folds older messages into the session's summary. */
  z.object({ kind: z.literal("memory"), call: z.number(), tokensIn: z.number(), tokensOut: z.number(), tokensThinking: z.number(), durationMs: z.number().optional() }),
]);

export const TimelineSchema = z.object({
  continuationId: z.string(),
  sessionId: z.string(),
  owner: z.string(),
  status: z.string(),
  message: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
  entries: z.array(TimelineEntrySchema),
  answer: z.string().nullable(),
  /** The entities the answer cites. */
  cites: z.array(z.string()),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  usage: z.object({ tokensIn: z.number(), tokensOut: z.number(), tokensThinking: z.number(), modelCalls: z.number(), toolCalls: z.number() }),
  canAct: z.boolean(),
});

export const UsageDaySchema = z.object({ day: z.string(), model: z.string(), tokens: z.number(), turns: z.number(), modelCalls: z.number(), toolCalls: z.number() });
export const UsageReportSchema = z.object({ days: z.array(z.string()), rows: z.array(UsageDaySchema), note: z.string() });

export const ApproveBodySchema = z.object({
  approvalId: z.string().min(1, { error: "approvalId: name the approval to answer" }),
  decision: z.enum(["approve", "deny"], { error: "decision: expected approve or deny" }),
  reason: z.string().max(500, { error: "reason: at most 500 characters" }).optional(),
});
export const CancelBodySchema = z.object({ reason: z.string().max(500, { error: "reason: at most 500 characters" }).optional() }).default({});

export type Viewer = z.infer<typeof ViewerSchema>;
export type Problem = z.infer<typeof ProblemSchema>;
export type ActuationPolicyView = z.infer<typeof PolicySchema>;
export type Snippet = z.infer<typeof SnippetSchema>;
export type ConnectView = z.infer<typeof ConnectSchema>;
export type ApprovalView = z.infer<typeof ApprovalViewSchema>;
export type SessionView = z.infer<typeof SessionViewSchema>;
export type HealthView = z.infer<typeof HealthViewSchema>;
export type Overview = z.infer<typeof OverviewSchema>;
export type TimelineEntry = z.infer<typeof TimelineEntrySchema>;
export type Timeline = z.infer<typeof TimelineSchema>;
export type UsageDay = z.infer<typeof UsageDaySchema>;
export type UsageReport = z.infer<typeof UsageReportSchema>;
