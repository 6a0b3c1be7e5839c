import type { Connection } from "home-assistant-js-websocket";
import { describeError, systemClock } from "../shared/index.js";
import { ERROR_LOG } from "./admin-reads.js";
import { callerView } from "./caller-view.js";
import { createManagedConnection, type ConnectionOptions } from "./connection.js";
import { HaCommandError, HaNotConnectedError } from "./errors.js";
import * as messages from "./messages.js";
import { normalizeHaError } from "./normalize-error.js";
import { restGetJson, restGetText, restPostJson, type RestOptions } from "./rest.js";
import type {
  AreaRegistryEntry,
  CallServiceResult,
  ConnectionStatus,
  DeviceRegistryEntry,
  EnergyPrefs,
  EntitiesMessage,
  EntityRegistryEntry,
  ExtendedEntityRegistryEntry,
  FloorRegistryEntry,
  HaClient,
  HassConfig,
  HassEvent,
  HassServices,
  HassState,
  HassUser,
  HistoryResult,
  LabelRegistryEntry,
  LogbookEntry,
  RenderedTemplate,
  StatisticMetadata,
  StatisticValue,
  SystemLogEntry,
  Unsubscribe,
} from "./types.js";

export interface HaClientOptions extends ConnectionOptions {
  /** REST base including `/api`, e.g. `http://127.0.0.1:8123/api`. */
  apiUrl: string;
  fetch?: typeof fetch;
  /** Per REST request. Default 10 000. */
  restTimeoutMs?: number;
}

/** How long past a template's time limit an answer may take to arrive before the call gives up. */
const TEMPLATE_ANSWER_GRACE_MS = 500;

/** What a `render_template` subscription sends: a rendering, or (with report_errors) an error. */
type RenderTemplateEvent = { result: unknown; listeners?: unknown } | { error: string; level?: string };

const NOT_CONNECTED_REASON: Record<ConnectionStatus, string> = {
  connecting: "still connecting; wait for connect() or onReady",
  connected: "connected",
  reconnecting: "the connection dropped and is being re-established; retry shortly",
  auth_failed: "Home Assistant rejected the token; fix HA_TOKEN (or the add-on's Supervisor token) and restart",
  closed: "the client is closed",
};

/**
 * The HA connection the rest of the program uses: typed commands, entity and
 * event subscriptions that survive reconnects, and REST helpers. Call
 * `connect()` once; it resolves when authenticated, rejects with HaAuthError
 * (token refused) or HaConnectionError (HA unreachable on the first attempt).
 */
export function createHaClient(options: HaClientOptions): HaClient & { connect(): Promise<void> } {
  const log = options.logger;
  const clock = options.clock ?? systemClock;
  const connection = createManagedConnection(options);
  // When the last connection was lost; tools mark answers from cached states with it.
  let everConnected = false;
  let lostAt: number | undefined;
  connection.onStatus((status) => {
    if (status === "connected") {
      everConnected = true;
      lostAt = undefined;
    } else if (everConnected && lostAt === undefined) {
      lostAt = clock.now();
    }
  });
  const rest: RestOptions = {
    apiUrl: options.apiUrl,
    token: options.token,
    fetch: options.fetch ?? globalThis.fetch,
    timeoutMs: options.restTimeoutMs ?? 10_000,
  };

  function live(): Connection {
    const conn = connection.current();
    if (!conn || connection.status !== "connected") throw new HaNotConnectedError(NOT_CONNECTED_REASON[connection.status]);
    return conn;
  }

  async function sendCommand<T>(message: { type: string; [key: string]: unknown }): Promise<T> {
    try {
      // The library writes `id` into the object it is given, so hand it a copy.
      const { id: _ignored, ...copy } = message;
      return await live().sendMessagePromise<T>(copy);
    } catch (err) {
      throw normalizeHaError(err);
    }
  }

  /**
   * A subscription the library re-establishes after every reconnect. `onSubscribe`
   * runs right before each (re)subscription is sent.
   */
  async function subscribe<E>(message: messages.HaMessage, listener: (event: E) => void, onSubscribe?: () => void): Promise<Unsubscribe> {
    const conn = live();
    let active = true;
    let cleaning = false;
    let unsubscribeLibrary: (() => Promise<void>) | undefined;
    const callback = (event: E) => {
      if (!active) {
        // Unsubscribed while disconnected: the library still resubscribed it, so drop it now.
        if (!cleaning && unsubscribeLibrary && connection.status === "connected") {
          cleaning = true;
          unsubscribeLibrary()
            .catch(() => undefined)
            .finally(() => {
              cleaning = false;
            });
        }
        return;
      }
      try {
        listener(event);
      } catch (err) {
        log.error({ err: describeError(err), subscription: message.type }, "an HA subscription listener threw; the subscription carries on");
      }
    };
    try {
      unsubscribeLibrary = await conn.subscribeMessage<E>(callback, message, {
        resubscribe: true,
        preCheck: () => {
          onSubscribe?.();
          return true;
        },
      });
    } catch (err) {
      throw normalizeHaError(err);
    }
    const unsubscribe = unsubscribeLibrary;
    return async () => {
      if (!active) return;
      active = false;
      try {
        await unsubscribe();
      } catch (err) {
        const normalized = normalizeHaError(err);
        if (!(normalized instanceof HaNotConnectedError)) throw normalized;
      }
    };
  }

  function subscribeEntities(listener: (message: EntitiesMessage, snapshot: boolean) => void): Promise<Unsubscribe> {
    // The first message after each (re)subscription is HA's full snapshot.
    let snapshotNext = true;
    return subscribe<EntitiesMessage>(
      messages.subscribeEntitiesMessage(),
      (message) => {
        const snapshot = snapshotNext;
        snapshotNext = false;
        listener(message, snapshot);
      },
      () => {
        snapshotNext = true;
      },
    );
  }

  async function renderTemplate(args: { template: string; variables?: Record<string, unknown>; timeoutMs?: number }): Promise<RenderedTemplate> {
    const conn = live();
    const warnings: string[] = [];
    return new Promise((resolve, reject) => {
      let settled = false;
      let unsubscribe: (() => Promise<void>) | undefined;
      const finish = (settle: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        stopWatching();
        settle();
        unsubscribe?.().catch(() => undefined);
      };
      // HA refuses a template that would render longer than the limit itself; this bounds a Home Assistant that does not answer at all.
      const timer =
        args.timeoutMs === undefined
          ? undefined
          : setTimeout(
              () => finish(() => reject(new HaCommandError("template_timeout", `Home Assistant did not render the template within ${args.timeoutMs} ms.`))),
              args.timeoutMs + TEMPLATE_ANSWER_GRACE_MS,
            );
      // A one-shot subscription is not resubscribed, so a drop would leave it pending forever.
      const stopWatching = connection.onStatus((status) => {
        if (status !== "connected") finish(() => reject(new HaNotConnectedError(NOT_CONNECTED_REASON[status])));
      });
      conn
        .subscribeMessage<RenderTemplateEvent>(
          (event) => {
            if ("result" in event) finish(() => resolve({ result: event.result, warnings }));
            // Warnings (an undefined name) come before the result they belong to.
            else if (event.level === "WARNING") warnings.push(event.error);
            else finish(() => reject(new HaCommandError("template_error", event.error)));
          },
          messages.renderTemplateMessage(args),
          { resubscribe: false },
        )
        .then(
          (unsub) => {
            unsubscribe = unsub;
            if (settled) unsub().catch(() => undefined);
          },
          (err: unknown) => finish(() => reject(normalizeHaError(err))),
        );
    });
  }

  const client: HaClient & { connect(): Promise<void> } = {
    get status() {
      return connection.status;
    },
    get haVersion() {
      return connection.haVersion;
    },
    get lastSeenAt() {
      return connection.status === "connected" ? clock.now() : lostAt;
    },
    onStatus: (listener) => connection.onStatus(listener),
    onReady: (listener) => connection.onReady(listener),
    connect: () => connection.connect(),
    close: () => connection.close(),

    sendCommand,
    subscribeEvents: (eventType, listener) =>
      subscribe<HassEvent>(eventType === undefined ? { type: "subscribe_events" } : { type: "subscribe_events", event_type: eventType }, listener),
    subscribeEntities,

    getStates: () => sendCommand<HassState[]>(messages.getStatesMessage()),
    getConfig: () => sendCommand<HassConfig>(messages.getConfigMessage()),
    getServices: () => sendCommand<HassServices>(messages.getServicesMessage()),
    currentUser: () => sendCommand<HassUser>(messages.currentUserMessage()),
    callService: (args) => sendCommand<CallServiceResult>(messages.callServiceMessage(args)),

    listEntityRegistry: () => sendCommand<EntityRegistryEntry[]>(messages.registryListMessage("entity")),
    getEntityRegistryEntries: (entityIds) =>
      sendCommand<Record<string, ExtendedEntityRegistryEntry | null>>(messages.entityRegistryEntriesMessage(entityIds)),
    listDeviceRegistry: () => sendCommand<DeviceRegistryEntry[]>(messages.registryListMessage("device")),
    listAreaRegistry: () => sendCommand<AreaRegistryEntry[]>(messages.registryListMessage("area")),
    listFloorRegistry: () => sendCommand<FloorRegistryEntry[]>(messages.registryListMessage("floor")),
    listLabelRegistry: () => sendCommand<LabelRegistryEntry[]>(messages.registryListMessage("label")),
    listExposedEntities: () => sendCommand(messages.exposedEntitiesMessage()),
    getExposeNewEntities: (assistant) => sendCommand(messages.exposeNewEntitiesMessage(assistant)),

    history: (args) => sendCommand<HistoryResult>(messages.historyMessage(args)),
    logbook: (args) => sendCommand<LogbookEntry[]>(messages.logbookMessage(args)),
    systemLog: () => sendCommand<SystemLogEntry[]>(messages.systemLogMessage()),
    statistics: (args) => sendCommand<Record<string, StatisticValue[]>>(messages.statisticsMessage(args)),
    statisticsMetadata: (ids) => sendCommand<StatisticMetadata[]>(messages.statisticsMetadataMessage(ids)),
    energyPrefs: () => sendCommand<EnergyPrefs>(messages.energyPrefsMessage()),
    renderTemplate,

    restGet: <T>(path: string) => restGetJson<T>(rest, path),
    restPost: <T>(path: string, body: unknown) => restPostJson<T>(rest, path, body),
    errorLog: () => restGetText(rest, ERROR_LOG.rest.path),
    forCaller: (caller) => callerView(client, caller),
  };
  return client;
}
