/**
 * The shapes Home Assistant sends over its WebSocket and REST APIs, as the
 * simulator sends them. Field names are HA's own (snake_case); each shape
 * follows the Python that makes it in HA Core (`core.py` State.as_dict and
 * as_compressed_state, the registries' `*_registry.py` json_repr, and so on).
 *
 * HA Agent declares the same shapes for what it reads (its `src/ha/types.ts`).
 * The two are kept apart on purpose: this package must not import the
 * product, and a shape the product gets wrong must not silently become what
 * its stand-in for Home Assistant sends, or the tests would agree with it.
 */

export interface HassContext {
  id: string;
  parent_id: string | null;
  user_id: string | null;
}

/** A full state object, as `get_states` and REST `/api/states` return it. */
export interface HassState {
  entity_id: string;
  state: string;
  attributes: Record<string, unknown>;
  /** ISO 8601 timestamps. */
  last_changed: string;
  last_updated: string;
  last_reported?: string;
  context: HassContext;
}

/** One entity in a `subscribe_entities` message. `lc`/`lu` are epoch seconds. */
export interface CompressedState {
  s: string;
  a: Record<string, unknown>;
  /** A context id, or the whole context object. */
  c: string | { id: string; parent_id?: string | null; user_id?: string | null };
  lc: number;
  /** Omitted when equal to `lc`. */
  lu?: number;
}

export interface CompressedStateDiff {
  "+"?: Partial<CompressedState>;
  "-"?: { a: string[] };
}

/** A `subscribe_entities` event: additions, removals and changes. */
export interface EntitiesMessage {
  a?: Record<string, CompressedState>;
  r?: string[];
  c?: Record<string, CompressedStateDiff>;
}

export interface EntityRegistryEntry {
  id: string;
  entity_id: string;
  unique_id: string;
  platform: string;
  device_id: string | null;
  area_id: string | null;
  config_entry_id: string | null;
  labels: string[];
  categories?: Record<string, string>;
  disabled_by: string | null;
  hidden_by: string | null;
  entity_category: "config" | "diagnostic" | null;
  has_entity_name: boolean;
  original_name: string | null;
  name: string | null;
  icon: string | null;
  translation_key: string | null;
  options?: Record<string, unknown>;
  created_at?: number;
  modified_at?: number;
}

/** What `config/entity_registry/get_entries` adds to a list entry. */
export interface ExtendedEntityRegistryEntry extends EntityRegistryEntry {
  aliases: string[];
  capabilities: Record<string, unknown> | null;
  device_class: string | null;
  original_device_class: string | null;
  original_icon: string | null;
}

/**
 * A device from `config/device_registry/list`. Since HA 2026.8 a device
 * belongs to one config entry (`config_entry_id`; the list fields are kept,
 * deprecated). Since 2026.9 a child device (`parent_device_id` set) is sent
 * without the hardware fields marked optional here, and is in its parent's
 * area when it has none.
 */
export interface DeviceRegistryEntry {
  id: string;
  name: string | null;
  name_by_user: string | null;
  area_id: string | null;
  labels: string[];
  identifiers: [string, string][];
  disabled_by: string | null;
  config_entry_id?: string | null;
  config_subentry_id?: string | null;
  parent_device_id?: string | null;
  manufacturer?: string | null;
  model?: string | null;
  model_id?: string | null;
  config_entries?: string[];
  config_entries_subentries?: Record<string, (string | null)[]>;
  primary_config_entry?: string | null;
  connections?: [string, string][];
  sw_version?: string | null;
  hw_version?: string | null;
  serial_number?: string | null;
  via_device_id?: string | null;
  entry_type?: string | null;
  configuration_url?: string | null;
  created_at?: number;
  modified_at?: number;
}

export interface AreaRegistryEntry {
  area_id: string;
  name: string;
  floor_id: string | null;
  aliases: string[];
  icon: string | null;
  labels: string[];
  picture: string | null;
  humidity_entity_id: string | null;
  temperature_entity_id: string | null;
  created_at?: number;
  modified_at?: number;
}

export interface FloorRegistryEntry {
  floor_id: string;
  name: string;
  level: number | null;
  icon: string | null;
  aliases: string[];
  created_at?: number;
  modified_at?: number;
}

export interface LabelRegistryEntry {
  label_id: string;
  name: string;
  icon: string | null;
  color: string | null;
  description: string | null;
  created_at?: number;
  modified_at?: number;
}

export interface HassConfig {
  location_name: string;
  version: string;
  time_zone: string;
  unit_system: Record<string, string>;
  components: string[];
  latitude: number;
  longitude: number;
  elevation: number;
  country: string | null;
  language: string;
  currency: string;
  state: string;
  /** The addresses set in Settings → System → Network; null until someone sets them. */
  external_url?: string | null;
  internal_url?: string | null;
  [key: string]: unknown;
}

/** `get_services`: domain → service → description. */
export type HassServices = Record<string, Record<string, { name?: string; description?: string; fields: Record<string, unknown>; target?: unknown }>>;

export interface HassUser {
  id: string;
  name: string;
  is_owner: boolean;
  is_admin: boolean;
  credentials: { auth_provider_type: string; auth_provider_id: string | null }[];
  mfa_modules: unknown[];
}

/** One `system_log/list` entry, as HA's system_log integration reports it. */
export interface SystemLogEntry {
  name: string;
  message: string[];
  level: "DEBUG" | "INFO" | "WARNING" | "ERROR" | "CRITICAL";
  source: [string, number];
  /** Epoch seconds. */
  timestamp: number;
  first_occurred: number;
  count: number;
  exception: string;
}

/** `history/history_during_period` with `minimal_response`: entity → compressed rows. */
export type HistoryResult = Record<string, { s: string; a?: Record<string, unknown>; lc?: number; lu: number }[]>;

/**
 * One `logbook/get_events` entry. A state change carries `when`, `state`,
 * `entity_id` (and `icon`), plus `context_*` fields saying what caused it;
 * HA sends no name for it, so look names up yourself. Entries described by
 * integrations (logbook messages, automations) carry `name` and `message`.
 */
export interface LogbookEntry {
  /** Epoch seconds. */
  when: number;
  entity_id?: string;
  state?: string;
  name?: string;
  message?: string;
  domain?: string;
  icon?: string;
  context_id?: string;
  context_user_id?: string;
  context_event_type?: string;
  context_domain?: string;
  context_service?: string;
  context_entity_id?: string;
  context_state?: string;
}

/** One period of `recorder/statistics_during_period`: `start`/`end` in epoch ms, then the requested types (null where the statistic has none). */
export interface StatisticValue {
  start: number;
  end: number;
  /** Epoch ms. */
  last_reset?: number | null;
  mean?: number | null;
  min?: number | null;
  max?: number | null;
  sum?: number | null;
  state?: number | null;
  change?: number | null;
}
