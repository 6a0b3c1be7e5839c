import type { DeviceInfo, EntityFilter, IndexedEntity } from "../indexer/index.js";
import { HaAgentError, localStamp, localTime } from "../shared/index.js";
import { PersonaError } from "./errors.js";
import type { PersonaContext } from "./persona.js";

const DOWN = new Set(["unavailable", "unknown"]);

/** A device by id or name (any case). */
export function findDevice(ctx: PersonaContext, wanted: string): DeviceInfo {
  const lower = wanted.toLowerCase();
  const devices = ctx.index.devices();
  const device = devices.find((d) => d.deviceId === wanted) ?? devices.find((d) => d.name.toLowerCase() === lower);
  if (!device) throw new PersonaError("not_found", `No device "${wanted}" in this home. Give its name as Home Assistant shows it, or let completion suggest one.`);
  return device;
}

/** Entities of an area (by id, name or alias) as the agent may see them. */
export function areaEntities(ctx: PersonaContext, area: string, floor?: string): IndexedEntity[] {
  return queryEntities(ctx, { ...(area ? { area } : {}), ...(floor ? { floor } : {}) });
}

/** The index's query; a filter value that names nothing becomes `not_found` with the index's own message. */
export function queryEntities(ctx: PersonaContext, filter: EntityFilter): IndexedEntity[] {
  try {
    return ctx.index.query(filter);
  } catch (err) {
    if (err instanceof HaAgentError) throw new PersonaError("not_found", err.message);
    throw err;
  }
}

export const isDown = (e: IndexedEntity): boolean => !e.state || DOWN.has(e.state.state);

/** One entity as a priming line: id, name, area, state with unit, and since when. */
export function stateLine(e: IndexedEntity, now: number, zone: string): string {
  const unit = e.unit ?? (typeof e.state?.attributes.unit_of_measurement === "string" ? e.state.attributes.unit_of_measurement : null);
  const state = e.state ? `${e.state.state}${unit ? ` ${unit}` : ""} since ${when(e.state.lastChanged, now, zone)}` : "no state";
  return `- ${e.entityId} (${e.name}${e.areaName ? `, ${e.areaName}` : ""}): ${state}`;
}

/** A time in Home Assistant's time zone, "14:02 CET", with the date when it is not today there. */
export const when = (ms: number, now: number, zone: string): string => localTime(ms, now, zone);

/** Home Assistant's time zone, for every time priming writes; UTC where the context has none. */
export const zoneOf = async (ctx: PersonaContext): Promise<string> => (ctx.timeZone ? await ctx.timeZone() : "UTC");

/** "(as of 2026-11-26 14:02 CET)" for a priming's heading. */
export const asOf = (now: number, zone: string): string => `(as of ${localStamp(now, zone)})`;
