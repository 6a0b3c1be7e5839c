import type { LogbookEntry } from "../../ha/index.js";
import type { HomeIndex } from "../../indexer/index.js";

/**
 * One logbook entry in words: "Garden Fountain Pump changed to unavailable",
 * plus what caused it when HA says ("by switch.turn_on"). HA sends no name
 * for a state change, so the name comes from the index (the entity id when
 * the index does not know it); entries integrations describe keep their own
 * name and message.
 */
export function logbookLine(entry: LogbookEntry, index: HomeIndex): string {
  const id = entry.entity_id;
  const name = entry.name ?? (id ? (index.entity(id)?.name ?? id) : undefined);
  const what = entry.message ?? (entry.state !== undefined ? `changed to ${entry.state}` : "");
  const cause = entry.context_domain && entry.context_service ? ` (by ${entry.context_domain}.${entry.context_service})` : "";
  return `${[name, what].filter(Boolean).join(" ")}${cause}`;
}
