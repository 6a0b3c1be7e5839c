import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { createHomeIndex } from "../../src/indexer/index.js";
import { silentLogger } from "../../src/shared/index.js";
import { demoHouse, startSimulator, type Simulator } from "@ha-agent/ha-simulator";
import { createHaClient } from "../../src/ha/client.js";
import * as messages from "../../src/ha/messages.js";
import { waitUntil } from "../support/ha/wait.js";

/**
 * The simulator refuses unknown or misspelled fields as HA does, so driving
 * every command the product sends through it proves HA would accept them.
 * Each message builder needs a sample here: a new builder without one fails.
 */
const SAMPLES: Record<keyof typeof messages, () => messages.HaMessage | undefined> = {
  getStatesMessage: () => messages.getStatesMessage(),
  getConfigMessage: () => messages.getConfigMessage(),
  getServicesMessage: () => messages.getServicesMessage(),
  currentUserMessage: () => messages.currentUserMessage(),
  systemLogMessage: () => messages.systemLogMessage(),
  registryListMessage: () => messages.registryListMessage("device"),
  entityRegistryEntriesMessage: () => messages.entityRegistryEntriesMessage(["light.kitchen_ceiling"]),
  callServiceMessage: () => messages.callServiceMessage({ domain: "light", service: "turn_on" }),
  historyMessage: () => messages.historyMessage({ startTime: new Date(), entityIds: ["light.kitchen_ceiling"] }),
  logbookMessage: () => messages.logbookMessage({ startTime: new Date() }),
  statisticsMessage: () => messages.statisticsMessage({ startTime: new Date(), statisticIds: [], period: "hour" }),
  renderTemplateMessage: () => messages.renderTemplateMessage({ template: "{{ 1 }}" }),
  statisticsMetadataMessage: () => messages.statisticsMetadataMessage(),
  energyPrefsMessage: () => messages.energyPrefsMessage(),
  subscribeEntitiesMessage: () => messages.subscribeEntitiesMessage(),
  exposedEntitiesMessage: () => messages.exposedEntitiesMessage(),
  exposeNewEntitiesMessage: () => messages.exposeNewEntitiesMessage("conversation"),
};

let sim: Simulator;
const sent: { type?: string; id?: number }[] = [];
const failed: { id?: number; error?: { code: string; message: string } }[] = [];

/** A real `ws` socket that records what the product sends and which commands HA refused. */
function recordingSocket(url: string): WebSocket {
  const ws = new WebSocket(url);
  const send = ws.send.bind(ws);
  ws.send = ((data: string, ...rest: never[]) => {
    sent.push(JSON.parse(String(data)) as { type?: string });
    return send(data, ...rest);
  }) as typeof ws.send;
  ws.on("message", (data) => {
    const parsed = JSON.parse(String(data)) as unknown;
    for (const m of (Array.isArray(parsed) ? parsed : [parsed]) as { type?: string; success?: boolean }[]) {
      if (m.type === "result" && m.success === false) failed.push(m as (typeof failed)[number]);
    }
  });
  return ws;
}

beforeEach(async () => {
  sent.length = 0;
  failed.length = 0;
  sim = await startSimulator({ house: demoHouse() });
});

afterEach(async () => {
  await sim.close();
});

describe("every request the product sends passes HA's strict schemas", () => {
  it("drives each client call, with every option set, and the index's own commands", async () => {
    const ha = createHaClient({
      wsUrl: sim.wsUrl, apiUrl: sim.apiUrl, token: sim.users.tokenFor(), logger: silentLogger, createWebSocket: recordingSocket, pingIntervalMs: 30,
    });
    const index = createHomeIndex({ ha, logger: silentLogger, registryDebounceMs: 10 });
    try {
      await ha.connect();
      await index.start();
      const day = { startTime: new Date(Date.now() - 86_400_000), endTime: new Date() };
      await ha.getStates();
      await ha.getConfig();
      await ha.getServices();
      await ha.currentUser();
      await ha.systemLog();
      await ha.listEntityRegistry();
      await ha.getEntityRegistryEntries(["light.kitchen_ceiling", "sensor.kitchen_temperature"]);
      await Promise.all([ha.listDeviceRegistry(), ha.listAreaRegistry(), ha.listFloorRegistry(), ha.listLabelRegistry()]);
      await ha.callService({
        domain: "light", service: "turn_on", serviceData: { brightness_pct: 30 },
        target: { entity_id: "light.kitchen_ceiling", device_id: [], area_id: "kitchen", floor_id: [], label_id: [] }, returnResponse: false,
      });
      await ha.callService({ domain: "weather", service: "get_forecasts", serviceData: { type: "daily" }, target: { entity_id: "weather.forecast_home" }, returnResponse: true });
      await ha.history({ ...day, entityIds: ["light.kitchen_ceiling"], minimalResponse: true, noAttributes: true, significantChangesOnly: false });
      await ha.logbook({ ...day, entityIds: ["light.kitchen_ceiling"], deviceIds: [index.entity("light.kitchen_ceiling")!.deviceId!] });
      await ha.statistics({ ...day, statisticIds: ["sensor.kitchen_temperature"], period: "year", types: ["mean", "last_reset"], units: { temperature: "°F" } });
      await ha.statisticsMetadata(["sensor.kitchen_temperature"]);
      await ha.energyPrefs();
      await ha.renderTemplate({ template: "{{ states('light.kitchen_ceiling') }} {{ x }}", variables: { x: 1 }, timeoutMs: 2_000 });
      await ha.listExposedEntities();
      await ha.getExposeNewEntities("conversation");
      const unsubEntities = await ha.subscribeEntities(() => undefined);
      const unsubAll = await ha.subscribeEvents(undefined, () => undefined);
      const unsubOne = await ha.subscribeEvents("state_changed", () => undefined);
      await Promise.all([unsubEntities(), unsubAll(), unsubOne()]);
      await waitUntil(() => sent.some((m) => m.type === "ping"), "a heartbeat ping");
    } finally {
      await index.stop();
      await ha.close();
    }

    expect(failed).toEqual([]);
    const types = new Set(sent.map((m) => m.type));
    const built = Object.values(SAMPLES).map((sample) => sample()?.type);
    for (const type of [...built, "auth", "supported_features", "ping", "subscribe_events", "unsubscribe_events", "config_entries/get"]) {
      expect(types, `the product never sent ${type} in this test`).toContain(type);
    }
    expect(Object.keys(SAMPLES).sort()).toEqual(Object.keys(messages).filter((k) => typeof messages[k as keyof typeof messages] === "function").sort());
  });
});
