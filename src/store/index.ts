export { openStore, type Store, type StoreOptions } from "./store.js";
export type { SessionsApi, SessionChange, ListOptions, NewSession } from "./sessions.js";
export type { ContinuationsApi, ContinuationPatch, ContinuationRequestInput } from "./continuations.js";
export { isFinalStatus } from "./continuations.js";
export type { StepsApi } from "./steps.js";
export type { ArtifactsApi } from "./artifacts.js";
export type { SweepReport } from "./sweeper.js";
export type { RecoveryReport, InterruptedEntry } from "./recovery-report.js";
export type { QuarantineEntry } from "./quarantine.js";
export { nodeStoreFs, countingFs, type StoreFs, type StoreFileHandle, type StoreStat, type FsCounts } from "./fs.js";
export { idGenerator, isUlid, ULID_PATTERN } from "./ids.js";
export { redactSecrets, redactText } from "./redact.js";
export { loadSecret, ownerOnlyFs } from "./secret.js";
export { writeJsonAtomic } from "./atomic.js";
export {
  InvalidIdError,
  NotFoundError,
  StaleWriteError,
  SessionClosedError,
  ContinuationFinalError,
  TooManyOpenError,
  ArtifactTooLargeError,
  StorageError,
  StoreUnavailableError,
  TooManySessionsError,
} from "./errors.js";
export { DataDirError } from "./data-dir.js";
export { DataDirInUseError, LOCK_FILE, LockRecordSchema, type LockRecord } from "./data-lock.js";
export { FormatTooNewError, FORMAT_TOO_NEW_EXIT_CODE } from "./format-too-new.js";
export { MEMORY_CACHE_SESSIONS } from "./memory-cache.js";
export {
  FORMAT_VERSION,
  DEFAULT_BUDGETS,
  BUDGET_LIMITS,
  storedBudget,
  DEFAULT_LAST_K,
  MEMORY_LIMITS,
  CONTINUATION_STATUSES,
  OPEN_STATUSES,
  isOpenStatus,
  SessionRecordSchema,
  SessionHeadSchema,
  MemorySizesSchema,
  SessionStatusSchema,
  ContinuationStatusSchema,
  ModelConfigSchema,
  BudgetsSchema,
  PolicySchema,
  PreferencesSchema,
  SessionMemorySchema,
  SessionStatsSchema,
  MessageRefSchema,
  PersonaChoiceSchema,
  type PersonaChoice,
  type SessionRecord,
  type SessionHead,
  type MemorySizes,
  type SessionStatus,
  type ContinuationStatus,
  type ModelConfig,
  type Budgets,
  type Policy,
  type Preferences,
  type SessionMemory,
  type SessionStats,
  type MessageRef,
} from "./session-schema.js";
export {
  ContinuationRecordSchema,
  ContinuationRequestSchema,
  ContinuationResponseSchema,
  ArtifactRefSchema,
  UsageSchema,
  PendingApprovalSchema,
  ApprovalCallSchema,
  ServiceCallActionSchema,
  AutomationSaveActionSchema,
  approvalExpired,
  approvalShown,
  approvalWords,
  type ApprovalCall,
  type ServiceCallAction,
  type AutomationSaveAction,
  type PendingApproval,
  type ContinuationRecord,
  type ContinuationRequest,
  type ContinuationResponse,
  type ArtifactRef,
  type Usage,
} from "./continuation-schema.js";
export { StepEntrySchema, LogLineSchema, StoredLineSchema, FinalDetailSchema, STEP_TYPES, type StepEntry, type LogLine } from "./step-schema.js";
export { ArtifactMetaSchema } from "./artifacts.js";
export { FORMAT_FILE, FormatMarkerSchema, type FormatMarker } from "./data-format.js";
export { CLOCK_FILE, ClockMarkSchema } from "./clock-mark.js";
export { MIGRATIONS } from "./migrations.js";
export { UsageLedgerSchema, UsageSlotSchema, SLOT_MS, LEDGER_KEEP_MS } from "./usage-ledger.js";
export type { UsageApi, UsageTotals } from "./usage-file.js";
