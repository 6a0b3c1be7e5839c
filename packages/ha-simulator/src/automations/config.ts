import { pythonRepr, pythonString } from "../python-repr.js";

/**
 * Validation of automation and script configs as HA does it
 * (`automation/config.py`, `helpers/config_validation.py`, `helpers/trigger.py`,
 * `helpers/condition.py`, `helpers/script.py`). It checks structure and
 * formats, never whether an entity or a service exists: HA does not either.
 * Errors read like voluptuous's first error: `<what> @ data['key'][0]`.
 */
export class ConfigInvalid extends Error {}

type Path = (string | number)[];
type Obj = Record<string, unknown>;

function pathText(path: Path): string {
  return path.length === 0 ? "" : ` @ data[${path.map((p) => (typeof p === "number" ? String(p) : pythonString(p))).join("][")}]`;
}

function fail(message: string, path: Path = []): never {
  throw new ConfigInvalid(`${message}${pathText(path)}`);
}

const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const ensureList = (v: unknown): unknown[] => (v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]);
const VALID_ENTITY_ID = /^(?!.+__)(?!_)[\da-z_]+(?<!_)\.(?!_)[\da-z_]+(?<!_)$/;
const isTemplate = (v: unknown) => typeof v === "string" && /\{\{|\{%|\{#/.test(v);

function allowKeys(o: Obj, allowed: readonly string[], path: Path): void {
  for (const key of Object.keys(o)) if (!allowed.includes(key)) fail("extra keys not allowed", [...path, key]);
}

function require(o: Obj, key: string, path: Path): unknown {
  if (!Object.hasOwn(o, key)) fail("required key not provided", [...path, key]);
  return o[key];
}

/** `cv.renamed(old, new)`: the old key moves to the new one; both at once is an error. */
function renamed(o: Obj, from: string, to: string): Obj {
  if (!Object.hasOwn(o, from)) return o;
  if (Object.hasOwn(o, to)) fail(`Cannot specify both '${from}' and '${to}'. Please use '${to}' only.`);
  const out: Obj = {};
  for (const [k, v] of Object.entries(o)) out[k === from ? to : k] = v;
  return out;
}

/** `cv.entity_ids`: a list (or comma-separated text) of valid entity ids; unknown ones are fine. */
function entityIds(v: unknown, path: Path): string[] {
  const items = typeof v === "string" ? v.split(",").map((s) => s.trim()) : ensureList(v);
  if (items.length === 0) fail("Entity IDs cannot be None", path);
  return items.map((item, i) => {
    const id = String(item).toLowerCase();
    if (typeof item !== "string" || !VALID_ENTITY_ID.test(id)) fail(`Entity ${String(item)} is neither a valid entity ID nor a valid UUID`, [...path, i]);
    return id;
  });
}

/** HA's time periods: seconds, "HH:MM[:SS]" or {hours, minutes, seconds}. */
export function periodMs(v: unknown): number | undefined {
  if (typeof v === "number") return v * 1000;
  if (typeof v === "string") {
    const m = /^(-?\d+):(\d{1,2})(?::(\d{1,2}(?:\.\d+)?))?$/.exec(v.trim());
    if (m) return ((Number(m[1]) * 60 + Number(m[2])) * 60 + Number(m[3] ?? 0)) * 1000;
    return /^\d+(\.\d+)?$/.test(v.trim()) ? Number(v) * 1000 : undefined;
  }
  if (isObj(v)) {
    const n = (k: string) => Number(v[k] ?? 0);
    return (((n("days") * 24 + n("hours")) * 60 + n("minutes")) * 60 + n("seconds")) * 1000 + n("milliseconds");
  }
  return undefined;
}

const TRIGGER_BASE = ["trigger", "id", "alias", "enabled", "variables"];
const TRIGGER_KEYS = new Map<string, readonly string[] | null>(Object.entries({
  state: ["entity_id", "from", "to", "not_from", "not_to", "for", "attribute"],
  numeric_state: ["entity_id", "above", "below", "value_template", "for", "attribute"],
  time: ["at", "weekday"],
  sun: ["event", "offset"],
  template: ["value_template", "for"],
  event: ["event_type", "event_data", "context"],
  homeassistant: ["event"],
  time_pattern: ["hours", "minutes", "seconds"],
  // Platforms the simulator does not run but HA knows: accepted as written.
  calendar: null, conversation: null, device: null, geo_location: null, mqtt: null, persistent_notification: null, tag: null, webhook: null, zone: null,
}));

/** One trigger: `platform` becomes `trigger`, the platform must exist, and its own schema applies (errors relative to the trigger). */
function trigger(raw: unknown, path: Path): Obj {
  if (!isObj(raw)) fail("expected a dictionary", path);
  if (Object.hasOwn(raw, "platform") && Object.hasOwn(raw, "trigger")) fail("Cannot specify both 'platform' and 'trigger'. Please use 'trigger' only.", path);
  const t = { ...renamed(raw, "platform", "trigger") };
  const kind = require(t, "trigger", path);
  if (typeof kind !== "string" || !TRIGGER_KEYS.has(kind)) fail(`Invalid trigger '${String(kind)}' specified`);
  const keys = TRIGGER_KEYS.get(kind as string);
  if (keys === null) return t;
  allowKeys(t, [...TRIGGER_BASE, ...keys!], []);
  if (kind === "state" || kind === "numeric_state") t.entity_id = entityIds(require(t, "entity_id", []), ["entity_id"]);
  if (kind === "numeric_state" && t.above === undefined && t.below === undefined) fail("must contain at least one of below, above.");
  if (kind === "time") {
    const ats = ensureList(require(t, "at", []));
    ats.forEach((at, i) => {
      if (typeof at !== "string" || !(/^\d{1,2}:\d{2}(:\d{2})?$/.test(at) || VALID_ENTITY_ID.test(at))) fail("Expected HH:MM, HH:MM:SS or Entity ID with domain 'input_datetime' or 'sensor'", ["at", i]);
    });
  }
  if (kind === "sun" && t.event !== "sunrise" && t.event !== "sunset") fail("value must be one of ['sunrise', 'sunset']", ["event"]);
  if (kind === "template") require(t, "value_template", []);
  if (kind === "event") require(t, "event_type", []);
  if ((kind === "state" || kind === "numeric_state" || kind === "template") && t.for !== undefined && periodMs(t.for) === undefined && !isTemplate(t.for)) {
    fail("expected float for dictionary value", ["for"]);
  }
  return t;
}

/** `cv.TRIGGER_SCHEMA` then `async_validate_trigger_config`. */
export function validateTriggers(value: unknown): Obj[] {
  return ensureList(value).map((t, i) => trigger(t, [i]));
}

const CONDITION_BASE = ["condition", "alias", "enabled"];
const CONDITION_KEYS = new Map<string, readonly string[] | null>(Object.entries({
  and: ["conditions"], or: ["conditions"], not: ["conditions"],
  state: ["entity_id", "state", "for", "attribute", "match"],
  numeric_state: ["entity_id", "above", "below", "value_template", "attribute"],
  template: ["value_template"],
  time: ["after", "before", "weekday"],
  sun: ["after", "before", "after_offset", "before_offset", "options"],
  trigger: ["id"],
  zone: null, device: null,
}));

function condition(raw: unknown, path: Path): Obj {
  // A bare template is shorthand for a template condition.
  if (typeof raw === "string") return { condition: "template", value_template: raw };
  if (!isObj(raw)) fail("expected a dictionary", path);
  const kind = raw.condition;
  if (typeof kind !== "string" || !CONDITION_KEYS.has(kind)) fail(`Invalid condition "${String(kind)}" specified ${pythonRepr(raw)}`);
  const keys = CONDITION_KEYS.get(kind as string);
  if (keys === null) return raw;
  const c: Obj = { ...raw };
  allowKeys(c, [...CONDITION_BASE, ...keys!], path);
  if (kind === "and" || kind === "or" || kind === "not") c.conditions = ensureList(require(c, "conditions", path)).map((sub, i) => condition(sub, [...path, "conditions", i]));
  if (kind === "state" || kind === "numeric_state") c.entity_id = entityIds(require(c, "entity_id", path), [...path, "entity_id"]);
  if (kind === "state") require(c, "state", path);
  if (kind === "numeric_state" && c.above === undefined && c.below === undefined) fail("must contain at least one of below, above.", path);
  if (kind === "template") require(c, "value_template", path);
  if (kind === "sun") {
    const o = isObj(c.options) ? c.options : c;
    if (o.before === undefined && o.after === undefined) fail("must contain at least one of before, after.", path);
    for (const k of ["before", "after"]) if (o[k] !== undefined && o[k] !== "sunrise" && o[k] !== "sunset") fail("value must be one of ['sunrise', 'sunset']", [...path, k]);
  }
  return c;
}

/** `cv.CONDITIONS_SCHEMA` then `async_validate_conditions_config`. */
export function validateConditions(value: unknown): Obj[] {
  return ensureList(value).map((c, i) => condition(c, [i]));
}

const ACTION_BASE = ["alias", "continue_on_error", "enabled"];
const SERVICE_KEYS = ["action", "service_template", "entity_id", "data", "data_template", "target", "metadata", "response_variable"];

/** `cv.determine_script_action`: which kind of step an action is, by its keys. */
export function actionKind(a: Obj): string | undefined {
  const order: [string, string][] = [
    ["delay", "delay"], ["wait_template", "wait_template"], ["condition", "condition"], ["event", "fire_event"], ["action", "call_service"],
    ["service_template", "call_service"], ["device_id", "device"], ["scene", "activate_scene"], ["repeat", "repeat"], ["choose", "choose"],
    ["if", "if"], ["wait_for_trigger", "wait_for_trigger"], ["variables", "variables"], ["stop", "stop"], ["parallel", "parallel"],
    ["sequence", "sequence"], ["set_conversation_response", "set_conversation_response"],
  ];
  return order.find(([key]) => Object.hasOwn(a, key))?.[1];
}

function action(raw: unknown, path: Path): Obj {
  if (!isObj(raw)) fail("expected dictionary", path);
  const a = { ...renamed(raw, "service", "action") };
  const kind = actionKind(a);
  if (!kind) fail("Unable to determine action", path);
  if (kind === "call_service") {
    allowKeys(a, [...ACTION_BASE, ...SERVICE_KEYS], path);
    if (typeof a.action === "string" && !isTemplate(a.action) && !/^[a-z0-9_]+\.[a-z0-9_]+$/.test(a.action)) {
      fail(`Service ${a.action} does not match format <domain>.<name> for dictionary value`, [...path, "action"]);
    }
    if (a.target !== undefined && !isObj(a.target) && !isTemplate(a.target)) fail("expected a dictionary for dictionary value", [...path, "target"]);
  }
  if (kind === "condition") return { ...condition(a, path), ...("continue_on_error" in a ? { continue_on_error: a.continue_on_error } : {}) };
  if (kind === "delay" && periodMs(a.delay) === undefined && !isTemplate(a.delay)) fail("expected float for dictionary value", [...path, "delay"]);
  for (const nested of ["sequence", "then", "else", "default"]) if (Array.isArray(a[nested])) a[nested] = (a[nested] as unknown[]).map((s, i) => action(s, [...path, nested, i]));
  return a;
}

/** `cv.SCRIPT_SCHEMA` then `async_validate_actions_config`. */
export function validateActions(value: unknown): Obj[] {
  return ensureList(value).map((a, i) => action(a, [i]));
}

export const SCRIPT_MODES = ["single", "restart", "queued", "parallel"];

export interface AutomationConfig {
  id: string | undefined;
  alias: string | undefined;
  description: string | undefined;
  mode: string;
  initialState: boolean | undefined;
  storedTraces: number;
  triggers: Obj[];
  conditions: Obj[];
  actions: Obj[];
  variables: Obj;
}

const AUTOMATION_KEYS = ["id", "alias", "description", "trace", "initial_state", "hide_entity", "triggers", "conditions", "variables", "trigger_variables", "actions", "mode", "max", "max_exceeded", "use_blueprint"];

/** `automation/config.py`: PLATFORM_SCHEMA (the singular keys renamed), then triggers, conditions and actions. */
export function validateAutomation(raw: unknown): AutomationConfig {
  if (!isObj(raw)) fail("expected a dictionary");
  let c = renamed(raw, "trigger", "triggers");
  c = renamed(c, "action", "actions");
  c = renamed(c, "condition", "conditions");
  allowKeys(c, AUTOMATION_KEYS, []);
  if (c.id !== undefined && typeof c.id !== "string") fail("expected str for dictionary value", ["id"]);
  const triggers = require(c, "triggers", []);
  const actions = require(c, "actions", []);
  if (c.mode !== undefined && !SCRIPT_MODES.includes(String(c.mode))) fail("value must be one of ['parallel', 'queued', 'restart', 'single'] for dictionary value", ["mode"]);
  const trace = isObj(c.trace) ? c.trace : {};
  return {
    id: c.id as string | undefined,
    alias: c.alias === undefined ? undefined : String(c.alias),
    description: c.description === undefined ? undefined : String(c.description),
    mode: String(c.mode ?? "single"),
    initialState: typeof c.initial_state === "boolean" ? c.initial_state : undefined,
    storedTraces: typeof trace.stored_traces === "number" ? trace.stored_traces : 5,
    triggers: validateTriggers(triggers),
    conditions: validateConditions(c.conditions),
    actions: validateActions(actions),
    variables: isObj(c.variables) ? c.variables : {},
  };
}

export interface ScriptConfig {
  alias: string | undefined;
  mode: string;
  icon: string | undefined;
  storedTraces: number;
  sequence: Obj[];
}

const SCRIPT_KEYS = ["alias", "description", "icon", "sequence", "mode", "max", "max_exceeded", "fields", "variables", "trace", "use_blueprint"];

/** `script/config.py` SCRIPT_ENTITY_SCHEMA: `sequence` is required. */
export function validateScript(raw: unknown): ScriptConfig {
  if (!isObj(raw)) fail("expected a dictionary");
  allowKeys(raw, SCRIPT_KEYS, []);
  const sequence = require(raw, "sequence", []);
  if (raw.mode !== undefined && !SCRIPT_MODES.includes(String(raw.mode))) fail("value must be one of ['parallel', 'queued', 'restart', 'single'] for dictionary value", ["mode"]);
  const trace = isObj(raw.trace) ? raw.trace : {};
  return {
    alias: raw.alias === undefined ? undefined : String(raw.alias),
    mode: String(raw.mode ?? "single"),
    icon: typeof raw.icon === "string" ? raw.icon : undefined,
    storedTraces: typeof trace.stored_traces === "number" ? trace.stored_traces : 5,
    sequence: validateActions(sequence),
  };
}
