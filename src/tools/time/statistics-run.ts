import type { StatisticMetadata, StatisticValue } from "../../ha/index.js";
import type { HomeIndex } from "../../indexer/index.js";
import { fail, ok, type ToolCallContext, type ToolOutcome } from "../tool.js";
import { largestFitting, more, tokensOf } from "./budget.js";
import { guardedTime, isoIn, nowOf, zoneOf, type TimeToolDeps } from "./common.js";
import { alignRange, periodHeading } from "./periods.js";
import { defaultTypes, rowOut, statisticLine, within } from "./statistics-rows.js";
import type { RowOut, StatisticPeriod, StatisticType, StatisticsArgs, StatisticsOut } from "./statistics-schema.js";
import { resolveRange, type TimeRange } from "./time-input.js";

/** One statistics call: the period, widened as HA widens it, the statistics' metadata and rows, within the budget. */
export function runStatistics(o: { deps: TimeToolDeps; args: StatisticsArgs; ctx: ToolCallContext }): Promise<ToolOutcome<StatisticsOut>> {
  const { deps, args, ctx } = o;
  return guardedTime(deps.index, async () => {
    const [zone, now] = [await zoneOf(deps), nowOf(deps.clock)];
    const resolved = resolveRange({ start: args.start, end: args.end, now, zone });
    if (!resolved.ok) return fail("invalid_argument", resolved.message);
    const period = args.period;
    // HA widens day, week and month queries to whole local periods; the answer names the period it covers.
    const range = period === "hour" || period === "5minute" ? resolved.range : alignRange({ period, range: resolved.range, zone, now });
    const ids = idsOf(deps.index, args);
    if (!ids.ok) return ids;
    const ha = deps.ha.forCaller(ctx.principal);
    const metas = await ha.statisticsMetadata(ids.value);
    const found = ids.value.flatMap((id) => metas.filter((m) => m.statistic_id === id).slice(0, 1));
    const missing = ids.value.filter((id) => !found.some((m) => m.statistic_id === id));
    const types = args.types ?? defaultTypes(found);
    const rows = found.length
      ? await ha.statistics({ startTime: new Date(range.startMs), endTime: new Date(range.endMs), statisticIds: found.map((m) => m.statistic_id), period, types })
      : {};
    const read = found.map((meta) => ({ meta, rows: within(range, Object.hasOwn(rows, meta.statistic_id) ? rows[meta.statistic_id]! : []) }));
    return ok(fit({ read, missing, types, period, range, now, zone, index: deps.index, maxTokens: args.max_tokens }));
  });
}

/** The statistic ids asked for: entity ids must be entities the caller may see; external statistics (domain:name) pass as they are. */
function idsOf(index: HomeIndex, args: { statistic_ids?: string[]; entity_ids?: string[] }): ToolOutcome<string[]> {
  const ids = [...new Set([...(args.statistic_ids ?? []), ...(args.entity_ids ?? [])])];
  if (ids.length === 0) return fail("invalid_argument", 'Give statistic_ids or entity_ids, e.g. {"entity_ids": ["sensor.heat_pump_energy"]}.');
  const unknown = ids.filter((id) => !id.includes(":") && !index.entity(id));
  if (unknown.length) return fail("unknown_entity", `The home has no ${unknown.join(", ")}. Find sensor ids with index_search.`);
  return ok(ids);
}

/** The answer within the budget: the oldest rows go first, then whole statistics from the end. */
function fit(o: {
  read: { meta: StatisticMetadata; rows: StatisticValue[] }[];
  missing: string[];
  types: StatisticType[];
  period: StatisticPeriod;
  range: TimeRange;
  now: number;
  zone: string;
  index: HomeIndex;
  maxTokens: number;
}): StatisticsOut {
  const iso = isoIn(o.zone);
  const at = { now: o.now, zone: o.zone };
  const described = o.read.map(({ meta, rows }) => {
    const id = meta.statistic_id;
    const name = meta.name ?? o.index.entity(id)?.name ?? id;
    const unit = meta.display_unit_of_measurement ?? meta.statistics_unit_of_measurement;
    return { id, name, unit, out: rows.map((r) => rowOut(r, { meta, types: o.types, iso })), line: statisticLine({ id, name, unit, rows, meta, period: o.period, at }) };
  });
  const header = `Statistics per ${o.period === "5minute" ? "5 minutes" : o.period} ${periodHeading(o.range, at)}:`;
  const missingLine = o.missing.length
    ? [`No long-term statistics for ${o.missing.join(", ")}: Home Assistant keeps them only for sensors with a state class (measurement, total or total_increasing).`]
    : [];
  const empty = described.some((d) => d.out.length === 0)
    ? [`A row exists once its period has ended${o.period === "5minute" ? "; 5-minute rows are kept for 10 days" : ""}.`]
    : [];
  const build = (keepRows: number, keepStats: number): StatisticsOut => {
    const kept = described.slice(0, keepStats);
    const cuts: string[] = [];
    const cutRows = kept.filter((d) => d.out.length > keepRows);
    if (cutRows.length) cuts.push(`rows but the last ${keepRows} of ${cutRows.map((d) => `${d.id} (${d.out.length})`).join(", ")}`);
    const dropped = described.slice(keepStats);
    if (dropped.length) cuts.push(`statistics ${dropped.map((d) => d.id).join(", ")}`);
    const lines = [header, ...kept.map((d) => `- ${d.line}`), ...missingLine, ...empty];
    if (cuts.length) lines.push(`Cut to fit ${o.maxTokens} tokens: ${cuts.join("; ")}. ${more("a shorter period, a longer period per row or fewer statistics")}`);
    return {
      narrative: lines.join("\n"),
      period: o.period,
      start: iso(o.range.startMs),
      end: iso(o.range.endMs),
      statistics: kept.map((d): { statistic_id: string; name: string; unit: string | null; rows: RowOut[] } => ({ statistic_id: d.id, name: d.name, unit: d.unit, rows: d.out.slice(Math.max(0, d.out.length - keepRows)) })),
      missing: o.missing,
      truncated: cuts.length > 0,
    };
  };
  const most = Math.max(0, ...described.map((d) => d.out.length));
  const fits = (rows: number, stats: number) => tokensOf(build(rows, stats)) <= o.maxTokens;
  if (fits(most, described.length)) return build(most, described.length);
  const rows = largestFitting(1, most, (n) => fits(n, described.length));
  if (rows !== undefined) return build(rows, described.length);
  const stats = largestFitting(1, described.length, (n) => fits(1, n));
  return build(1, stats ?? 1);
}
