/** The records a data-format migration rewrites, one file each. */
export type RecordKind = "session" | "turn" | "artifactMeta";

/**
 * One step of the data format, `from` → `to` (always `from + 1`). `record`
 * turns one record of format `from` (parsed JSON, `formatVersion` included)
 * into the same record in format `to`. It must be pure: a crash mid-migration
 * leaves some records migrated and others not, and the next start applies
 * the remaining steps to each record from the format that record says.
 */
export interface MigrationStep {
  from: number;
  to: number;
  record(kind: RecordKind, value: Record<string, unknown>): Record<string, unknown>;
}
