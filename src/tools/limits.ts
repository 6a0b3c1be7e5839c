import { z } from "zod";

/**
 * Upper bounds on what callers may send in tool arguments. Every string and
 * list a tool accepts has one: unbounded input would be held in memory and,
 * for sessions, written to disk and loaded again at every boot.
 */
export const LIMITS = {
  /** A name, id or filter value: entity ids, areas, domains, device classes, states. */
  name: 255,
  /** A search or a short free text: queries, reasons, cursors. */
  text: 500,
  /** Entity ids in one call. */
  entityIds: 500,
  /** Services in a session's allowlist. */
  services: 100,
  /** A message to the agent. */
  message: 8_000,
} as const;

/** A bounded name or id; the message says the limit. */
export const name = () => z.string().max(LIMITS.name, { error: `at most ${LIMITS.name} characters` });

/** A bounded free text. */
export const text = (max: number = LIMITS.text) => z.string().max(max, { error: `at most ${max} characters` });

/**
 * A list that also takes one item alone, the one schema every tool's list
 * argument uses: `--tool-arg entity_ids=light.kitchen` from the Inspector's
 * command line arrives as a string and means a list of one. With
 * `commaSeparated`, "light.a, light.b" is two, as Home Assistant reads a
 * string of entity ids. Anything else that is not a list is refused with
 * the JSON form to send. Clients still see a plain array in the schema.
 */
export function oneOrList<T extends z.ZodType>(item: T, o: { max: number; min?: number; example: string; commaSeparated?: boolean }) {
  const listed = z
    .array(item, { error: (issue) => (issue.code === "invalid_type" ? `expected a list, in JSON: ${o.example}, or one item alone` : undefined) })
    .min(o.min ?? 0, { error: `give at least ${o.min} item${o.min === 1 ? "" : "s"}, in JSON: ${o.example}` })
    .max(o.max, { error: `at most ${o.max} items` });
  return z.preprocess((value) => (typeof value !== "string" ? value : o.commaSeparated ? value.split(",").map((v) => v.trim()).filter(Boolean) : [value]), listed);
}

/** A bounded list of bounded names (ids, attributes, service patterns); one name alone, or several separated by commas, is a list too. */
export const names = (max: number, example = '["light.kitchen", "light.hall"]') => oneOrList(name(), { max, example, commaSeparated: true });
