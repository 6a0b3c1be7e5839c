import type { CallerHa, HistoryResult, StatisticValue } from "../../ha/index.js";
import type { HomeIndex } from "../../indexer/index.js";
import { localStamp } from "../../shared/index.js";
import { fail, ok, type ToolCallContext, type ToolOutcome } from "../tool.js";
import { RECORDER_KEEP_DAYS, guardedTime, isoIn, nowOf, zoneOf, type TimeToolDeps } from "./common.js";
import { fitHistory } from "./history-fit.js";
import type { HistoryArgs, HistoryOut } from "./history-schema.js";
import { summarizeHistory, summarizeStatistics, type EntityHistory } from "./history-summary.js";
import { periodHeading } from "./periods.js";
import { MAX_ENTITIES, selectEntities } from "./selection.js";
import { resolveRange, type TimeRange } from "./time-input.js";

const DAY = 86_400_000;

/** One history call: the period, the entities, what HA recorded of them, summarised within the budget. */
export function runHistory(o: { deps: TimeToolDeps; args: HistoryArgs; ctx: ToolCallContext }): Promise<ToolOutcome<HistoryOut>> {
  const { deps, args, ctx } = o;
  return guardedTime(deps.index, async () => {
    const [zone, now] = [await zoneOf(deps), nowOf(deps.clock)];
    const resolved = resolveRange({ start: args.start, end: args.end, now, zone });
    if (!resolved.ok) return fail("invalid_argument", resolved.message);
    const range = resolved.range;
    const selected = selectEntities(deps.index, args);
    if (!selected.ok) return selected;
    const ids = selected.value.slice(0, MAX_ENTITIES);
    const ha = deps.ha.forCaller(ctx.principal);
    const horizon = now - (deps.recorderKeepDays ?? RECORDER_KEEP_DAYS) * DAY;
    const entities = await readPeriod({ ha, index: deps.index, ids, range, zone, toNow: range.endMs === now, longTerm: range.startMs < horizon });
    const notes: string[] = [];
    if (selected.value.length > ids.length) notes.push(`The target reaches ${selected.value.length} entities; the first ${MAX_ENTITIES} are shown. Narrow the target for the rest.`);
    if (range.startMs < horizon) notes.push(keepNote({ entities, horizon, now, zone }));
    if (entities.some((e) => e.held.length === 0 && !e.numeric)) notes.push("Nothing recorded means the entity did not exist then, or the recorder leaves it out.");
    const iso = isoIn(zone);
    const header = `History ${periodHeading(range, { now, zone })}:`;
    return ok(fitHistory({ entities, maxTokens: args.max_tokens, header, notes, at: { now, zone, toNow: range.endMs === now }, frame: { start: iso(range.startMs), end: iso(range.endMs) }, iso }));
  });
}

/** Reads each entity's period: state history, or long-term statistics where history is gone and statistics exist. */
async function readPeriod(o: { ha: CallerHa; index: HomeIndex; ids: string[]; range: TimeRange; zone: string; toNow: boolean; longTerm: boolean }): Promise<EntityHistory[]> {
  const { ha, range } = o;
  const window = { startTime: new Date(range.startMs), endTime: new Date(range.endMs) };
  const withStats = o.longTerm ? new Set((await ha.statisticsMetadata(o.ids)).map((m) => m.statistic_id)) : new Set<string>();
  const fromHistory = o.ids.filter((id) => !withStats.has(id));
  const [history, stats] = await Promise.all([
    fromHistory.length ? ha.history({ ...window, entityIds: fromHistory, minimalResponse: true, noAttributes: true }) : ({} as HistoryResult),
    withStats.size ? ha.statistics({ ...window, statisticIds: [...withStats], period: "hour", types: ["mean", "min", "max", "state", "change"] }) : ({} as Record<string, StatisticValue[]>),
  ]);
  return o.ids.map((entityId) => {
    const e = o.index.entity(entityId);
    const base = { entityId, name: e?.name ?? entityId, unit: e?.unit ?? null, range: o.range, zone: o.zone };
    if (withStats.has(entityId)) return summarizeStatistics({ ...base, rows: Object.hasOwn(stats, entityId) ? stats[entityId]! : [] });
    return summarizeHistory({ ...base, rows: Object.hasOwn(history, entityId) ? history[entityId]! : [], toNow: o.toNow });
  });
}

/** What the answer says when the period reaches back past the state history HA keeps. */
function keepNote(o: { entities: EntityHistory[]; horizon: number; now: number; zone: string }): string {
  const fromStats = o.entities.filter((e) => e.source === "statistics").map((e) => e.entityId);
  const others = o.entities.length - fromStats.length;
  const parts = [`Home Assistant keeps state history for ${Math.round((o.now - o.horizon) / DAY)} days by default (the recorder's purge_keep_days), so this period reaches past it.`];
  if (fromStats.length) parts.push(`${fromStats.join(", ")} ${fromStats.length === 1 ? "comes" : "come"} from long-term statistics (hourly means, kept for good).`);
  if (others) parts.push(`For the rest, changes before ${localStamp(o.horizon, o.zone)} may be missing: only sensors with a state class have long-term statistics.`);
  return parts.join(" ");
}
