import type { RecordedHome } from "../history/index.js";
import { unitClass, unitsOfClass } from "../units.js";
import { allStatSources, metadataRow, statSource, type StatSource } from "./sources.js";

/**
 * `recorder/list_statistic_ids` and `recorder/get_statistics_metadata`
 * (`recorder/statistics.py`, `list_statistic_ids`): the metadata of every
 * statistic, or of the named ones that exist, optionally only those with a
 * mean or a sum.
 */
export function statisticsMetadata(home: RecordedHome, q: { statisticIds?: string[]; statisticType?: "mean" | "sum" }): Record<string, unknown>[] {
  let sources: Iterable<StatSource>;
  if (q.statisticIds && q.statisticIds.length > 0) {
    sources = [...new Set(q.statisticIds)].map((id) => statSource(home, id)).filter((s): s is StatSource => s !== undefined);
  } else sources = allStatSources(home).values();
  const out: Record<string, unknown>[] = [];
  for (const s of sources) {
    if (q.statisticType === "mean" && s.meta.mean_type === 0) continue;
    if (q.statisticType === "sum" && !s.meta.has_sum) continue;
    out.push(metadataRow(s.meta, displayUnit(home, s.meta.statistic_id, s.meta.unit)));
  }
  return out;
}

/**
 * `get_display_unit`: the sensor's current unit when the statistic's unit has
 * a class and the current unit is one of that class's units, else the
 * statistic's own unit.
 */
function displayUnit(home: RecordedHome, id: string, statUnit: string | null): string | null {
  const cls = unitClass(statUnit);
  if (cls === undefined) return statUnit;
  const state = home.getState(id);
  const raw = state ? state.attributes.unit_of_measurement : statUnit;
  const current = typeof raw === "string" ? raw : null;
  return current !== statUnit && unitsOfClass(cls)?.includes(current) ? current : statUnit;
}
