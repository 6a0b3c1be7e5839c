import { z } from "zod";
import { JournalRecordSchema } from "../../src/agent/index.js";
import { IndexMetaSchema } from "../../src/indexer/index.js";
import { GrantsFileSchema } from "../../src/oauth/grants/index.js";
import {
  ArtifactMetaSchema,
  ClockMarkSchema,
  ContinuationRecordSchema,
  FinalDetailSchema,
  FormatMarkerSchema,
  LockRecordSchema,
  SessionRecordSchema,
  StoredLineSchema,
  UsageLedgerSchema,
} from "../../src/store/index.js";
import { AnnouncementRecordSchema } from "../../src/supervisor/index.js";

/**
 * Every record kept under the data directory, by name, with where it lives
 * and its schema. A record added to the data directory is added here, so its
 * shape is held to the format version like the others.
 */
export const STORED_RECORDS: Record<string, { where: string; schema: z.ZodType }> = {
  session: { where: "sessions/{id}/session.json", schema: SessionRecordSchema },
  turn: { where: "sessions/{id}/turns/{contId}.json (approvals, usage, ownerIsAdmin included)", schema: ContinuationRecordSchema },
  logLine: { where: "sessions/{id}/logs/{contId}.log, each line", schema: StoredLineSchema },
  finalLine: { where: "the detail of a log's final line", schema: FinalDetailSchema },
  journalStep: { where: "the detail of the agent's log lines (src/agent/records.ts), which a resume replays", schema: JournalRecordSchema },
  artifactMeta: { where: "artifacts/{id}.meta.json", schema: ArtifactMetaSchema },
  lock: { where: "ha-agent.lock", schema: LockRecordSchema },
  format: { where: "format.json", schema: FormatMarkerSchema },
  clockMark: { where: "clock.json", schema: ClockMarkSchema },
  oauthGrants: { where: "oauth/grants.json", schema: GrantsFileSchema },
  indexMeta: { where: "index/meta.json", schema: IndexMetaSchema },
  announcement: { where: "supervisor-discovery.json", schema: AnnouncementRecordSchema },
  usageLedger: { where: "usage.json", schema: UsageLedgerSchema },
};

/**
 * Each record's JSON Schema, as the data directory reads it (`io: "input"`:
 * defaults and older spellings included; a transform's output cannot be
 * written as JSON Schema).
 */
export function storedSchemas(): Record<string, unknown> {
  return Object.fromEntries(Object.entries(STORED_RECORDS).map(([name, { schema }]) => [name, z.toJSONSchema(schema, { io: "input", unrepresentable: "any" })]));
}
