/**
 * Pure builders for the WebSocket commands behind the typed helpers. They map
 * our camelCase arguments to HA's snake_case fields and dates to ISO strings,
 * and leave out what the caller did not set so HA applies its own defaults.
 */
import { SYSTEM_LOG } from "./admin-reads.js";
import type { CallServiceArgs, HaClient } from "./types.js";

export interface HaMessage {
  type: string;
  [key: string]: unknown;
}

function compact(message: Record<string, unknown>): HaMessage {
  return Object.fromEntries(Object.entries(message).filter(([, value]) => value !== undefined)) as HaMessage;
}

const iso = (date: Date | undefined): string | undefined => (date === undefined ? undefined : date.toISOString());

export const getStatesMessage = (): HaMessage => ({ type: "get_states" });
export const getConfigMessage = (): HaMessage => ({ type: "get_config" });
export const getServicesMessage = (): HaMessage => ({ type: "get_services" });
export const currentUserMessage = (): HaMessage => ({ type: "auth/current_user" });
export const systemLogMessage = (): HaMessage => ({ type: SYSTEM_LOG.websocket });

export const registryListMessage = (registry: "entity" | "device" | "area" | "floor" | "label"): HaMessage => ({
  type: `config/${registry}_registry/list`,
});

export const entityRegistryEntriesMessage = (entityIds: string[]): HaMessage => ({
  type: "config/entity_registry/get_entries",
  entity_ids: entityIds,
});

export function callServiceMessage(args: CallServiceArgs): HaMessage {
  return compact({
    type: "call_service",
    domain: args.domain,
    service: args.service,
    service_data: args.serviceData,
    target: args.target,
    return_response: args.returnResponse,
  });
}

export function historyMessage(args: Parameters<HaClient["history"]>[0]): HaMessage {
  return compact({
    type: "history/history_during_period",
    start_time: iso(args.startTime),
    end_time: iso(args.endTime),
    entity_ids: args.entityIds,
    minimal_response: args.minimalResponse,
    no_attributes: args.noAttributes,
    significant_changes_only: args.significantChangesOnly,
  });
}

export function logbookMessage(args: Parameters<HaClient["logbook"]>[0]): HaMessage {
  return compact({
    type: "logbook/get_events",
    start_time: iso(args.startTime),
    end_time: iso(args.endTime),
    entity_ids: args.entityIds,
    device_ids: args.deviceIds,
  });
}

export function statisticsMessage(args: Parameters<HaClient["statistics"]>[0]): HaMessage {
  return compact({
    type: "recorder/statistics_during_period",
    start_time: iso(args.startTime),
    end_time: iso(args.endTime),
    statistic_ids: args.statisticIds,
    period: args.period,
    types: args.types,
    units: args.units,
  });
}

/** The recorder's metadata of statistics: their units, names and whether they have a sum or a mean. All of them without ids. */
export const statisticsMetadataMessage = (statisticIds?: string[]): HaMessage => compact({ type: "recorder/get_statistics_metadata", statistic_ids: statisticIds });

/** The Energy dashboard's preferences; HA answers `not_found` "No prefs" when it was never set up. */
export const energyPrefsMessage = (): HaMessage => ({ type: "energy/get_prefs" });

export function renderTemplateMessage(args: Parameters<HaClient["renderTemplate"]>[0]): HaMessage {
  // report_errors makes HA send render errors as events instead of only logging them;
  // timeout (seconds) makes HA refuse a template that would render longer.
  return compact({ type: "render_template", template: args.template, variables: args.variables, timeout: args.timeoutMs === undefined ? undefined : args.timeoutMs / 1000, report_errors: true });
}

export const subscribeEntitiesMessage = (): HaMessage => ({ type: "subscribe_entities" });

/** Explicit voice-assistant exposure settings of every entity (admin only). */
export const exposedEntitiesMessage = (): HaMessage => ({ type: "homeassistant/expose_entity/list" });
/** Whether new entities are exposed to `assistant` by HA's defaults (admin only). */
export const exposeNewEntitiesMessage = (assistant: string): HaMessage => ({ type: "homeassistant/expose_new_entities/get", assistant });
