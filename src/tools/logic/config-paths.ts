type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** Trace paths name sections in the singular (`condition/1`); configs use the plural keys (`conditions`). */
const PLURAL = new Map([
  ["trigger", "triggers"],
  ["condition", "conditions"],
  ["action", "actions"],
]);

/**
 * The part of a config a trace path points at: `condition/1/entity_id/0`
 * is `conditions[1].entity_id[0]` (a single entity id written as text is
 * its own item 0). Trace paths are singular where configs are plural, and
 * older configs still use the singular keys, so both are tried. A segment
 * with no counterpart (`if/condition/0` under an `if` that holds the list
 * itself) is stepped over. Undefined when the path leads nowhere.
 */
export function configAt(config: Obj | null | undefined, path: string): unknown {
  let node: unknown = config ?? undefined;
  for (const segment of path.split("/")) {
    if (node === undefined) return undefined;
    if (/^\d+$/.test(segment)) {
      const i = Number(segment);
      if (Array.isArray(node)) node = node[i];
      else if (i === 0 && node !== null) continue;
      else return undefined;
    } else if (isObj(node)) {
      const plural = PLURAL.get(segment);
      const key = Object.hasOwn(node, segment) ? segment : plural !== undefined && Object.hasOwn(node, plural) ? plural : undefined;
      if (key === undefined) return undefined;
      node = node[key];
    } else if (!Array.isArray(node)) return undefined;
  }
  return node;
}

/** The top-level step a path belongs to: `condition/1/entity_id/0` → `condition/1`, `action/2/then/0` → `action/2`. */
export const topStep = (path: string): string => path.split("/").slice(0, 2).join("/");

/** What a step is: the trigger, a condition (also one inside an action), or an action. */
export function stepKind(path: string): "trigger" | "condition" | "action" {
  const segments = path.split("/");
  if (segments[0] === "trigger") return "trigger";
  if (segments[0] === "condition") return "condition";
  // A condition checked inside an action's if, choose or condition step.
  const named = segments.filter((s) => !/^\d+$/.test(s));
  const last = named.at(-1);
  return last === "condition" || last === "conditions" || last === "entity_id" ? "condition" : "action";
}

const list = (v: unknown): string[] => (v === undefined || v === null ? [] : Array.isArray(v) ? v.map(String) : [String(v)]);

/**
 * A condition in a few words, as a person would name it: its alias when it
 * has one ("Hall light is off"), else what it checks ("light.hallway_ceiling
 * is off"). `name` turns an entity id into how the home calls it.
 */
export function conditionText(condition: unknown, name: (entityId: string) => string = (id) => id): string {
  if (typeof condition === "string") return `template ${condition}`;
  if (!isObj(condition)) return "a condition";
  if (typeof condition.alias === "string" && condition.alias) return condition.alias;
  const entities = list(condition.entity_id).map(name).join(" and ");
  switch (condition.condition) {
    case "state": {
      const attribute = condition.attribute === undefined ? "" : `'s ${String(condition.attribute)}`;
      return `${entities}${attribute} is ${list(condition.state).join(" or ")}`;
    }
    case "numeric_state": {
      const bounds = [condition.above === undefined ? "" : `above ${String(condition.above)}`, condition.below === undefined ? "" : `below ${String(condition.below)}`].filter(Boolean).join(" and ");
      return `${entities} is ${bounds}`;
    }
    case "template":
      return `template ${String(condition.value_template)}`;
    case "sun":
      return ["before", "after"].filter((k) => condition[k] !== undefined).map((k) => `${k} ${String(condition[k])}`).join(" and ") || "the sun";
    case "time":
      return ["after", "before"].filter((k) => condition[k] !== undefined).map((k) => `${k} ${String(condition[k])}`).join(" and ") || "the time";
    case "trigger":
      return `triggered by ${list(condition.id).join(" or ")}`;
    case "and":
    case "or":
    case "not":
      return `${String(condition.condition)} of ${Array.isArray(condition.conditions) ? condition.conditions.length : 0} conditions`;
    default:
      return `${String(condition.condition ?? "a")} condition`;
  }
}
