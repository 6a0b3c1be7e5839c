import { z } from "zod";
import { TARGET_KINDS, type TargetIds } from "../../indexer/index.js";
import { LIMITS } from "../limits.js";

/** The most entities one call may act on: one mistaken call cannot switch a whole house. */
export const MAX_TARGETS = 50;

const Name = z.string().regex(/^[a-z0-9_]{1,64}$/, "expected a lower-case name such as light or turn_on");
const EntityId = z.string().regex(/^[a-z0-9_]+\.[a-z0-9_]+$/, "expected an entity id such as light.kitchen").max(LIMITS.name);
const RegistryId = z.string().max(LIMITS.name, { error: `at most ${LIMITS.name} characters` });
const oneOrMany = (id: z.ZodString) => z.union([id, z.array(id).min(1).max(MAX_TARGETS, { error: `at most ${MAX_TARGETS} ids` })]);

/** Unknown keys are refused rather than dropped: a misspelt target must not become a call on nothing. */
const onlyKeys = (where: string, keys: string) => (issue: { code?: string; keys?: string[] }) =>
  issue.code === "unrecognized_keys" ? `unknown ${issue.keys?.length === 1 ? "key" : "keys"} ${issue.keys?.map((k) => `"${k}"`).join(", ")}: ${where} takes ${keys}` : undefined;

/** Home Assistant's own target shape. */
export const Target = z
  .strictObject(
    {
      entity_id: oneOrMany(EntityId).optional(),
      device_id: oneOrMany(RegistryId).optional(),
      area_id: oneOrMany(RegistryId).optional(),
      floor_id: oneOrMany(RegistryId).optional(),
      label_id: oneOrMany(RegistryId).optional(),
    },
    { error: onlyKeys("target", TARGET_KINDS.join(", ")) },
  )
  .refine((t) => TARGET_KINDS.some((k) => t[k] !== undefined), { error: `give at least one of ${TARGET_KINDS.join(", ")}` });

export const CallServiceInput = z.strictObject(
  {
    domain: Name.describe('Service domain, e.g. "light".'),
    service: Name.describe('Service name, e.g. "turn_on".'),
    target: Target.optional().describe('What to act on, as in Home Assistant: {"area_id": "kitchen"}; entity_id, device_id, area_id, floor_id, label_id.'),
    entity_id: oneOrMany(EntityId).optional().describe("Entity id or ids; joined with target."),
    service_data: z
      .record(z.string().max(64), z.unknown())
      .refine((data) => !TARGET_KINDS.some((k) => Object.hasOwn(data, k)), { error: `name what to act on in target, not in service_data (${TARGET_KINDS.join(", ")})` })
      .optional()
      .describe('Service fields, e.g. {"brightness_pct": 40}.'),
  },
  { error: onlyKeys("call_service", "domain, service, target, entity_id and service_data") },
);

export type CallServiceArgs = z.infer<typeof CallServiceInput>;

const list = (v: string | string[] | undefined): string[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/** The call's target with every field as a list, the top-level entity_id joined in; undefined when it names nothing. */
export function targetOf(args: Pick<CallServiceArgs, "target" | "entity_id">): TargetIds | undefined {
  const out: TargetIds = {};
  for (const kind of TARGET_KINDS) {
    const ids = [...new Set([...list(args.target?.[kind]), ...(kind === "entity_id" ? list(args.entity_id) : [])])];
    if (ids.length) out[kind] = ids;
  }
  return Object.keys(out).length ? out : undefined;
}
