import type { RecordedHome } from "../history/index.js";
import { allStatSources, metadataRow, statSource, type StatSource } from "./sources.js";

/**
 * `recorder/list_statistic_ids` and `recorder/get_statistics_metadata`
 * (`recorder/statistics.py`, `list_statistic_ids`): the metadata of every
 * statistic, or of the named ones that exist, optionally only those with a
 * mean or a sum. `display_unit_of_measurement` is the sensor's current unit.
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
    const unit = home.getState(s.meta.statistic_id)?.attributes.unit_of_measurement;
    out.push(metadataRow(s.meta, typeof unit === "string" ? unit : s.meta.unit));
  }
  return out;
}
