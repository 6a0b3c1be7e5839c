import { HaCommandError, type CallerHa, type StatisticMetadata, type StatisticValue } from "../../ha/index.js";
import { fail, ok, type ToolCallContext, type ToolOutcome } from "../tool.js";
import { guardedTime, isoIn, nowOf, zoneOf, type TimeToolDeps } from "./common.js";
import { energyNarrative } from "./energy-narrative.js";
import { anyMeter, electricityIds, energyMeters, type EnergyMeters } from "./energy-prefs.js";
import { ENERGY_NOT_CONFIGURED, type EnergyArgs, type EnergyOut } from "./energy-schema.js";
import { alignRange, periodHeading } from "./periods.js";
import { within } from "./statistics-rows.js";
import { resolveRange, type TimeRange } from "./time-input.js";
import { round3 } from "./words.js";

/** Volume units the Energy dashboard shows gas and water in (the frontend's VOLUME_UNITS). */
const VOLUME_UNITS = new Set(["L", "mL", "gal", "fl. oz.", "m³", "ft³", "CCF", "MCF"]);

/** One energy call: the Energy dashboard's meters, each one's change over the period, summed as the dashboard sums them. */
export function runEnergy(o: { deps: TimeToolDeps; args: EnergyArgs; ctx: ToolCallContext }): Promise<ToolOutcome<EnergyOut>> {
  const { deps, args, ctx } = o;
  return guardedTime(undefined, async () => {
    const [zone, now] = [await zoneOf(deps), nowOf(deps.clock)];
    const resolved = resolveRange({ start: args.start, end: args.end, now, zone });
    if (!resolved.ok) return fail("invalid_argument", resolved.message);
    // Like a period picked on the Energy dashboard: without an end, the one period that holds the start.
    const asked = args.end ? resolved.range : { startMs: resolved.range.startMs, endMs: resolved.range.startMs + 1 };
    const range = args.period ? alignRange({ period: args.period, range: asked, zone, now }) : resolved.range;
    const ha = deps.ha.forCaller(ctx.principal);
    const prefs = await ha.energyPrefs().catch((err: unknown) => {
      if (err instanceof HaCommandError && err.code === "not_found") return undefined;
      throw err;
    });
    const meters = prefs ? energyMeters(prefs) : undefined;
    if (!meters || !anyMeter(meters)) return fail("energy_not_configured", ENERGY_NOT_CONFIGURED);
    const totals = await readTotals({ ha, meters, range, period: args.period ?? "hour" });
    const out = energyOut({ meters, totals, names: (id) => deps.displayName?.(id) ?? deps.index.entity(id)?.name });
    const frame = periodHeading(range, { now, zone });
    const iso = isoIn(zone);
    return ok({ narrative: energyNarrative({ out, frame, missing: totals.missing }), start: iso(range.startMs), end: iso(range.endMs), ...out });
  });
}

interface Totals {
  /** Statistic id → what flowed in the period, in kWh (gas and water in their own units). */
  change: Map<string, number>;
  meta: Map<string, StatisticMetadata>;
  gasUnit: string;
  waterUnit: string;
  /** Meters the preferences name that have no statistics. */
  missing: string[];
}

/**
 * What each meter counted in the period: the `change` of its statistics,
 * electricity in kWh (a Wh meter is converted by HA), gas in kWh or in the
 * volume unit the dashboard shows, water in its volume unit; as the
 * frontend's `getEnergyData` asks for them.
 */
async function readTotals(o: { ha: CallerHa; meters: EnergyMeters; range: TimeRange; period: "hour" | "day" | "week" | "month" }): Promise<Totals> {
  const { ha, meters, range } = o;
  const energyIds = electricityIds(meters);
  const all = [...new Set([...energyIds, ...meters.gas, ...meters.water])];
  const meta = new Map((await ha.statisticsMetadata(all)).map((m) => [m.statistic_id, m]));
  const gasMeta = meters.gas.map((id) => meta.get(id)).filter((m): m is StatisticMetadata => m !== undefined);
  const volumeOr = (metas: StatisticMetadata[], fallback: () => Promise<string>) => {
    const unit = metas[0]?.display_unit_of_measurement ?? metas[0]?.statistics_unit_of_measurement;
    return unit && VOLUME_UNITS.has(unit) && metas.every((m) => (m.display_unit_of_measurement ?? m.statistics_unit_of_measurement) === unit) ? Promise.resolve(unit) : fallback();
  };
  const metric = async () => (await ha.getConfig()).unit_system?.length !== "mi";
  const gasUnit = gasMeta.some((m) => m.unit_class === "energy") ? "kWh" : await volumeOr(gasMeta, async () => ((await metric()) ? "m³" : "ft³"));
  const waterMeta = meters.water.map((id) => meta.get(id)).filter((m): m is StatisticMetadata => m !== undefined);
  const waterUnit = await volumeOr(waterMeta, async () => ((await metric()) ? "L" : "gal"));
  const present = (ids: string[]) => ids.filter((id) => meta.has(id));
  const window = { startTime: new Date(range.startMs), endTime: new Date(range.endMs), period: o.period, types: ["change" as const] };
  const energy = [...present(energyIds), ...present(meters.gas)];
  const [energyRows, waterRows] = await Promise.all([
    energy.length ? ha.statistics({ ...window, statisticIds: energy, units: gasUnit === "kWh" ? { energy: "kWh" } : { energy: "kWh", volume: gasUnit } }) : {},
    present(meters.water).length ? ha.statistics({ ...window, statisticIds: present(meters.water), units: { volume: waterUnit } }) : {},
  ]);
  const change = new Map<string, number>();
  const add = (rows: Record<string, StatisticValue[]>) => {
    for (const [id, list] of Object.entries(rows)) change.set(id, within(range, list).reduce((sum, r) => sum + (typeof r.change === "number" ? r.change : 0), 0));
  };
  add(energyRows);
  add(waterRows);
  return { change, meta, gasUnit, waterUnit, missing: all.filter((id) => !meta.has(id)) };
}

/**
 * The totals in the tool's shape: sums per flow, devices largest first, and
 * what no device accounts for. A device is named as the Energy dashboard
 * names it: the name its preferences give, else its entity's name, else its
 * statistic's, else its statistic id.
 */
function energyOut(o: { meters: EnergyMeters; totals: Totals; names: (id: string) => string | undefined }): Omit<EnergyOut, "narrative" | "start" | "end"> {
  const { meters, totals } = o;
  const sum = (ids: string[]) => round3(ids.reduce((s, id) => s + (totals.change.get(id) ?? 0), 0));
  const grid = { imported: sum(meters.gridImport), exported: sum(meters.gridExport) };
  const solar = meters.solar.length ? { produced: sum(meters.solar) } : undefined;
  const wind = meters.wind.length ? { produced: sum(meters.wind) } : undefined;
  const battery = meters.batteryIn.length || meters.batteryOut.length ? { charged: sum(meters.batteryIn), discharged: sum(meters.batteryOut) } : undefined;
  const consumed = round3(Math.max(0, grid.imported - grid.exported + (solar?.produced ?? 0) + (wind?.produced ?? 0) + (battery ? battery.discharged - battery.charged : 0)));
  const devices = meters.devices
    .map((d) => ({ statistic_id: d.statisticId, name: d.name ?? o.names(d.statisticId) ?? totals.meta.get(d.statisticId)?.name ?? d.statisticId, consumed: sum([d.statisticId]), top: d.includedIn === null }))
    .sort((a, b) => b.consumed - a.consumed);
  // A device included in another's total is counted once, in the other.
  const tracked = devices.filter((d) => d.top).reduce((s, d) => s + d.consumed, 0);
  return {
    unit: "kWh",
    consumed,
    grid,
    ...(solar ? { solar } : {}),
    ...(wind ? { wind } : {}),
    ...(battery ? { battery } : {}),
    ...(meters.gas.length ? { gas: { consumed: sum(meters.gas), unit: totals.gasUnit } } : {}),
    ...(meters.water.length ? { water: { consumed: sum(meters.water), unit: totals.waterUnit } } : {}),
    devices: devices.map(({ top: _top, ...d }) => d),
    ...(devices.length ? { untracked: round3(Math.max(0, consumed - tracked)) } : {}),
  };
}
