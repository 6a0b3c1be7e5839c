import type { HomeIndex, IndexedEntity } from "../../indexer/index.js";
import { fail, ok, type ToolOutcome } from "../tool.js";

/** An automation or script, as the home's index knows it. */
export interface AutomationRef {
  domain: "automation" | "script";
  entityId: string;
  /** The config id: an automation's `id` (null when it has none), a script's key. */
  id: string | null;
  alias: string;
  state: string | null;
  mode: string | null;
  lastTriggered: string | null;
}

const DOMAINS = ["automation", "script"] as const;
const simple = (text: string) => text.toLowerCase().normalize("NFKD").replace(/[\u0300-\u036f]/g, "").replace(/[\s_-]+/g, " ").trim();

function refOf(e: IndexedEntity): AutomationRef {
  const attributes = e.state?.attributes ?? {};
  const domain = e.domain === "script" ? "script" : "automation";
  const id = domain === "script" ? e.objectId : typeof attributes.id === "string" && attributes.id ? attributes.id : null;
  const text = (v: unknown) => (typeof v === "string" && v ? v : null);
  return { domain, entityId: e.entityId, id, alias: e.name, state: e.state?.state ?? null, mode: text(attributes.mode), lastTriggered: text(attributes.last_triggered) };
}

/** The entities of a domain; none when the home has no entity of it (the index refuses an unknown domain). */
function ofDomain(index: HomeIndex, domain: string): IndexedEntity[] {
  return index.query({ includeHidden: true }).filter((e) => e.domain === domain);
}

const everyItem = (index: HomeIndex) => DOMAINS.flatMap((domain) => ofDomain(index, domain));

/**
 * Finds the automation or script a person means: an `automation.*` or
 * `script.*` entity id, a config id, or a name (an exact name or alias
 * first, then the index's best match among automations and scripts).
 */
export function resolveAutomation(index: HomeIndex, given: string): ToolOutcome<AutomationRef> {
  const text = given.trim();
  const hint = "Name it by its entity id (automation.…), its config id, or its name; index_search with domain automation lists them.";
  if (/^(automation|script)\.\S+$/.test(text)) {
    const e = index.entity(text.toLowerCase());
    return e ? ok(refOf(e)) : fail("not_found", `The home has no ${text}. ${hint}`);
  }
  const items = everyItem(index);
  const byId = items.find((e) => refOf(e).id === text);
  if (byId) return ok(refOf(byId));
  const wanted = simple(text);
  const named = items.find((e) => simple(e.name) === wanted || e.aliases.some((a) => simple(a) === wanted));
  if (named) return ok(refOf(named));
  const hits = DOMAINS.filter((domain) => items.some((e) => e.domain === domain))
    .flatMap((domain) => index.search(text, { domain, includeHidden: true, limit: 1 }))
    .sort((a, b) => b.score - a.score);
  const best = hits[0] && index.entity(hits[0].entityId);
  return best ? ok(refOf(best)) : fail("not_found", `No automation or script matches "${text}". ${hint}`);
}

/** How the home calls an entity, with its id: "Hallway Ceiling (light.hallway_ceiling)"; the id alone when the home does not know it. */
export function entityName(index: HomeIndex, entityId: string): string {
  const e = index.entity(entityId);
  return e && e.name !== entityId ? `${e.name} (${entityId})` : entityId;
}

/** The automation entity whose config has this id, once Home Assistant has (re)loaded it. */
export function automationWithId(index: HomeIndex, id: string): AutomationRef | undefined {
  const e = ofDomain(index, "automation").find((x) => x.state?.attributes.id === id);
  return e ? refOf(e) : undefined;
}
