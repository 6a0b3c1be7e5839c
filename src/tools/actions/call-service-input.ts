import { z } from "zod";
import { TARGET_KINDS, type TargetIds } from "../../indexer/index.js";
import { LIMITS, oneOrList } from "../limits.js";
import { openObject } from "../open-object.js";

/** The most entities one call may act on: one mistaken call cannot switch a whole house. */
export const MAX_TARGETS = 50;

/** The ways a call may name its service, as the error shows them. */
const forms = (service = "turn_off") => `{"action": "light.${service}"} or {"service": "light.${service}"} (Home Assistant's forms), or {"domain": "light", "service": "${service}"}`;
const SERVICE_FORMS = forms();

const NAME = "[a-z0-9_]{1,64}";
const Domain = z.string().regex(new RegExp(`^${NAME}$`), `expected a lower-case domain such as light; name the service as ${SERVICE_FORMS}`);
const Service = z.string().regex(new RegExp(`^(${NAME}\\.)?${NAME}$`), `expected a lower-case service such as turn_off, or light.turn_off; name the service as ${SERVICE_FORMS}`);
const Action = z.string().regex(new RegExp(`^${NAME}\\.${NAME}$`), `expected domain.service, e.g. light.turn_off; name the service as ${SERVICE_FORMS}`);
const EntityId = z.string().regex(/^[a-z0-9_]+\.[a-z0-9_]+$/, "expected an entity id such as light.kitchen").max(LIMITS.name);
const RegistryId = z.string().max(LIMITS.name, { error: `at most ${LIMITS.name} characters` });
const ids = (id: z.ZodString) => oneOrList(id, { min: 1, max: MAX_TARGETS, example: '["light.kitchen", "light.hall"]' });

/** Unknown keys are refused rather than dropped: a misspelt target must not become a call on nothing. */
const onlyKeys = (where: string, keys: string) => (issue: { code?: string; keys?: string[] }) =>
  issue.code === "unrecognized_keys" ? `unknown ${issue.keys?.length === 1 ? "key" : "keys"} ${issue.keys?.map((k) => `"${k}"`).join(", ")}: ${where} takes ${keys}` : undefined;

/** Home Assistant's own target shape. */
export const Target = z
  .strictObject(
    {
      entity_id: ids(EntityId).optional(),
      device_id: ids(RegistryId).optional(),
      area_id: ids(RegistryId).optional(),
      floor_id: ids(RegistryId).optional(),
      label_id: ids(RegistryId).optional(),
    },
    { error: onlyKeys("target", TARGET_KINDS.join(", ")) },
  )
  .refine((t) => TARGET_KINDS.some((k) => t[k] !== undefined), { error: `give at least one of ${TARGET_KINDS.join(", ")}` });

/** Fields one service call may carry; Home Assistant's services take a handful. */
const MAX_FIELDS = 64;
// Published as an open object: HA's converters refuse or mangle propertyNames and maxProperties, so the bounds are checked here.
const ServiceData = openObject({ maxKeys: MAX_FIELDS, maxKeyLength: 64 }).refine((data) => !TARGET_KINDS.some((k) => Object.hasOwn(data, k)), { error: `name what to act on in target, not in the service's data (${TARGET_KINDS.join(", ")})` });

/**
 * The arguments as callers send them: Home Assistant's own forms
 * (`action: light.turn_off` as automations write it today, `service:
 * light.turn_off` as they did, with `target` and `data`) besides the
 * tool's `domain` + `service`. `callOf` reads every form into one.
 */
export const CallServiceInput = z
  .strictObject(
    {
      action: Action.optional().describe('e.g. "light.turn_off"'),
      domain: Domain.optional().describe("With service, instead of action"),
      service: Service.optional().describe('"turn_off" with domain, or "light.turn_off"'),
      target: Target.optional().describe("What to act on"),
      entity_id: ids(EntityId).optional().describe("Added to target"),
      service_data: ServiceData.optional().describe(`Service fields, at most ${MAX_FIELDS}`),
      data: ServiceData.optional().describe("Same as service_data"),
    },
    { error: onlyKeys("call_service", "action or domain and service, target, entity_id and service_data (or data)") },
  )
  .superRefine((args, ctx) => {
    const problem = formProblem(args);
    if (problem) ctx.addIssue({ code: "custom", path: [problem.path], message: problem.message });
  });

export type CallServiceInputArgs = z.infer<typeof CallServiceInput>;

/** One call, however it was written: the service split into domain and service, the fields under the tool's names. */
export interface CallServiceArgs {
  domain: string;
  service: string;
  target?: CallServiceInputArgs["target"];
  entity_id?: string | string[];
  service_data?: Record<string, unknown>;
}

/** What is wrong with how a call names its service or data; undefined when it is one of the accepted forms. */
function formProblem(a: CallServiceInputArgs): { path: string; message: string } | undefined {
  const dotted = a.service?.includes(".");
  if (a.service_data && a.data) return { path: "data", message: "give the service's fields once, in data or in service_data" };
  if (a.action !== undefined) {
    if (a.service !== undefined || a.domain !== undefined) return { path: "action", message: `give the service once: ${SERVICE_FORMS}` };
    return undefined;
  }
  if (a.service === undefined) return { path: "service", message: `name the service to call: ${SERVICE_FORMS}` };
  if (dotted) {
    if (a.domain !== undefined && a.domain !== a.service.split(".")[0]) return { path: "domain", message: `service "${a.service}" names another domain than "${a.domain}"; give one of ${SERVICE_FORMS}` };
    return undefined;
  }
  if (a.domain === undefined) return { path: "domain", message: `"${a.service}" needs its domain: ${forms(a.service)}` };
  return undefined;
}

/** The call in one shape, from any accepted form; only for arguments CallServiceInput accepted. */
export function callOf(a: CallServiceInputArgs): CallServiceArgs {
  const full = a.action ?? (a.service?.includes(".") ? a.service : `${a.domain}.${a.service}`);
  const [domain, service] = full.split(".") as [string, string];
  const data = a.service_data ?? a.data;
  return { domain, service, ...(a.target ? { target: a.target } : {}), ...(a.entity_id !== undefined ? { entity_id: a.entity_id } : {}), ...(data ? { service_data: data } : {}) };
}

/** Raw arguments as a call, or undefined when call_service would refuse them. */
export function parseCall(raw: unknown): CallServiceArgs | undefined {
  const parsed = CallServiceInput.safeParse(raw);
  return parsed.success ? callOf(parsed.data) : undefined;
}

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
