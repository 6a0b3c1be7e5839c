import type { HassContext } from "../common/index.js";
import { own } from "../common/index.js";
import { CommandError } from "../command-error.js";
import type { HomeModel } from "../home.js";

/** One service call as a handler sees it: targets resolved, data validated by the handler. */
export interface ServiceCall {
  home: HomeModel;
  domain: string;
  service: string;
  data: Record<string, unknown>;
  entityIds: string[];
  context: HassContext;
  /** Calls another service in the same context chain (scripts use this). */
  call(domain: string, service: string, data: Record<string, unknown>, target: Record<string, unknown> | undefined): unknown;
}

export interface FieldDef {
  description: string;
  required?: boolean;
  example?: unknown;
  selector: Record<string, unknown>;
}

export interface ServiceDef {
  name: string;
  description: string;
  fields?: Record<string, FieldDef>;
  /** Whether the service takes entity targets of its own domain. */
  target?: boolean;
  /** HA's SupportsResponse: `optional` may return data, `only` must be called with return_response. */
  response?: "optional" | "only";
  run(call: ServiceCall): unknown;
}

export type ServiceTable = Record<string, Record<string, ServiceDef>>;

/** Sets a new state keeping the current attributes except those in `patch` (null values are kept as null, like HA lights). */
export function update(call: ServiceCall, entityId: string, state: string | undefined, patch: Record<string, unknown> = {}): void {
  const current = call.home.record(entityId);
  if (!current) return;
  call.home.applyState(entityId, state ?? current.wire.state, { ...current.wire.attributes, ...patch }, call.context);
}

export function attr(call: ServiceCall, entityId: string, key: string): unknown {
  return own(call.home.record(entityId)?.wire.attributes, key);
}

export function stateOf(call: ServiceCall, entityId: string): string | undefined {
  return call.home.record(entityId)?.wire.state;
}

/** Runs `fn` once per targeted entity. */
export const each = (fn: (c: ServiceCall, id: string) => void) => (c: ServiceCall) => c.entityIds.forEach((id) => fn(c, id));

/** A number field within bounds, or undefined when absent and not required; anything else is HA's invalid_format. */
export function numberField(data: Record<string, unknown>, key: string, min: number, max: number, required = false): number | undefined {
  const v = own(data, key);
  if (v === undefined && !required) return undefined;
  if (v === undefined) throw new CommandError("invalid_format", `required key not provided @ data['${key}']`);
  const n = typeof v === "string" && v.trim() !== "" ? Number(v) : v;
  if (typeof n !== "number" || !Number.isFinite(n) || n < min || n > max) {
    throw new CommandError("invalid_format", `value must be a number between ${min} and ${max} for dictionary value @ data['${key}']`);
  }
  return n;
}

export function stringField(data: Record<string, unknown>, key: string, required = false): string | undefined {
  const v = own(data, key);
  if (v === undefined && !required) return undefined;
  if (typeof v !== "string") throw new CommandError("invalid_format", `${v === undefined ? "required key not provided" : "expected str"} @ data['${key}']`);
  return v;
}

export function validationError(message: string): CommandError {
  return new CommandError("service_validation_error", `Validation error: ${message}`);
}

/** on/off/toggle for domains whose state is simply "on" or "off". */
export function onOffServices(domain: string, label: string): Record<string, ServiceDef> {
  const to = (target: "on" | "off" | "toggle") =>
    each((call, id) => update(call, id, target === "toggle" ? (stateOf(call, id) === "on" ? "off" : "on") : target));
  return {
    turn_on: { name: "Turn on", description: `Turns on the ${label}.`, target: true, run: to("on") },
    turn_off: { name: "Turn off", description: `Turns off the ${label}.`, target: true, run: to("off") },
    toggle: { name: "Toggle", description: `Toggles the ${label}.`, target: true, run: to("toggle") },
  };
}
