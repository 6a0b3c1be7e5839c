import { HaAgentError } from "../shared/index.js";
import type { EntityStructure, LiveState } from "./model.js";
import { isSecondary, type ResolvedRegistries } from "./resolve.js";
import { fold, stem } from "./tokenize.js";

/** Narrows search and queries. Areas, floors, labels and devices may be given by id, name or alias. */
export interface EntityFilter {
  entityIds?: string[];
  domain?: string;
  area?: string;
  floor?: string;
  label?: string;
  device?: string;
  deviceClass?: string;
  state?: string;
  /** Also return disabled, hidden, diagnostic and config entities. */
  includeHidden?: boolean;
}

/** A filter value that names nothing in the home. `code` says which filter. */
export class IndexFilterError extends HaAgentError {}

const norm = (s: string) => fold(s).trim().replace(/[\s_-]+/g, " ");

function listSome(values: string[]): string {
  const shown = values.slice(0, 12).join(", ");
  return values.length > 12 ? `${shown}, …` : shown;
}

function pick<T>(args: {
  kind: string;
  value: string;
  items: Iterable<T>;
  id: (t: T) => string;
  names: (t: T) => string[];
}): string {
  const wanted = norm(args.value);
  const items = [...args.items];
  for (const item of items) if (args.id(item) === args.value) return args.id(item);
  for (const item of items) if (args.names(item).some((n) => norm(n) === wanted)) return args.id(item);
  throw new IndexFilterError(
    `unknown_${args.kind}`,
    `${args.kind}: no ${args.kind} is called "${args.value}". Use an id or a name from: ${listSome(items.map((i) => args.id(i)))}.`,
  );
}

/** Ids of the areas, floor, label and device a filter names; throws IndexFilterError for unknown ones. */
export function compileFilter(args: {
  filter: EntityFilter;
  reg: ResolvedRegistries;
  floorWords: Map<string, string[]>;
  domains: () => Iterable<string>;
}): CompiledFilter {
  const { filter, reg } = args;
  const areaId = filter.area
    ? pick({ kind: "area", value: filter.area, items: reg.areas.values(), id: (a) => a.areaId, names: (a) => [a.name, ...a.aliases] })
    : undefined;
  const floorId = filter.floor
    ? pick({
        kind: "floor",
        value: filter.floor,
        items: reg.floors.values(),
        id: (f) => f.floorId,
        names: (f) => [f.name, ...f.aliases, ...(args.floorWords.get(f.floorId) ?? [])],
      })
    : undefined;
  const labelId = filter.label
    ? pick({ kind: "label", value: filter.label, items: reg.labels.values(), id: (l) => l.labelId, names: (l) => [l.name] })
    : undefined;
  const deviceId = filter.device
    ? pick({ kind: "device", value: filter.device, items: reg.devices.values(), id: (d) => d.deviceId, names: (d) => [d.name] })
    : undefined;
  let domain: string | undefined;
  if (filter.domain) {
    const known = new Set(args.domains());
    const raw = filter.domain.trim().toLowerCase();
    domain = known.has(raw) ? raw : known.has(stem(raw)) ? stem(raw) : undefined;
    if (!domain) {
      throw new IndexFilterError("unknown_domain", `domain: no entity has the domain "${filter.domain}". Domains in this home: ${listSome([...known].sort())}.`);
    }
  }
  const ids = filter.entityIds ? new Set(filter.entityIds) : undefined;
  const deviceClass = filter.deviceClass?.trim().toLowerCase();
  const state = filter.state?.trim().toLowerCase();
  const includeHidden = filter.includeHidden === true;
  const accept = (s: EntityStructure, live: LiveState | undefined): boolean => {
    if (ids && !ids.has(s.entityId)) return false;
    // Entities asked for by id are returned even when hidden: the caller named them.
    if (!ids && !includeHidden && isSecondary(s)) return false;
    if (domain && s.domain !== domain) return false;
    if (areaId && s.areaId !== areaId) return false;
    if (floorId && s.floorId !== floorId) return false;
    if (labelId && !s.labels.includes(labelId)) return false;
    if (deviceId && s.deviceId !== deviceId) return false;
    if (deviceClass && s.deviceClass !== deviceClass) return false;
    if (state && (live?.state ?? "").toLowerCase() !== state) return false;
    return true;
  };
  return Object.assign(accept, { areaId });
}

/** A filter as a predicate, plus the area it narrows to, so a caller can start from that area's entities. */
export type CompiledFilter = ((s: EntityStructure, live: LiveState | undefined) => boolean) & { areaId: string | undefined };

/** A filter that narrows nothing beyond leaving out hidden and secondary entities. */
export function isDefaultFilter(f: Omit<EntityFilter, "entityIds">): boolean {
  return !f.domain && !f.area && !f.floor && !f.label && !f.device && !f.deviceClass && !f.state && !f.includeHidden;
}
