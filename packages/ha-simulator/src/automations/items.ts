import { dict } from "../common/index.js";
import { ConfigInvalid, validateAutomation, validateScript } from "./config.js";
import type { AutomationHost } from "./host.js";
import type { AutomationItem, ScriptItem } from "./runner.js";

type Obj = Record<string, unknown>;

/** HA's `slugify`: lower case, accents dropped, anything else an underscore. */
function slug(text: string): string {
  return text.toLowerCase().normalize("NFKD").replace(/[\u0300-\u036f]/g, "").replace(/[^a-z0-9]+/g, "_").replace(/^_+|_+$/g, "");
}

/** The entity id HA gives a new entity: the domain and a slug of its name, with `_2`, `_3`… when taken. */
function freeEntityId(host: AutomationHost, domain: string, name: string, taken: Set<string>): string {
  const base = `${domain}.${slug(name) || domain}`;
  let id = base;
  for (let n = 2; host.getState(id) || taken.has(id); n++) id = `${base}_${n}`;
  return id;
}

/**
 * Sets up the automation entities of automations.yaml (`automation/__init__.py`,
 * `_create_automation_entities`): one per config, named after its alias
 * (`automation <n>` without one), registered under its config id when it has
 * one. An entity that exists already (the registry's, or a state from the
 * house) is taken over with its on/off state and `last_triggered`, as HA
 * restores them. A config that does not validate becomes an unavailable entity.
 */
export function automationItems(host: AutomationHost, configs: Obj[]): { items: AutomationItem[]; invalid: { raw: Obj; entityId: string; error: string }[] } {
  const items: AutomationItem[] = [];
  const invalid: { raw: Obj; entityId: string; error: string }[] = [];
  const taken = new Set<string>();
  configs.forEach((raw, listNo) => {
    const alias = typeof raw.alias === "string" ? raw.alias : undefined;
    const id = typeof raw.id === "string" ? raw.id : undefined;
    const name = alias ?? `automation ${listNo}`;
    const registered = id === undefined ? undefined : host.registeredEntityId("automation", id);
    // An automation without a unique id is unloaded on reload, so its entity id is free for the same name again.
    const unregistered = `automation.${slug(name)}`;
    const reusable = host.getState(unregistered) !== undefined && host.registeredEntityId("automation", String(host.getState(unregistered)?.attributes.id)) === undefined && !taken.has(unregistered);
    const existing = registered ?? (reusable ? unregistered : undefined);
    const entityId = existing ?? freeEntityId(host, "automation", name, taken);
    taken.add(entityId);
    let config;
    try {
      config = validateAutomation(raw);
    } catch (err) {
      if (!(err instanceof ConfigInvalid)) throw err;
      invalid.push({ raw, entityId, error: err.message });
      ensureEntity(host, entityId, id, name, "unavailable", { ...(id ? { id } : {}), friendly_name: name });
      return;
    }
    const prior = host.getState(entityId);
    const state = config.initialState === undefined ? (prior && prior.state !== "unavailable" ? prior.state : "on") : config.initialState ? "on" : "off";
    const attributes: Obj = {
      ...(id !== undefined ? { id } : {}),
      last_triggered: prior?.attributes.last_triggered ?? null,
      mode: config.mode,
      current: 0,
      ...(config.mode === "queued" || config.mode === "parallel" ? { max: 10 } : {}),
      friendly_name: name,
    };
    ensureEntity(host, entityId, id, name, state, attributes);
    items.push({ raw, config, entityId });
  });
  return { items, invalid };
}

function ensureEntity(host: AutomationHost, entityId: string, uniqueId: string | undefined, name: string, state: string, attributes: Obj): void {
  const domain = entityId.slice(0, entityId.indexOf("."));
  if (host.getState(entityId) || host.knows(entityId)) {
    if (uniqueId !== undefined && host.registeredEntityId(domain, uniqueId) === undefined) host.register(entityId, domain, uniqueId, name);
    host.setState(entityId, state, attributes, host.newContext());
    return;
  }
  host.addEntity({
    entity_id: entityId,
    state,
    attributes,
    ...(uniqueId !== undefined ? { registry: { platform: domain, unique_id: uniqueId, original_name: name } } : {}),
  });
}

/**
 * The script entities of scripts.yaml: `script.<key>`, registered under the
 * key. Scripts the house declares on a `script.*` entity (`sequence`) count
 * as scripts.yaml entries too.
 */
export function scriptItems(host: AutomationHost, configs: Record<string, Obj>): Map<string, ScriptItem> {
  const out = new Map<string, ScriptItem>();
  for (const [key, raw] of Object.entries(configs)) {
    let config;
    try {
      config = validateScript(raw);
    } catch (err) {
      if (err instanceof ConfigInvalid) continue;
      throw err;
    }
    const entityId = host.registeredEntityId("script", key) ?? `script.${key}`;
    const name = config.alias ?? key;
    const prior = host.getState(entityId);
    const attributes: Obj = {
      last_triggered: prior?.attributes.last_triggered ?? null,
      mode: config.mode,
      current: 0,
      ...(config.icon ? { icon: config.icon } : {}),
      friendly_name: name,
    };
    ensureEntity(host, entityId, key, name, prior?.state === "on" ? "on" : "off", attributes);
    out.set(entityId, { key, raw, config, entityId });
  }
  return out;
}

/** scripts.yaml as the house gives it: its `scripts`, and each `script.*` entity's `sequence`. */
export function houseScripts(host: AutomationHost): Record<string, Obj> {
  const out = dict<Obj>();
  for (const e of host.house.entities) {
    if (!e.entity_id.startsWith("script.") || !e.sequence) continue;
    const raw: Obj = { alias: String(e.attributes.friendly_name ?? e.entity_id.slice(7)) };
    if (typeof e.attributes.icon === "string") raw.icon = e.attributes.icon;
    raw.sequence = e.sequence.map((s) => ({ action: s.action, ...(s.target ? { target: s.target } : {}), ...(s.data ? { data: s.data } : {}) }));
    raw.mode = String(e.attributes.mode ?? "single");
    out[e.entity_id.slice(7)] = raw;
  }
  return { ...out, ...structuredClone(host.house.scripts) };
}
