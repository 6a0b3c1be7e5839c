import { decodeTime } from "ulid";
import { z } from "zod";
import { writeJsonAtomic, asStorageError, fsyncDir } from "./atomic.js";
import type { StoreContext } from "./context.js";
import { SessionClosedError, TooManySessionsError } from "./errors.js";
import { checkId, isUlid } from "./ids.js";
import { redactSecrets } from "./redact.js";
import {
  BudgetsSchema,
  FORMAT_VERSION,
  MEMORY_LIMITS,
  ModelConfigSchema,
  PolicySchema,
  PreferencesSchema,
  SessionMemorySchema,
  SessionRecordSchema,
  SessionStatsSchema,
  type SessionHead,
  type SessionMemory,
  PersonaChoiceSchema,
  type SessionRecord,
  type SessionStatus,
} from "./session-schema.js";

export const NewSessionSchema = z.object({
  owner: z.string().min(1),
  model: ModelConfigSchema.optional(),
  budgets: BudgetsSchema.partial().optional(),
  policy: PolicySchema.partial().optional(),
  preferences: PreferencesSchema.optional(),
  /** Standing instructions the agent always sees, e.g. "never touch the heating". */
  pins: z.array(z.string().min(1).max(MEMORY_LIMITS.pinChars)).max(MEMORY_LIMITS.pins).optional(),
  persona: PersonaChoiceSchema.optional(),
});
export type NewSession = z.input<typeof NewSessionSchema>;

/** What a caller may change with `update`; lifecycle fields are changed only by the store. */
export type SessionChange = Partial<Pick<SessionRecord, "model" | "budgets" | "policy" | "preferences" | "memory" | "persona">>;

export interface ListOptions {
  status?: SessionStatus;
  limit?: number;
  /** The `nextCursor` of the previous page. */
  cursor?: string;
}

/**
 * Sessions are returned as heads: the record without its memory bodies, with
 * their sizes instead. `memory` reads the bodies, from `session.json` when
 * they are not among the recently used.
 */
export interface SessionsApi {
  create(input: NewSession): Promise<SessionHead>;
  /** The session, or undefined when it does not exist or belongs to someone else. */
  get(owner: string, sessionId: string): SessionHead | undefined;
  /** The session's memory; throws NotFoundError like `end` when it is not the owner's. */
  memory(owner: string, sessionId: string): Promise<SessionMemory>;
  /** Version-checked change; throws StaleWriteError when `expectedVersion` is old. */
  update(owner: string, sessionId: string, expectedVersion: number, change: SessionChange): Promise<SessionHead>;
  /** Ends an active session; open continuations keep running until they finish. */
  end(owner: string, sessionId: string, reason?: string): Promise<SessionHead>;
  /** The owner's sessions, newest first. */
  list(owner: string, options?: ListOptions): { sessions: SessionHead[]; nextCursor?: string };
  /** Every owner's sessions, newest first: for an administrator's view, never for a caller's own tools. */
  listAll(options?: ListOptions): { sessions: SessionHead[]; nextCursor?: string };
}

export function createSessionsApi(ctx: StoreContext): SessionsApi {
  return {
    async create(input) {
      ctx.assertWritable();
      const args = NewSessionSchema.parse(input);
      let active = 0;
      for (const s of ctx.sessions.values()) if (s.owner === args.owner && s.status === "active") active++;
      if (active >= ctx.settings.maxSessionsPerOwner) throw new TooManySessionsError(ctx.settings.maxSessionsPerOwner, ctx.settings.maxSessionsSetting);
      const now = ctx.clock.now();
      const id = ctx.newId();
      const record: SessionRecord = redactSecrets(
        SessionRecordSchema.parse({
          formatVersion: FORMAT_VERSION,
          id,
          owner: args.owner,
          version: 1,
          status: "active",
          createdAt: now,
          updatedAt: now,
          lastActivityAt: now,
          model: args.model ?? {},
          budgets: BudgetsSchema.parse(args.budgets ?? {}),
          policy: PolicySchema.parse(args.policy ?? {}),
          preferences: args.preferences ?? {},
          ...(args.persona ? { persona: args.persona } : {}),
          memory: SessionMemorySchema.parse({ pins: (args.pins ?? []).map((text, i) => ({ id: `p${i + 1}`, text })) }),
          stats: SessionStatsSchema.parse({}),
        }),
      );
      const { layout, fs } = ctx;
      try {
        await fs.mkdir(layout.turnsDir(id));
        await fs.mkdir(layout.logsDir(id));
        await writeJsonAtomic({ fs, tmpDir: layout.tmpDir, path: layout.sessionFile(id), value: record });
        await fsyncDir(fs, layout.sessionsDir);
      } catch (err) {
        // A session that could not be written leaves no empty folder behind.
        await fs.rm(layout.sessionDir(id)).catch(() => undefined);
        throw asStorageError("create the session folder", err);
      }
      return ctx.holdWritten(record);
    },

    get(owner, sessionId) {
      if (!isUlid(sessionId)) return undefined;
      const session = ctx.sessions.get(sessionId);
      return session && session.owner === owner ? session : undefined;
    },

    async memory(owner, sessionId) {
      ctx.ownedSession(owner, checkId("session", sessionId));
      return ctx.readMemory(sessionId);
    },

    async update(owner, sessionId, expectedVersion, change) {
      ctx.assertWritable();
      ctx.ownedSession(owner, checkId("session", sessionId));
      return ctx.mutateSession(
        sessionId,
        (current) => {
          if (current.status !== "active") throw new SessionClosedError(sessionId, current.status);
          return { ...current, ...change, lastActivityAt: ctx.clock.now() };
        },
        expectedVersion,
      );
    },

    async end(owner, sessionId, reason) {
      ctx.assertWritable();
      ctx.ownedSession(owner, checkId("session", sessionId));
      return ctx.mutateSession(sessionId, (current) => {
        if (current.status !== "active") throw new SessionClosedError(sessionId, current.status);
        const now = ctx.clock.now();
        return { ...current, status: "ended", endedAt: now, ...(reason ? { endReason: reason } : {}) };
      });
    },

    list: (owner, options = {}) => pageOf(ctx, options, (s) => s.owner === owner),
    listAll: (options = {}) => pageOf(ctx, options, () => true),
  };
}

/** Newest first by `createdAt`, ties by id: ids carry the clock at creation, which may have been wrong then. */
const newestFirst = (a: Pick<SessionHead, "id" | "createdAt">, b: Pick<SessionHead, "id" | "createdAt">): number =>
  b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/** A page of the sessions `include` keeps, newest first; the cursor is the id of the previous page's last session. */
function pageOf(ctx: StoreContext, options: ListOptions, include: (s: SessionHead) => boolean): { sessions: SessionHead[]; nextCursor?: string } {
  const limit = Math.min(Math.max(options.limit ?? 20, 1), 100);
  const cursor = options.cursor !== undefined && isUlid(options.cursor) ? options.cursor : undefined;
  // A cursor session swept since the last page still has a place: the time in its id.
  const after = cursor === undefined ? undefined : (ctx.sessions.get(cursor) ?? { id: cursor, createdAt: decodeTime(cursor) });
  const found = [...ctx.sessions.values()]
    .filter((s) => include(s) && (!options.status || s.status === options.status) && (!after || newestFirst(after, s) < 0))
    .sort(newestFirst);
  const page = found.slice(0, limit);
  const last = page.at(-1);
  return found.length > limit && last ? { sessions: page, nextCursor: last.id } : { sessions: page };
}
