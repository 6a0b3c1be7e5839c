/**
 * A deliberately tiny stand-in for Home Assistant's WebSocket API, for the
 * client's own edge-case tests (the full simulator lives in src/simulator).
 * It speaks the auth phase, ping, get_states, subscribe_entities and
 * render_template, and can drop, freeze and refuse auth.
 */
import type { AddressInfo } from "node:net";
import { WebSocketServer, type WebSocket } from "ws";

type Entity = { s: string; a: Record<string, unknown>; c: string; lc: number };
type Sent = Record<string, unknown>;

export interface FakeHa {
  wsUrl: string;
  token: string;
  haVersion: string;
  entities: Map<string, Entity>;
  received: Sent[];
  setState(entityId: string, state: string): void;
  removeEntity(entityId: string): void;
  dropAll(): void;
  freeze(on: boolean): void;
  refuseAuth(on: boolean): void;
  connectionCount(): number;
  close(): Promise<void>;
}

/** `templateSilent`: render_template is subscribed but never rendered, as a Home Assistant stuck on a template. */
export async function startFakeHa(options: { token?: string; haVersion?: string; templateError?: string; templateSilent?: boolean } = {}): Promise<FakeHa> {
  const token = options.token ?? "fake-token";
  const server = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const entities = new Map<string, Entity>([
    ["light.kitchen", { s: "on", a: { friendly_name: "Kitchen" }, c: "c1", lc: 1 }],
    ["switch.fan", { s: "off", a: {}, c: "c2", lc: 1 }],
  ]);
  const received: Sent[] = [];
  const entitySubs = new Map<WebSocket, number[]>();
  let frozen = false;
  let refuse = false;
  let connections = 0;

  const send = (ws: WebSocket, message: Sent) => ws.send(JSON.stringify(message));
  const broadcast = (diff: Sent) => {
    if (frozen) return;
    for (const [ws, ids] of entitySubs) for (const id of ids) send(ws, { id, type: "event", event: diff });
  };

  server.on("connection", (ws) => {
    connections++;
    if (frozen) return; // a frozen HA accepts TCP but never speaks
    let authed = false;
    send(ws, { type: "auth_required", ha_version: fake.haVersion });
    ws.on("close", () => entitySubs.delete(ws));
    ws.on("message", (data) => {
      if (frozen) return;
      const msg = JSON.parse(String(data)) as Sent & { id: number; type: string };
      received.push(msg);
      if (!authed) {
        if (msg.type === "auth" && msg.access_token === token && !refuse) {
          authed = true;
          send(ws, { type: "auth_ok", ha_version: fake.haVersion });
        } else {
          send(ws, { type: "auth_invalid", message: "Invalid access token or password" });
          ws.close();
        }
        return;
      }
      const result = (value: unknown) => send(ws, { id: msg.id, type: "result", success: true, result: value });
      switch (msg.type) {
        case "ping":
          send(ws, { id: msg.id, type: "pong" });
          return;
        case "supported_features":
          result(null);
          return;
        case "get_states":
          result([...entities].map(([entity_id, e]) => ({ entity_id, state: e.s, attributes: e.a })));
          return;
        case "subscribe_entities":
          entitySubs.set(ws, [...(entitySubs.get(ws) ?? []), msg.id]);
          result(null);
          send(ws, { id: msg.id, type: "event", event: { a: Object.fromEntries(entities) } });
          return;
        case "subscribe_events":
          result(null);
          return;
        case "unsubscribe_events":
          entitySubs.set(ws, (entitySubs.get(ws) ?? []).filter((id) => id !== msg.subscription));
          result(null);
          return;
        case "render_template":
          result(null);
          if (options.templateSilent) return;
          if (options.templateError) send(ws, { id: msg.id, type: "event", event: { error: options.templateError, level: "ERROR" } });
          else {
            send(ws, { id: msg.id, type: "event", event: { error: "just a warning", level: "WARNING" } });
            send(ws, { id: msg.id, type: "event", event: { result: `rendered:${String(msg.template)}`, listeners: {} } });
          }
          return;
        default:
          send(ws, { id: msg.id, type: "result", success: false, error: { code: "unknown_command", message: "Unknown command." } });
      }
    });
  });

  const fake: FakeHa = {
    wsUrl: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/api/websocket`,
    token,
    haVersion: options.haVersion ?? "2026.1.0",
    entities,
    received,
    setState(entityId, state) {
      const existing = entities.get(entityId);
      if (existing) {
        existing.s = state;
        broadcast({ c: { [entityId]: { "+": { s: state } } } });
      } else {
        const added = { s: state, a: {}, c: "cx", lc: 2 };
        entities.set(entityId, added);
        broadcast({ a: { [entityId]: added } });
      }
    },
    removeEntity(entityId) {
      entities.delete(entityId);
      broadcast({ r: [entityId] });
    },
    dropAll() {
      for (const ws of server.clients) ws.terminate();
    },
    freeze(on) {
      frozen = on;
    },
    refuseAuth(on) {
      refuse = on;
    },
    connectionCount: () => connections,
    async close() {
      for (const ws of server.clients) ws.terminate();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  return fake;
}
