import type { DocFields } from "./fields.js";
import { kindTermsOf } from "./kinds.js";
import type { EntityStructure, FloorInfo } from "./model.js";
import type { ResolvedRegistries } from "./resolve.js";
import { words } from "./tokenize.js";

/**
 * Words people use for floors even when nobody set them as aliases:
 * "upstairs" for floors above ground, "downstairs" for the ground floor,
 * "basement" below it. Only added where no floor already claims the word.
 */
export function floorWords(floors: Map<string, FloorInfo>): Map<string, string[]> {
  const claimed = new Set<string>();
  for (const f of floors.values()) for (const text of [f.name, ...f.aliases]) for (const w of words(text)) claimed.add(w);
  const out = new Map<string, string[]>();
  if (floors.size < 2) return out;
  for (const f of floors.values()) {
    if (f.level === null) continue;
    const extra = f.level > 0 ? ["upstairs"] : f.level === 0 ? ["downstairs", "ground"] : ["basement", "cellar"];
    const fresh = extra.filter((w) => !claimed.has(w));
    if (fresh.length) out.set(f.floorId, fresh);
  }
  return out;
}

/**
 * Brand names people say for the manufacturer strings devices report:
 * Aqara sensors report "LUMI", Hue bulbs "Signify Netherlands B.V.".
 * Keyed by the first word of the folded manufacturer.
 */
const BRANDS = new Map<string, string[]>(Object.entries({
  lumi: ["aqara", "xiaomi"],
  xiaomi: ["mi", "mijia"],
  signify: ["philips", "hue"],
  philips: ["hue"],
  ikea: ["tradfri"],
  "tp-link": ["kasa", "tapo"],
  fibargroup: ["fibaro"],
  itead: ["sonoff"],
  google: ["nest"],
  amazon: ["echo", "alexa"],
  belkin: ["wemo"],
  ubiquiti: ["unifi"],
}));

function makerWords(manufacturer: string | null): string[] {
  if (!manufacturer) return [];
  const first = manufacturer.trim().toLowerCase().split(/\s+/)[0] ?? "";
  return BRANDS.get(first) ?? [];
}

/** The searchable text of one entity, field by field. */
export function docFields(s: EntityStructure, reg: ResolvedRegistries, extraFloorWords: Map<string, string[]>): DocFields {
  const area = s.areaId ? reg.areas.get(s.areaId) : undefined;
  const floor = s.floorId ? reg.floors.get(s.floorId) : undefined;
  const device = s.deviceId ? reg.devices.get(s.deviceId) : undefined;
  const title = s.configEntryId ? reg.entryTitles.get(s.configEntryId) : undefined;
  const labelNames: string[] = [];
  for (const id of s.labels) labelNames.push(reg.labels.get(id)?.name ?? id);
  return {
    name: [s.name],
    alias: s.aliases,
    entityId: [s.objectId],
    area: area ? [area.name, ...area.aliases] : [],
    floor: floor ? [floor.name, ...floor.aliases, ...(extraFloorWords.get(floor.floorId) ?? [])] : [],
    device: device ? [device.name] : [],
    maker: device ? [device.manufacturer ?? "", device.model ?? "", ...makerWords(device.manufacturer)] : [],
    label: labelNames,
    domain: [s.domain],
    deviceClass: s.deviceClass ? [s.deviceClass] : [],
    integration: [s.platform ?? "", title ?? ""],
    kind: kindTermsOf(s),
  };
}
