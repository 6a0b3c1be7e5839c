import { z } from "zod";

/**
 * The validators HA's command schemas use (`str`, `bool`, `dict`, `[str]`,
 * `cv.entity_id`, `cv.entity_ids`, …) as zod schemas carrying voluptuous's
 * own wording, so `humanizeIssues` can answer as HA does.
 */

export const str = () => z.string({ error: "expected str" });
export const bool = () => z.boolean({ error: "expected bool" });

/** voluptuous `[str]`: a list, each item a string. */
export const strList = () => z.array(str(), { error: "expected a list" });

/**
 * `dict`: any JSON object, handed on as it came (no copy), so keys such as
 * `__proto__` stay ordinary keys instead of being dropped.
 */
export const dict = () =>
  z.custom<Record<string, unknown>>((v) => typeof v === "object" && v !== null && !Array.isArray(v), { error: "expected dict" });

/** `vol.Coerce(float)`: a number, or text that reads as one. */
export const float = () =>
  z.preprocess((v) => (typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v)) ? Number(v) : v), z.number({ error: "expected float" }));

/** `cv.positive_int`: an integer at least 0; numbers and numeric text are coerced as Python's int() would. */
export const positiveInt = () =>
  z.preprocess(
    (v) => (typeof v === "number" && Number.isFinite(v) ? Math.trunc(v) : typeof v === "string" && /^\s*[-+]?\d+\s*$/.test(v) ? Number(v) : v),
    z.number({ error: "expected int" }).int({ error: "expected int" }).min(0, { error: "value must be at least 0" }),
  );

/** `vol.Any("a", "b")` of literals: anything else is "not a valid value". */
export const oneOf = <const T extends readonly [string, ...string[]]>(values: T) => z.enum(values, { error: "not a valid value" });

/** HA's `valid_entity_id`: lower-case `domain.object_id`, no leading, trailing or doubled underscores. */
export const VALID_ENTITY_ID = /^(?!.+__)(?!_)[\da-z_]+(?<!_)\.(?!_)[\da-z_]+(?<!_)$/;

/** `cv.string`: None is refused, lists and dicts are refused, anything else becomes its text. */
function cvString(v: unknown, ctx: z.RefinementCtx, path: PropertyKey[] = []): string | undefined {
  if (v === null || v === undefined) {
    ctx.addIssue({ code: "custom", message: "string value is None", path });
    return undefined;
  }
  if (typeof v === "object") {
    ctx.addIssue({ code: "custom", message: "value should be a string", path });
    return undefined;
  }
  return typeof v === "boolean" ? (v ? "True" : "False") : String(v);
}

function entityIdAt(v: unknown, ctx: z.RefinementCtx, path: PropertyKey[] = []): string | undefined {
  const text = cvString(v, ctx, path)?.toLowerCase();
  if (text === undefined) return undefined;
  if (VALID_ENTITY_ID.test(text)) return text;
  ctx.addIssue({ code: "custom", message: `Entity ID ${text} is an invalid entity ID`, path });
  return undefined;
}

/** `cv.entity_id`: lower-cased, and a valid entity id. */
export const entityId = () =>
  z.unknown().transform((v, ctx) => {
    const id = entityIdAt(v, ctx);
    return id === undefined ? z.NEVER : id;
  });

/** `cv.ensure_list`: None is an empty list, a single value a list of one. */
function ensureList(v: unknown): unknown[] {
  return v === null || v === undefined ? [] : Array.isArray(v) ? v : [v];
}

function entityIdList(v: unknown, ctx: z.RefinementCtx): string[] | undefined {
  const items = typeof v === "string" ? v.split(",").map((s) => s.trim()) : ensureList(v);
  const out: string[] = [];
  items.forEach((item, i) => {
    const id = entityIdAt(item, ctx, [i]);
    if (id !== undefined) out.push(id);
  });
  return out.length === items.length ? out : undefined;
}

/** `cv.entity_ids`: a list, or comma-separated text, of valid entity ids. */
export const entityIds = () => z.unknown().transform((v, ctx) => entityIdList(v, ctx) ?? z.NEVER);

/** `cv.comp_entity_ids`: "all" or "none" (any case), or `cv.entity_ids`. */
export const compEntityIds = () =>
  z.unknown().transform((v, ctx): string | string[] => {
    if (typeof v === "string" && (v.toLowerCase() === "all" || v.toLowerCase() === "none")) return v.toLowerCase();
    const ids = entityIdList(v, ctx);
    return ids ?? z.NEVER;
  });

/** `vol.All(cv.ensure_list, [cv.string])`. */
export const stringList = () =>
  z.unknown().transform((v, ctx) => {
    const items = ensureList(v);
    const out: string[] = [];
    items.forEach((item, i) => {
      const s = cvString(item, ctx, [i]);
      if (s !== undefined) out.push(s);
    });
    return out.length === items.length ? out : z.NEVER;
  });

/** `{str: int}`: a dict whose values are integers, as `supported_features` takes. */
export const intDict = () =>
  dict().superRefine((d, ctx) => {
    for (const [key, value] of Object.entries(d)) {
      if (typeof value !== "number" || !Number.isInteger(value)) ctx.addIssue({ code: "custom", message: "expected int", path: [key] });
    }
  });
