import type { HaRequest } from "./admin-reads.js";
/**
 * The shapes Home Assistant sends over its WebSocket and REST APIs, and the
 * interface the rest of the program uses to talk to it. Field names are HA's
 * own (snake_case), so that what we read matches what HA documents.
 */

export type ConnectionStatus = "connecting" | "connected" | "reconnecting" | "auth_failed" | "closed";

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

export interface HassEvent {
  event_type: string;
  data: Record<string, unknown>;
  origin: string;
  time_fired: string;
  context: HassContext;
}

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

/** One entry of `recorder/get_statistics_metadata` (`recorder/statistics.py`, `_flatten_list_statistic_ids_metadata_result`). */
export interface StatisticMetadata {
  statistic_id: string;
  /** The unit values come in unless `units` asks for another. */
  display_unit_of_measurement: string | null;
  statistics_unit_of_measurement: string | null;
  has_mean?: boolean;
  /** 0 none, 1 arithmetic, 2 circular (HA 2025.4+); older HA sends only `has_mean`. */
  mean_type?: number;
  has_sum: boolean;
  name: string | null;
  source: string;
  unit_class: string | null;
}

/**
 * `energy/get_prefs`, as HA stores the Energy dashboard (`energy/data.py`).
 * Sources are kept loose here: grid connections come in the current shape
 * (`stat_energy_from`/`stat_energy_to`) or, from older installs, as
 * `flow_from`/`flow_to` lists; readers check the fields they use.
 */
export interface EnergyPrefs {
  energy_sources: Record<string, unknown>[];
  device_consumption: Record<string, unknown>[];
  device_consumption_water?: Record<string, unknown>[];
}

/** A rendered template: the result as HA parsed it (text, a number, a list…), and HA's warnings about it. */
export interface RenderedTemplate {
  result: unknown;
  warnings: string[];
}

export interface CallServiceArgs {
  domain: string;
  service: string;
  serviceData?: Record<string, unknown>;
  target?: { entity_id?: string | string[]; device_id?: string | string[]; area_id?: string | string[]; floor_id?: string | string[]; label_id?: string | string[] };
  returnResponse?: boolean;
}

export interface CallServiceResult {
  context: HassContext;
  response?: unknown;
}

export type Unsubscribe = () => Promise<void>;

/**
 * The connection to Home Assistant that the rest of the program uses.
 * Commands fail with `HaCommandError` (a normalised `{code, message}`), or
 * `HaNotConnectedError` while the connection is down.
 */
/** Whom a read is made for: Home Assistant shows some things to administrators only. */
export interface HaCaller {
  readonly isAdmin: boolean;
}

/**
 * Home Assistant as one person may read it. Every request is checked
 * against the one list of admin-only reads (admin-reads.ts) before it is
 * sent: what Home Assistant shows only to administrators is refused with
 * HaAdminOnlyError (`admin_only`) for anyone else, whichever method asks.
 */
export interface CallerHa
  extends Pick<
    HaClient,
    "status" | "lastSeenAt" | "history" | "logbook" | "statistics" | "statisticsMetadata" | "energyPrefs" | "systemLog" | "errorLog" | "renderTemplate" | "callService" | "getStates" | "getConfig" | "getServices" | "sendCommand" | "restGet" | "restPost"
  > {
  /** Whether Home Assistant lets this person make `request`: for answers that leave a part out and say so. */
  allows(request: HaRequest): boolean;
}

/**
 * What tools and personas are given: the connection's state, and Home
 * Assistant as the person they answer may read it. They never hold the
 * program's own (administrator's) view of HA, so no read can skip the check.
 */
export interface HaAccess {
  readonly status: ConnectionStatus;
  readonly lastSeenAt: number | undefined;
  forCaller(caller: HaCaller): CallerHa;
}

export interface HaClient extends HaAccess {
  readonly status: ConnectionStatus;
  /** From `auth_required`/`auth_ok`; changes when HA is upgraded. */
  readonly haVersion: string | undefined;
  /**
   * Epoch ms when HA was last known to be there: now while connected, the
   * moment the connection was lost otherwise; undefined before the first connection.
   */
  readonly lastSeenAt: number | undefined;
  /** Called on every status change. Returns a function that removes the listener. */
  onStatus(listener: (status: ConnectionStatus) => void): () => void;
  /**
   * Called after each successful (re)connection, once subscriptions are back.
   * Consumers that cache HA data resync from scratch here.
   */
  onReady(listener: () => void): () => void;

  sendCommand<T>(message: { type: string; [key: string]: unknown }): Promise<T>;
  subscribeEvents(eventType: string | undefined, listener: (event: HassEvent) => void): Promise<Unsubscribe>;
  /**
   * `subscribe_entities`. The first message after every (re)subscription is a
   * complete snapshot (`snapshot: true`): entities missing from it are gone.
   * Later messages are diffs to apply on top.
   */
  subscribeEntities(listener: (message: EntitiesMessage, snapshot: boolean) => void): Promise<Unsubscribe>;

  getStates(): Promise<HassState[]>;
  getConfig(): Promise<HassConfig>;
  getServices(): Promise<HassServices>;
  currentUser(): Promise<HassUser>;
  callService(args: CallServiceArgs): Promise<CallServiceResult>;

  listEntityRegistry(): Promise<EntityRegistryEntry[]>;
  getEntityRegistryEntries(entityIds: string[]): Promise<Record<string, ExtendedEntityRegistryEntry | null>>;
  listDeviceRegistry(): Promise<DeviceRegistryEntry[]>;
  listAreaRegistry(): Promise<AreaRegistryEntry[]>;
  listFloorRegistry(): Promise<FloorRegistryEntry[]>;
  listLabelRegistry(): Promise<LabelRegistryEntry[]>;
  /** Explicit exposure settings per entity and assistant (`homeassistant/expose_entity/list`; admin only). */
  listExposedEntities(): Promise<{ exposed_entities: Record<string, Record<string, boolean>> }>;
  /** Whether new entities get HA's default exposure for `assistant` (admin only). */
  getExposeNewEntities(assistant: string): Promise<{ expose_new: boolean }>;

  history(args: { startTime: Date; endTime?: Date; entityIds: string[]; minimalResponse?: boolean; noAttributes?: boolean; significantChangesOnly?: boolean }): Promise<HistoryResult>;
  logbook(args: { startTime: Date; endTime?: Date; entityIds?: string[]; deviceIds?: string[] }): Promise<LogbookEntry[]>;
  systemLog(): Promise<SystemLogEntry[]>;
  statistics(args: {
    startTime: Date;
    endTime?: Date;
    statisticIds: string[];
    period: "5minute" | "hour" | "day" | "week" | "month" | "year";
    types?: ("change" | "last_reset" | "max" | "mean" | "min" | "state" | "sum")[];
    /** Unit class → unit, e.g. `{energy: "kWh"}`: values of that class come converted. */
    units?: Record<string, string>;
  }): Promise<Record<string, StatisticValue[]>>;
  statisticsMetadata(statisticIds?: string[]): Promise<StatisticMetadata[]>;
  energyPrefs(): Promise<EnergyPrefs>;
  /**
   * Renders a template once: the first result, then the subscription ends.
   * An error HA reports is HaCommandError (`template_error`, HA's message);
   * with `timeoutMs`, HA refuses a slower template and the call gives up
   * after that long (`template_timeout`).
   */
  renderTemplate(args: { template: string; variables?: Record<string, unknown>; timeoutMs?: number }): Promise<RenderedTemplate>;

  /** REST `GET {api}/{path}` with the client's token, parsed as JSON. */
  restGet<T>(path: string): Promise<T>;
  /** REST `POST {api}/{path}` with a JSON body and the client's token, the answer parsed as JSON. */
  restPost<T>(path: string, body: unknown): Promise<T>;
  /** REST `GET {api}/error_log` as text. */
  errorLog(): Promise<string>;

  close(): Promise<void>;
}
