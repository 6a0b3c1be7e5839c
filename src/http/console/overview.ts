import type { JournalRecord } from "../../agent/index.js";
import type { HealthReport } from "../health.js";
import { cleanName, shownData } from "../../shared/index.js";
import { approvalQuestion } from "../../tools/index.js";
import { approvalShown, type ContinuationRecord, type PendingApproval, type SessionHead, type Store } from "../../store/index.js";
import { describePolicy, type ActuationOptions } from "./policy.js";
import { findProblems } from "./problems.js";
import { connectSnippets } from "./snippets.js";
import { journalUsage } from "./timeline.js";
import type { TurnRecords } from "./turn-records.js";
import type { UserDirectory } from "./viewer.js";
import type { ApprovalView, ConnectView, HealthView, Overview, SessionView, Viewer } from "./wire.js";

const HOUR_MS = 3_600_000;
/** Turns listed per session; older ones stay in the store. */
const TURNS_SHOWN = 20;

export interface OverviewSources {
  version: string;
  mode: string;
  health(): HealthReport;
  store: Pick<Store, "sessions" | "continuations" | "recovery" | "usage">;
  turns: TurnRecords;
  users: UserDirectory;
  actuation: ActuationOptions;
  /** The entity's state now, for an approval's targets. */
  entityState(entityId: string): string | null;
  diskSpace(): Promise<{ freeBytes: number; totalBytes: number } | undefined>;
  connect: { mcpUrl: string; demoToken: string | undefined };
  now(): number;
  /** An open turn's journal, for what it has spent before it ends. */
  journal?(owner: string, continuationId: string): Promise<JournalRecord[]>;
  /** Home Assistant's time zone, in which the page writes times. */
  timeZone?(): Promise<string>;
  /** Home Assistant's locale ("en-NL"), in which the page writes dates and numbers. */
  locale?(): Promise<string>;
}

/** What an open turn is doing and has spent, read live: the session's own list is written only when a turn ends. */
interface LiveTurn {
  status: string;
  tokens: number;
}

/** Characters of the first message that name a session. */
const TITLE_CHARS = 60;

/** The first message, cut at a word near 60 characters: a session's name as a person recognises it. */
export function sessionTitle(s: Pick<SessionHead, "messages">): string {
  const first = [...s.messages].sort((a, b) => a.createdAt - b.createdAt)[0];
  const text = first?.preview.replace(/\s+/g, " ").trim();
  if (!text) return "No message yet";
  // The stored preview is the message's first 80 characters: one that long was cut already.
  if (text.length <= TITLE_CHARS && first!.preview.length < 80) return text;
  const cut = text.slice(0, TITLE_CHARS);
  const space = cut.lastIndexOf(" ");
  return `${(space > TITLE_CHARS / 2 ? cut.slice(0, space) : cut).replace(/[\s,.;:]+$/, "")}…`;
}

type Details = { details?: Record<string, unknown> };
const num = (v: unknown) => (typeof v === "number" ? v : 0);

async function healthView(src: OverviewSources, report: HealthReport): Promise<HealthView> {
  const c = report.components as Record<string, Details | undefined>;
  const ha = c.home_assistant?.details ?? {};
  const index = c.index?.details ?? {};
  const model = c.model?.details ?? {};
  const disk = await src.diskSpace();
  // The model's last error and rate limits, read from the turns it ended.
  const recent = (await src.turns.recent()).filter((r) => r.error && r.error.code !== "cancelled");
  const last = recent.sort((a, b) => b.updatedAt - a.updatedAt)[0];
  const now = src.now();
  const recovery = src.store.recovery;
  return {
    status: report.status,
    uptimeSeconds: report.uptimeSeconds,
    ha: { status: String(ha.status ?? "unknown"), version: typeof ha.version === "string" ? ha.version : null },
    index: { ready: (c.index as { ok?: boolean } | undefined)?.ok === true, entities: num(index.entities), devices: num(index.devices), areas: num(index.areas), lastSyncAt: typeof index.lastSyncAt === "number" ? index.lastSyncAt : null, eventsPerSecond: num(index.eventsPerSecond) },
    store: {
      writable: (c.store as { ok?: boolean } | undefined)?.ok !== false,
      freeBytes: disk?.freeBytes ?? null,
      totalBytes: disk?.totalBytes ?? null,
      quarantined: recovery.quarantined.length,
      lastRecovery: { durationMs: recovery.durationMs, interrupted: recovery.interrupted.length, problems: recovery.problems.slice(0, 5) },
    },
    model: {
      status: String(model.status ?? "not configured"),
      provider: String(model.provider ?? "none"),
      model: String(model.model ?? ""),
      lastError: last?.error ? { code: last.error.code, message: last.error.message, at: last.updatedAt } : null,
      rateLimitedLastHour: recent.filter((r) => r.updatedAt > now - HOUR_MS && /rate.?limit/i.test(`${r.error!.code} ${r.error!.message}`)).length,
    },
  };
}

/** The sessions a viewer may see: their own, or everyone's for an admin; none for nobody. */
export function visibleSessions(src: Pick<OverviewSources, "store" | "turns">, viewer: Viewer | undefined): SessionHead[] {
  if (!viewer) return [];
  return viewer.isAdmin ? src.turns.allSessions() : src.store.sessions.list(viewer.id, { limit: 100 }).sessions;
}

async function sessionView(src: OverviewSources, s: SessionHead, viewer: Viewer, live: ReadonlyMap<string, LiveTurn>): Promise<SessionView> {
  const owner = s.owner === viewer.id ? viewer.name : ((await src.users.lookup(s.owner))?.name ?? s.owner);
  const turns = [...s.messages]
    .sort((a, b) => b.createdAt - a.createdAt)
    .slice(0, TURNS_SHOWN)
    .map((t) => ({ ...t, status: live.get(t.continuationId)?.status ?? t.status }));
  // Session totals count finished turns; an open one adds what it has spent so far.
  const spent = s.openContinuations.reduce((n, id) => n + (live.get(id)?.tokens ?? 0), 0);
  return {
    id: s.id,
    owner: s.owner,
    ownerName: owner,
    status: s.status,
    title: sessionTitle(s),
    persona: s.persona?.name ?? null,
    latestStatus: turns[0]?.status ?? null,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    turns,
    tokens: s.stats.tokensIn + s.stats.tokensOut + s.stats.tokensThinking + spent,
    canAct: s.owner === viewer.id,
  };
}

const WHY: Record<PendingApproval["why"], string> = {
  approval_required: "This service always asks first (approval_required).",
  not_preapproved: "The session asks before every action.",
  automation_edit: "Saving an automation always asks first.",
};

function approvalView(src: OverviewSources, record: ContinuationRecord, viewer: Viewer): ApprovalView | undefined {
  const a = record.approval;
  if (record.status !== "input_required" || !a) return undefined;
  const then = new Map(a.targetStates.map((t) => [t.entityId, t]));
  const shown = approvalShown(a.call);
  return {
    continuationId: record.id,
    approvalId: a.id,
    service: shown.service,
    // Names and states come from whoever set them: sent cleaned (see shared/display-name.ts), as the question is.
    question: approvalQuestion(a),
    targets: shown.targets.map((entityId) => {
      const asked = then.get(entityId);
      const now = src.entityState(entityId);
      return { entityId, ...(asked?.name ? { name: cleanName(asked.name) } : {}), stateThen: asked?.state == null ? null : cleanName(asked.state), stateNow: now === null ? null : cleanName(now) };
    }),
    data: shownData(shown.data),
    why: WHY[a.why],
    expiresAt: a.expiresAt,
    canAnswer: record.owner === viewer.id,
    alsoWaitsIn: "Also asked in the MCP client that sent the message; the first answer counts.",
  };
}

/** Everything the page's first screen shows, for one viewer. */
export async function buildOverview(src: OverviewSources, viewer: Viewer | undefined): Promise<Overview> {
  const health = await healthView(src, src.health());
  const sessions = visibleSessions(src, viewer);
  const approvals: ApprovalView[] = [];
  const live = new Map<string, LiveTurn>();
  if (viewer) {
    for (const s of sessions) {
      for (const id of s.openContinuations) {
        const record = await src.store.continuations.get(s.owner, id);
        if (!record) continue;
        const usage = journalUsage((await src.journal?.(s.owner, id).catch(() => [])) ?? []);
        live.set(id, { status: record.status, tokens: usage.tokensIn + usage.tokensOut + usage.tokensThinking });
        const view = approvalView(src, record, viewer);
        if (view) approvals.push(view);
      }
    }
  }
  const connect: ConnectView = {
    mcpUrl: src.connect.mcpUrl,
    tokenHint: src.connect.demoToken ? "the demo token below" : "a long-lived access token from your Home Assistant profile (Security tab)",
    ...(src.connect.demoToken ? { demoToken: src.connect.demoToken } : {}),
    snippets: connectSnippets({ mcpUrl: src.connect.mcpUrl, token: src.connect.demoToken ?? "<token>" }),
  };
  return {
    version: src.version,
    mode: src.mode,
    timeZone: (await src.timeZone?.()) ?? "UTC",
    locale: (await src.locale?.()) ?? "en",
    viewer: viewer ?? null,
    health,
    problems: findProblems(health, src.mode),
    policy: describePolicy(src.actuation),
    connect,
    sessions: viewer ? await Promise.all(sessions.map((s) => sessionView(src, s, viewer, live))) : [],
    approvals,
  };
}
