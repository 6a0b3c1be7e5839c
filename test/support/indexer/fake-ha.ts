import type {
  EntitiesMessage,
  HaClient,
  HassEvent,
  HistoryResult,
  LogbookEntry,
  SystemLogEntry,
} from "../../../src/ha/index.js";
import { callerView, HaCommandError } from "../../../src/ha/index.js";
import type { Registries } from "../../../src/indexer/model.js";

/**
 * A scripted HaClient for unit tests: registries and logs are plain fields,
 * entity messages and registry events are pushed by the test.
 */
export interface FakeHa extends HaClient {
  registries: Registries;
  historyResult: HistoryResult;
  logbookEntries: LogbookEntry[];
  systemLogEntries: SystemLogEntry[];
  errorLogText: string;
  registryFetches: number;
  /** The id lists `get_entries` was called with. */
  extendedRequests: string[][];
  pushEntities(message: EntitiesMessage, snapshot: boolean): void;
  fireEvent(eventType: string, data?: Record<string, unknown>): void;
  reconnect(): void;
  /** Entity and event subscriptions not yet unsubscribed. */
  activeSubscriptions(): number;
}

export function createFakeHa(registries: Registries): FakeHa {
  const entityListeners = new Set<(m: EntitiesMessage, snapshot: boolean) => void>();
  const eventListeners = new Map<string, Set<(e: HassEvent) => void>>();
  const readyListeners = new Set<() => void>();
  const unsupported = (what: string) => () => Promise.reject(new Error(`${what} is not scripted in FakeHa`));
  const fake: FakeHa = {
    registries,
    historyResult: {},
    logbookEntries: [],
    systemLogEntries: [],
    errorLogText: "",
    registryFetches: 0,
    extendedRequests: [],
    status: "connected",
    haVersion: "2026.1.0",
    // Tests that take HA away set status and this together.
    lastSeenAt: undefined,
    onStatus: () => () => undefined,
    onReady(listener) {
      readyListeners.add(listener);
      return () => readyListeners.delete(listener);
    },
    async sendCommand<T>(message: { type: string }): Promise<T> {
      if (message.type === "config_entries/get") return fake.registries.configEntries as T;
      throw new Error(`command ${message.type} is not scripted in FakeHa`);
    },
    async subscribeEvents(eventType, listener) {
      const key = eventType ?? "*";
      const set = eventListeners.get(key) ?? new Set();
      set.add(listener);
      eventListeners.set(key, set);
      return async () => void set.delete(listener);
    },
    activeSubscriptions: () => entityListeners.size + [...eventListeners.values()].reduce((n, set) => n + set.size, 0),
    async subscribeEntities(listener) {
      entityListeners.add(listener);
      return async () => void entityListeners.delete(listener);
    },
    getStates: unsupported("getStates"),
    getConfig: unsupported("getConfig"),
    getServices: unsupported("getServices"),
    currentUser: unsupported("currentUser"),
    callService: unsupported("callService"),
    async listEntityRegistry() {
      fake.registryFetches++;
      return fake.registries.entities;
    },
    async getEntityRegistryEntries(ids) {
      fake.extendedRequests.push(ids);
      return Object.fromEntries(ids.map((id) => [id, fake.registries.extended[id] ?? null])) as never;
    },
    listDeviceRegistry: async () => fake.registries.devices,
    listAreaRegistry: async () => fake.registries.areas,
    listFloorRegistry: async () => fake.registries.floors,
    listLabelRegistry: async () => fake.registries.labels,
    listExposedEntities: async () => ({ exposed_entities: {} }),
    getExposeNewEntities: async () => ({ expose_new: true }),
    history: async () => fake.historyResult,
    logbook: async () => fake.logbookEntries,
    systemLog: async () => fake.systemLogEntries,
    statistics: unsupported("statistics"),
    statisticsMetadata: unsupported("statisticsMetadata"),
    // As Home Assistant answers when the Energy dashboard was never set up.
    energyPrefs: () => Promise.reject(new HaCommandError("not_found", "No prefs")),
    renderTemplate: unsupported("renderTemplate"),
    restGet: unsupported("restGet"),
    restPost: unsupported("restPost"),
    errorLog: async () => fake.errorLogText,
    close: async () => undefined,
    // The real client's view for one person, so admin-only reads are refused as they would be.
    forCaller: (caller) => callerView(fake, caller),
    pushEntities(message, snapshot) {
      for (const l of entityListeners) l(message, snapshot);
    },
    fireEvent(eventType, data = {}) {
      const event: HassEvent = { event_type: eventType, data, origin: "LOCAL", time_fired: new Date(0).toISOString(), context: { id: "x", parent_id: null, user_id: null } };
      for (const l of eventListeners.get(eventType) ?? []) l(event);
    },
    reconnect() {
      for (const l of readyListeners) l();
    },
  };
  return fake;
}
