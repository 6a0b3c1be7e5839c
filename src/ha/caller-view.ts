import { describeRead, mayRead, ERROR_LOG, type HaRequest } from "./admin-reads.js";
import { HaAdminOnlyError } from "./errors.js";
import * as messages from "./messages.js";
import type { CallerHa, HaCaller, HaClient } from "./types.js";

/**
 * Home Assistant as `caller` may read it, over the program's own client:
 * each request is checked against the list of admin-only reads, from the
 * same message builders the client sends, before it goes out. Generic
 * commands and REST paths are checked the same way, so a new read cannot
 * slip past the list by taking another method.
 */
export function callerView(client: HaClient, caller: HaCaller): CallerHa {
  const check = (request: HaRequest): void => {
    if (!mayRead(caller, request)) throw new HaAdminOnlyError(describeRead(request));
  };
  /** Checks, then sends; an async function, so a refusal is a rejected promise like any other failure. */
  const checked = async <T>(request: HaRequest, send: () => Promise<T>): Promise<T> => {
    check(request);
    return send();
  };
  const ws = (message: { type: string }): HaRequest => ({ websocket: message.type });
  return {
    get status() {
      return client.status;
    },
    get lastSeenAt() {
      return client.lastSeenAt;
    },
    allows: (request) => mayRead(caller, request),
    history: (args) => checked(ws(messages.historyMessage(args)), () => client.history(args)),
    logbook: (args) => checked(ws(messages.logbookMessage(args)), () => client.logbook(args)),
    statistics: (args) => checked(ws(messages.statisticsMessage(args)), () => client.statistics(args)),
    systemLog: () => checked(ws(messages.systemLogMessage()), () => client.systemLog()),
    errorLog: () => checked(ERROR_LOG, () => client.errorLog()),
    statisticsMetadata: (ids) => checked(ws(messages.statisticsMetadataMessage(ids)), () => client.statisticsMetadata(ids)),
    energyPrefs: () => checked(ws(messages.energyPrefsMessage()), () => client.energyPrefs()),
    renderTemplate: (args) => checked(ws(messages.renderTemplateMessage(args)), () => client.renderTemplate(args)),
    callService: (args) => checked(ws(messages.callServiceMessage(args)), () => client.callService(args)),
    getStates: () => checked(ws(messages.getStatesMessage()), () => client.getStates()),
    getConfig: () => checked(ws(messages.getConfigMessage()), () => client.getConfig()),
    getServices: () => checked(ws(messages.getServicesMessage()), () => client.getServices()),
    sendCommand: <T>(message: { type: string; [key: string]: unknown }) => checked(ws(message), () => client.sendCommand<T>(message)),
    restGet: <T>(path: string) => checked({ rest: { method: "GET", path } }, () => client.restGet<T>(path)),
    restPost: <T>(path: string, body: unknown) => checked({ rest: { method: "POST", path } }, () => client.restPost<T>(path, body)),
  };
}
