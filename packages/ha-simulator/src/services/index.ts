import type { HassContext, HassServices } from "../common/index.js";
import { dict, own } from "../common/index.js";
import { CommandError } from "../command-error.js";
import type { HomeModel } from "../home.js";
import { automationServices, runScript } from "./automation.js";
import { deviceServices } from "./devices.js";
import { lightServices } from "./lights.js";
import { entitylessServices } from "./notify.js";
import type { ServiceCall, ServiceDef, ServiceTable } from "./service.js";
import { resolveTargets, splitServiceData } from "./targets.js";

const TABLE: ServiceTable = { ...lightServices, ...deviceServices, ...automationServices };

const GENERIC = new Map(Object.entries({ turn_on: "Turns on", turn_off: "Turns off", toggle: "Toggles" }));

/** A service of the table: `constructor` or `toString` name nothing, whatever Object.prototype holds. */
const tableEntry = (domain: string, service: string): ServiceDef | undefined => own(own(TABLE, domain), service);

export interface CallServiceInput {
  domain: string;
  service: string;
  serviceData?: Record<string, unknown>;
  target?: Record<string, unknown>;
  returnResponse?: boolean;
  userId: string | null;
  parentId?: string | null;
  /** The context to run in (a script's or automation's own); a new one otherwise. */
  context?: HassContext;
}

/** HA's ServiceNotFound, with the wording `call_service` answers it with. */
export class ServiceNotFound extends CommandError {
  constructor(
    readonly domain: string,
    readonly service: string,
  ) {
    super("not_found", `Service ${domain}.${service} not found.`, {
      translation_domain: "homeassistant",
      translation_key: "service_not_found",
      translation_placeholders: { domain, service },
    });
  }

  /** What the caller of `calledDomain.calledService` hears when a service it calls in turn is missing. */
  asSeenBy(calledDomain: string, calledService: string): CommandError {
    if (calledDomain === this.domain && calledService === this.service) return this;
    return new CommandError("home_assistant_error", `Service ${this.domain}.${this.service} called service ${calledDomain}.${calledService} which was not found.`, {
      translation_domain: "websocket_api",
      translation_key: "child_service_not_found",
      translation_placeholders: { domain: calledDomain, service: calledService, child_domain: this.domain, child_service: this.service },
    });
  }
}

/** Services exist for homeassistant and for the domains the house actually has entities in. */
function lookup(home: HomeModel, domain: string, service: string): ServiceDef | undefined {
  const entityless = entitylessServices(home, domain);
  if (entityless) return entityless.get(service);
  if (domain !== "homeassistant" && !home.domains().has(domain)) return undefined;
  const verb = domain === "homeassistant" ? GENERIC.get(service) : undefined;
  if (verb) {
    return { name: service, description: `${verb} any entity.`, target: true, run: (c) => generic(c, service) };
  }
  const def = tableEntry(domain, service);
  if (def) return def;
  // Every script is also a service of its own: script.<object_id>.
  if (domain === "script" && (home.automations?.hasScript(`script.${service}`) || home.definitions.get(`script.${service}`)?.sequence)) {
    return { name: service, description: `Runs script.${service}.`, response: "optional", run: (c) => runScript(c, `script.${service}`) };
  }
  return undefined;
}

/** homeassistant.turn_on/off/toggle: forwards to each target's own domain, like HA. */
function generic(c: ServiceCall, service: string): void {
  const byDomain = new Map<string, string[]>();
  for (const id of c.entityIds) {
    const domain = id.slice(0, id.indexOf("."));
    if (!tableEntry(domain, service)) continue;
    byDomain.set(domain, [...(byDomain.get(domain) ?? []), id]);
  }
  for (const [domain, ids] of byDomain) c.call(domain, service, c.data, { entity_id: ids });
}

/**
 * Runs a service the way HA's `call_service` does: fire `call_service`,
 * apply the effects with the caller's context, and hand back the context and
 * the response.
 */
export function callService(home: HomeModel, input: CallServiceInput): { context: HassContext; response: unknown } {
  const { domain, service } = input;
  const def = lookup(home, domain, service);
  if (!def) throw new ServiceNotFound(domain, service);
  if (input.returnResponse && !def.response) {
    throw new CommandError("service_validation_error", "Validation error: An action which does not return responses can't be called with return_response=True");
  }
  if (!input.returnResponse && def.response === "only") {
    throw new CommandError("service_validation_error", "Validation error: The action requires responses and must be called with return_response=True");
  }
  const context = input.context ?? home.newContext(input.userId, input.parentId ?? null);
  const { data, target } = splitServiceData(input.serviceData ?? {}, input.target);
  const entityIds = def.target ? resolveTargets(home, target, domain === "homeassistant" ? undefined : domain).filter((id) => home.record(id)) : [];
  home.rememberServiceCall(context.id, domain, service);
  home.fireEvent("call_service", { domain, service, service_data: { ...data, ...target } }, context);
  const call: ServiceCall = {
    home,
    domain,
    service,
    data,
    entityIds,
    context,
    call: (d, s, sd, t) => callService(home, { domain: d, service: s, serviceData: sd, target: t, userId: input.userId, parentId: context.id }).response,
  };
  const response = def.run(call);
  return { context, response: input.returnResponse ? (response ?? null) : null };
}

/** Whether the home offers a service. */
export function serviceExists(home: HomeModel, domain: string, service: string): boolean {
  return lookup(home, domain, service) !== undefined;
}

/** `get_services`: every service of the domains present, with fields and targets. */
export function describeServices(home: HomeModel): HassServices {
  const out: HassServices = dict();
  for (const domain of [...new Set(["homeassistant", "notify", "persistent_notification", ...home.domains()])].sort()) {
    const services: HassServices[string] = dict();
    const entityless = entitylessServices(home, domain);
    const names = domain === "homeassistant" ? [...GENERIC.keys()] : entityless ? [...entityless.keys()] : Object.keys(own(TABLE, domain) ?? {});
    for (const name of names) {
      const def = lookup(home, domain, name)!;
      services[name] = {
        name: def.name,
        description: def.description,
        fields: def.fields ?? {},
        ...(def.target ? { target: { entity: [domain === "homeassistant" ? {} : { domain: [domain] }] } } : {}),
        ...(def.response ? { response: { optional: def.response === "optional" } } : {}),
      };
    }
    if (domain === "script") {
      for (const [id, e] of home.definitions) {
        if (!id.startsWith("script.") || !e.sequence) continue;
        const name = String(e.attributes.friendly_name ?? id);
        services[id.slice(7)] = { name, description: `Runs ${name}.`, fields: {}, ...{ response: { optional: true } } };
      }
    }
    if (Object.keys(services).length > 0) out[domain] = services;
  }
  return out;
}
