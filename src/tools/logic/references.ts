import type { HassServices } from "../../ha/index.js";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const ENTITY_ID = /^[a-z0-9_]+\.[a-z0-9_]+$/;
const SERVICE = /^[a-z0-9_]+\.[a-z0-9_]+$/;
/** A value Home Assistant fills in when the automation runs: it cannot be checked now. */
const isTemplate = (v: string) => /\{\{|\{%/.test(v);

/** An entity id or a service named somewhere in a config, with the path to it (plural keys, as in the config). */
export interface Reference {
  path: string;
  value: string;
}

/**
 * The entity ids and services an automation names, found by walking it:
 * every `entity_id` (text, a list, or comma-separated text, as `cv.entity_ids`
 * takes it) and every action's `action` (or older `service`). Templates are
 * left out: Home Assistant renders them when the automation runs.
 */
export function referencesIn(config: unknown): { entities: Reference[]; services: Reference[] } {
  const entities: Reference[] = [];
  const services: Reference[] = [];
  const walk = (node: unknown, path: string[]) => {
    if (Array.isArray(node)) return node.forEach((v, i) => walk(v, [...path, String(i)]));
    if (!isObj(node)) return;
    for (const [key, value] of Object.entries(node)) {
      const at = [...path, key];
      if (key === "entity_id") {
        const ids = typeof value === "string" ? value.split(",").map((s) => s.trim()) : Array.isArray(value) ? value : [];
        ids.forEach((id, i) => typeof id === "string" && id && !isTemplate(id) && entities.push({ path: [...at, ...(Array.isArray(value) ? [String(i)] : [])].join("/"), value: id.toLowerCase() }));
      } else if ((key === "action" || key === "service") && typeof value === "string" && !isTemplate(value) && path.length > 0 && path[0] !== "triggers") {
        services.push({ path: at.join("/"), value });
      } else walk(value, at);
    }
  };
  walk(config, []);
  // "all" and "none" are targets of their own; a malformed id is validate_config's to report.
  return { entities: entities.filter((e) => ENTITY_ID.test(e.value)), services: services.filter((s) => SERVICE.test(s.value)) };
}

/** Whether Home Assistant has the service `domain.service`. */
export const hasService = (services: HassServices, name: string): boolean => {
  const [domain, service] = name.split(".") as [string, string];
  return Object.hasOwn(services, domain) && Object.hasOwn(services[domain]!, service);
};

/** Levenshtein distance, bounded: names further apart than `max` are not worth suggesting. */
function distance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length]!;
}

/**
 * Of `domain.name` candidates, the one of the same domain closest to a
 * missing `domain.name` ("notify.mobile_app_sams_phone" →
 * "notify.mobile_app_sam_phone"), if one is within a typo or two.
 */
export function closestName(candidates: Iterable<string>, missing: string): string | undefined {
  const [domain, name] = missing.split(".") as [string, string];
  const max = Math.max(2, Math.floor(name.length / 4));
  let best: { name: string; d: number } | undefined;
  for (const candidate of candidates) {
    const [d0, n0] = candidate.split(".") as [string, string];
    if (d0 !== domain) continue;
    const d = distance(name, n0, max);
    if (d <= max && (!best || d < best.d)) best = { name: candidate, d };
  }
  return best?.name;
}

/** The service of the same domain closest to a missing one, if one is close. */
export function closestService(services: HassServices, name: string): string | undefined {
  const domain = name.split(".")[0]!;
  return closestName(Object.keys(services[domain] ?? {}).map((s) => `${domain}.${s}`), name);
}
