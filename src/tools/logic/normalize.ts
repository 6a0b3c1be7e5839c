import { parse, stringify } from "yaml";

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** A config as given: an object, or YAML text (a mapping, or a list of one as automations.yaml holds them). */
export function readConfig(given: Obj | string): { ok: true; config: Obj } | { ok: false; message: string } {
  if (typeof given !== "string") return { ok: true, config: given };
  let value: unknown;
  try {
    value = parse(given);
  } catch (err) {
    return { ok: false, message: `The YAML could not be read: ${err instanceof Error ? err.message.split("\n")[0] : String(err)}` };
  }
  if (Array.isArray(value) && value.length === 1) value = value[0];
  if (!isObj(value)) return { ok: false, message: "Expected one automation: a YAML mapping with triggers, conditions and actions, not a list or a single value." };
  return { ok: true, config: value };
}

/** The renames of HA's automation schema (`automation/config.py`'s `_backward_compat_schema`, `cv.renamed`). */
const RENAMED = [
  ["trigger", "triggers"],
  ["condition", "conditions"],
  ["action", "actions"],
] as const;

/**
 * The config as Home Assistant's editor saves it: the plural keys
 * `triggers`, `conditions` and `actions` (HA renames the singular ones when
 * it loads a config, and `validate_config` takes only the plural ones), and
 * `trigger:` instead of the older `platform:` in each trigger (HA's
 * frontend migrates it the same way). `notes` says what was renamed;
 * `problems` holds a key given in both forms, which HA refuses.
 */
export function normalizeConfig(config: Obj): { normalized: Obj; notes: string[]; problems: { path: string; message: string }[] } {
  const normalized: Obj = { ...config };
  const notes: string[] = [];
  const problems: { path: string; message: string }[] = [];
  for (const [old, renamed] of RENAMED) {
    if (!Object.hasOwn(normalized, old)) continue;
    // cv.renamed's own words.
    if (Object.hasOwn(normalized, renamed)) {
      problems.push({ path: old, message: `Cannot specify both '${old}' and '${renamed}'. Please use '${renamed}' only.` });
      continue;
    }
    normalized[renamed] = normalized[old];
    delete normalized[old];
    notes.push(`Renamed '${old}' to '${renamed}', as Home Assistant does.`);
  }
  const triggers = normalized.triggers;
  if (Array.isArray(triggers) || isObj(triggers)) {
    const list = Array.isArray(triggers) ? triggers : [triggers];
    let migrated = 0;
    normalized.triggers = list.map((t, i) => {
      if (!isObj(t) || !Object.hasOwn(t, "platform")) return t;
      if (Object.hasOwn(t, "trigger")) {
        problems.push({ path: `triggers/${i}`, message: "Cannot specify both 'platform' and 'trigger'. Please use 'trigger' only." });
        return t;
      }
      migrated++;
      const { platform, ...rest } = t;
      return { trigger: platform, ...rest };
    });
    if (migrated) notes.push(`Wrote 'trigger:' for 'platform:' in ${migrated === 1 ? "one trigger" : `${migrated} triggers`}, as Home Assistant's editor does.`);
  }
  return { normalized: ordered(normalized), notes, problems };
}

/** The order HA's config view writes keys in (`config/automation.py`): id, alias, description, triggers, conditions, actions, then the rest. */
const KEY_ORDER = ["id", "alias", "description", "triggers", "conditions", "actions", "mode"];

export function ordered(config: Obj): Obj {
  const out: Obj = {};
  for (const key of KEY_ORDER) if (Object.hasOwn(config, key)) out[key] = config[key];
  for (const [key, value] of Object.entries(config)) if (!Object.hasOwn(out, key)) out[key] = value;
  return out;
}

/**
 * A config as YAML, keys in HA's order: what the diff compares and people
 * read. Written as YAML 1.1, which Home Assistant reads: `on` and `off` are
 * quoted, or pasted back they would turn into booleans.
 */
export const configYaml = (config: Obj): string => stringify(ordered(config), { version: "1.1" });

/** Two configs say the same, whatever the order of their keys. */
export function sameConfig(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => sameConfig(v, b[i]));
  if (isObj(a) && isObj(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && sameConfig(a[k], b[k]));
  }
  return a === b;
}
