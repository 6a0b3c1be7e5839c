import type { HomeIndex } from "../indexer/index.js";
import type { ArgumentKind } from "./persona.js";

/** At most this many suggestions, as MCP allows. */
const MAX_VALUES = 100;

/**
 * Suggestions for an argument that names something in the home: area names,
 * entity ids or device names. The index's own search ranks them first, as
 * `index_search` would for the typed text; names that merely start with or
 * contain it follow. Free-text arguments get none.
 */
export function completeArgument(args: { kind: ArgumentKind; value: string; index: HomeIndex }): { values: string[]; total: number } {
  if (args.kind === "string" || !args.index.ready) return { values: [], total: 0 };
  const typed = args.value.trim().toLowerCase();
  const entities = args.index.query();
  const nameOf = (e: (typeof entities)[number]): string | null => (args.kind === "entity" ? e.entityId : args.kind === "area" ? e.areaName : e.deviceName);
  const all = [...new Set(entities.map(nameOf).filter((n): n is string => n !== null))];
  if (!typed) return page(all.sort((a, b) => a.localeCompare(b)));
  const ranked: string[] = [];
  for (const hit of args.index.search(args.value, { limit: 50 })) {
    const e = args.index.entity(hit.entityId);
    const name = e ? nameOf(e) : null;
    if (name && !ranked.includes(name)) ranked.push(name);
  }
  const starts = all.filter((n) => n.toLowerCase().startsWith(typed));
  const contains = all.filter((n) => n.toLowerCase().includes(typed));
  // A name the user is typing out wins over a looser search hit.
  const ordered = [...new Set([...starts, ...ranked, ...contains])];
  return page(ordered);
}

function page(values: string[]): { values: string[]; total: number } {
  return { values: values.slice(0, MAX_VALUES), total: values.length };
}
