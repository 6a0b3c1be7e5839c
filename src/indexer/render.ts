import { own } from "../shared/index.js";
import type { IndexedEntity } from "./model.js";

export interface RenderedContext {
  text: string;
  /** Rough token count (about four characters per token), for prompt budgeting. */
  tokenEstimate: number;
  entityCount: number;
  /** Entities left out because of `maxEntities`. */
  omitted: number;
}

/** The few attributes worth a prompt's space, per domain. */
const KEY_ATTRIBUTES = new Map<string, string[]>(Object.entries({
  light: ["brightness"],
  climate: ["current_temperature", "temperature", "hvac_action"],
  cover: ["current_position"],
  media_player: ["media_title", "volume_level"],
  fan: ["percentage"],
  water_heater: ["temperature"],
  humidifier: ["humidity"],
}));

/** "Shelly" + "Shelly Plug S" → "Shelly Plug S": the model often repeats the maker. */
function makerText(manufacturer: string | null, model: string | null): string {
  if (!manufacturer) return model ?? "";
  if (!model) return manufacturer;
  const brand = manufacturer.split(" ")[0]!.toLowerCase();
  return model.toLowerCase().startsWith(brand) ? model : `${manufacturer} ${model}`;
}

function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

function stateText(e: IndexedEntity): string {
  if (!e.state) return e.disabled ? "disabled" : "no state";
  const unit = typeof e.state.attributes.unit_of_measurement === "string" ? ` ${e.state.attributes.unit_of_measurement}` : "";
  const extras: string[] = [];
  for (const key of KEY_ATTRIBUTES.get(e.domain) ?? []) {
    const v = own(e.state.attributes, key);
    if (v === undefined || v === null) continue;
    // Brightness is 0-255 on the wire; people think in percent.
    extras.push(key === "brightness" && typeof v === "number" ? `brightness ${Math.round((v / 255) * 100)}%` : `${key} ${String(v)}`);
  }
  return `${e.state.state}${unit}${extras.length ? ` (${extras.join(", ")})` : ""}`;
}

function entityLine(e: IndexedEntity): string {
  const flags = [e.hidden ? "hidden" : "", e.entityCategory ?? ""].filter(Boolean);
  return `- ${e.entityId} "${e.name}": ${stateText(e)}${flags.length ? ` [${flags.join(", ")}]` : ""}`;
}

/**
 * A compact text picture of some entities, grouped by floor and area, one
 * line per entity: enough for a model to act on without every attribute.
 */
export function renderEntities(entities: IndexedEntity[], opts: { title?: string; maxEntities?: number } = {}): RenderedContext {
  const max = opts.maxEntities ?? 200;
  const shown = entities.slice(0, max);
  const groups = new Map<string, IndexedEntity[]>();
  for (const e of shown) {
    const heading = e.areaName ? `${e.areaName}${e.floorName ? ` (${e.floorName})` : ""}` : "No area";
    const list = groups.get(heading);
    if (list) list.push(e);
    else groups.set(heading, [e]);
  }
  const lines: string[] = [];
  if (opts.title) lines.push(`# ${opts.title}`);
  const headings = [...groups.keys()].sort((a, b) => (a === "No area" ? 1 : b === "No area" ? -1 : a.localeCompare(b)));
  for (const heading of headings) {
    lines.push(`## ${heading}`);
    const byDevice = groups.get(heading)!.sort((a, b) => (a.deviceName ?? "").localeCompare(b.deviceName ?? "") || a.entityId.localeCompare(b.entityId));
    let lastDevice: string | null = null;
    for (const e of byDevice) {
      if (e.deviceName && e.deviceName !== lastDevice) {
        const maker = makerText(e.manufacturer, e.model);
        lines.push(`device ${e.deviceName}${maker ? ` (${maker})` : ""}:`);
      }
      lastDevice = e.deviceName;
      lines.push(entityLine(e));
    }
  }
  const omitted = entities.length - shown.length;
  if (omitted > 0) lines.push(`… and ${omitted} more entities not shown`);
  if (entities.length === 0) lines.push("(no entities)");
  const text = lines.join("\n");
  return { text, tokenEstimate: estimateTokens(text), entityCount: shown.length, omitted };
}
