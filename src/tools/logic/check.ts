import type { CallerHa, HassServices } from "../../ha/index.js";
import type { HomeIndex } from "../../indexer/index.js";
import { unifiedDiff } from "./diff.js";
import { configYaml, normalizeConfig, ordered, readConfig } from "./normalize.js";
import { closestName, closestService, hasService, referencesIn } from "./references.js";
import { savedConfig } from "./traces.js";

type Obj = Record<string, unknown>;
export interface Problem {
  path: string;
  message: string;
}

export interface CheckResult {
  valid: boolean;
  problems: Problem[];
  /** The config as it would be saved: plural keys, HA's key order, and the id when there is one. */
  normalized: Obj;
  notes: string[];
  /** The id the config is checked against: the one given, else the config's own. */
  id: string | undefined;
  /** The automation saved under `id`, or null when there is none. */
  saved: Obj | null;
  /** A unified diff of the saved automation against this one; undefined when none is saved under `id`. */
  changes: string | undefined;
}

/** `validate_config`'s answer for one section. */
type Verdict = { valid: boolean; error: string | null };

/** The sections `validate_config` checks, by the plural keys it takes (`websocket_api/commands.py`). */
const SECTIONS = ["triggers", "conditions", "actions"] as const;

/** HA's "… @ data[0]['entity_id']" as a path inside the section: "triggers/0/entity_id". */
function pathOf(section: string, error: string): string {
  const at = /@ data((?:\[[^\]]+\])*)/.exec(error)?.[1];
  if (!at) return section;
  return [section, ...[...at.matchAll(/\[([^\]]+)\]/g)].map((m) => m[1]!.replace(/^'|'$/g, ""))].join("/");
}

/**
 * Checks a draft automation as Home Assistant would take it: its keys
 * normalised as HA's own migration does, its triggers, conditions and
 * actions by HA's `validate_config`, every entity id against the home's
 * index and every action against HA's services, and, given an id, the
 * changes against the automation saved under it.
 */
export async function checkAutomation(args: { ha: CallerHa; index: HomeIndex; given: Obj | string; id?: string }): Promise<CheckResult> {
  const read = readConfig(args.given);
  if (!read.ok) return { valid: false, problems: [{ path: "", message: read.message }], normalized: {}, notes: [], id: args.id, saved: null, changes: undefined };
  const { normalized: draft, notes, problems } = normalizeConfig(read.config);
  const id = args.id ?? (typeof draft.id === "string" && draft.id ? draft.id : undefined);
  if (args.id !== undefined && typeof draft.id === "string" && draft.id !== args.id) notes.push(`The config said id ${draft.id}; it is checked and would be saved as ${args.id}.`);
  const normalized = ordered(id === undefined ? draft : { ...draft, id });

  for (const key of ["triggers", "actions"]) if (!Object.hasOwn(normalized, key)) problems.push({ path: key, message: `required key not provided: an automation needs ${key}.` });
  const sections = Object.fromEntries(SECTIONS.filter((k) => Object.hasOwn(normalized, k)).map((k) => [k, normalized[k]]));
  const [answer, services, saved] = await Promise.all([
    Object.keys(sections).length ? args.ha.sendCommand<Record<string, Verdict>>({ type: "validate_config", ...sections }) : Promise.resolve<Record<string, Verdict>>({}),
    args.ha.getServices(),
    id === undefined ? Promise.resolve(null) : savedConfig(args.ha, "automation", id),
  ]);
  for (const [section, verdict] of Object.entries(answer)) if (!verdict.valid) problems.push({ path: pathOf(section, verdict.error ?? ""), message: verdict.error ?? "invalid" });
  problems.push(...unknownReferences(args.index, services, normalized));

  const changes = saved === null ? undefined : unifiedDiff({ before: configYaml(saved), after: configYaml(normalized), beforeName: `saved ${id}`, afterName: "draft" });
  if (id !== undefined && saved === null) notes.push(`No automation is saved with id ${id}: saving creates it.`);
  return { valid: problems.length === 0, problems, normalized, notes, id, saved, changes };
}

/** Entities the home does not have and actions Home Assistant does not offer, each with the closest it has when one is close. */
function unknownReferences(index: HomeIndex, services: HassServices, config: Obj): Problem[] {
  const { entities, services: actions } = referencesIn(config);
  const problems: Problem[] = [];
  for (const ref of entities) {
    if (index.entity(ref.value)) continue;
    const near = nearestEntity(index, ref.value);
    problems.push({ path: ref.path, message: `${ref.value} is not an entity of this home${near ? `; did you mean ${near.entityId} (${near.name})?` : ""}` });
  }
  for (const ref of actions) {
    if (hasService(services, ref.value)) continue;
    const near = closestService(services, ref.value);
    problems.push({ path: ref.path, message: `Home Assistant has no action ${ref.value}${near ? `; did you mean ${near}?` : ""}` });
  }
  return problems;
}

/** The home's entity of the same domain whose id is closest to a missing one, if one is within a typo or two. */
function nearestEntity(index: HomeIndex, entityId: string): { entityId: string; name: string } | undefined {
  const domain = entityId.split(".")[0]!;
  const ids = [...index.states().keys()].filter((id) => id.startsWith(`${domain}.`));
  const near = closestName(ids, entityId);
  const e = near ? index.entity(near) : undefined;
  return e ? { entityId: e.entityId, name: e.name } : undefined;
}

/** Problems in one sentence: "triggers: Invalid trigger 'x' specified; actions/0: …". */
export function problemList(problems: readonly { path: string; message: string }[]): string {
  const text = problems.map((p) => `${p.path || "config"}: ${p.message.replace(/\.$/, "")}`).join("; ");
  return /[.?!]$/.test(text) ? text : `${text}.`;
}
