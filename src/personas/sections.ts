import type { IndexedEntity } from "../indexer/index.js";
import type { Diagnosis } from "./grounding.js";
import type { PrimingSection } from "./priming.js";
import { stateLine, when } from "./targets.js";

/** States that mean something is running or open right now. */
const ACTIVE = new Set(["on", "open", "opening", "playing", "heating", "cooling", "cleaning", "unlocked", "home"]);

/** In place of log lines, for a person Home Assistant does not show its logs to. */
export const LOGS_FOR_ADMINS = "Left out: Home Assistant shows its system log and error log to administrators only.";
export const NO_ENERGY = "No energy or power sensor is exposed to Assist; the user can expose them in Home Assistant's voice assistant settings.";

/** One line per floor and area: what is in it, by domain. */
export function areaOverview(entities: IndexedEntity[]): string[] {
  const groups = new Map<string, IndexedEntity[]>();
  for (const e of entities) {
    const key = `${e.floorName ?? "No floor"} / ${e.areaName ?? "No area"}`;
    groups.set(key, [...(groups.get(key) ?? []), e]);
  }
  return [...groups].sort(([a], [b]) => a.localeCompare(b)).map(([key, list]) => `- ${key}: ${summary(list)}`);
}

/** What is on, open or running now. */
export const activeNow = (entities: IndexedEntity[]): IndexedEntity[] => entities.filter((e) => e.state && ACTIVE.has(e.state.state));

/** The energy and power sensors among `entities`, largest reading first. */
export function energySections(entities: IndexedEntity[], now: number, zone: string): PrimingSection[] {
  const reading = (e: IndexedEntity) => Number(e.state?.state ?? Number.NaN) || 0;
  const ranked = (cls: string) => entities.filter((e) => e.domain === "sensor" && e.deviceClass === cls).sort((a, b) => reading(b) - reading(a));
  return [
    { title: "Energy sensors (totals), largest first", lines: ranked("energy").map((e) => stateLine(e, now, zone)), more: 'state_query with device_class "energy"' },
    { title: "Power sensors (now), largest first", lines: ranked("power").map((e) => stateLine(e, now, zone)), more: 'state_query with device_class "power"' },
  ];
}

/** "3 light, 2 sensor" for a group of entities, most common domain first. */
function summary(list: IndexedEntity[]): string {
  const counts = new Map<string, number>();
  for (const e of list) counts.set(e.domain, (counts.get(e.domain) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1]).map(([domain, n]) => `${n} ${domain}`).join(", ");
}

/** What diagnose_entity found, newest first where time matters. */
export function diagnosisSections(d: Diagnosis, now: number, zone: string): PrimingSection[] {
  const more = `diagnose_entity with entity_id ${d.entity_id}`;
  const since = d.last_changed ? ` since ${when(Date.parse(d.last_changed), now, zone)}` : "";
  const device = d.device ? `device ${d.device.name}${d.device.model ? ` (${[d.device.manufacturer, d.device.model].filter(Boolean).join(" ")})` : ""}` : "no device";
  const integration = d.integration ? `integration ${d.integration.title ?? d.integration.platform}` : "no integration";
  const h = d.history;
  return [
    {
      title: `${d.entity_id} now`,
      lines: [
        `- state: ${d.state ?? "no state"}${since}`,
        `- ${d.name}, ${d.area ? `area ${d.area}, ` : ""}${device}, ${integration}`,
        `- last ${h.window_hours} h: ${h.state_changes} changes, unavailable ${h.unavailable_count} times, ${h.toggles} toggles`,
        ...d.findings.map((f) => `- finding: ${f}`),
      ],
      more,
    },
    { title: `${d.entity_id}: recent changes, last 24 h, newest first`, lines: [...d.recent_changes].reverse().map((c) => `- ${when(Date.parse(c.at), now, zone)}: ${c.state}`), more },
    { title: `${d.entity_id}: related entities`, lines: d.related.map((r) => `- ${r.entity_id} (${r.name}): ${r.state ?? "no state"}`), more },
    { title: `${d.entity_id}: logbook, newest first`, lines: [...d.logbook].reverse().map((l) => `- ${when(Date.parse(l.when), now, zone)}: ${l.message}`), more },
    { title: `${d.entity_id}: system log`, lines: d.log_entries.map((l) => `- ${l.level} ${l.integration} ×${l.count}, last ${when(Date.parse(l.last_seen), now, zone)}: ${l.message}`), more: `analyze_errors` },
    { title: `${d.entity_id}: could not read`, lines: d.notes.map((n) => `- ${n}`), more },
  ];
}
