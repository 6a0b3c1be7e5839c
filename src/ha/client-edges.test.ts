import { afterEach, describe, expect, it } from "vitest";
import { silentLogger } from "../shared/index.js";
import { createHaClient, type HaClientOptions } from "./client.js";
import { HaAuthError, HaCommandError, HaConnectionError, HaNotConnectedError } from "./errors.js";
import { startFakeHa, type FakeHa } from "../../test/support/ha/fake-ha.js";
import { createEntityMirror } from "../../test/support/ha/entity-mirror.js";
import { recordStatuses, waitUntil } from "../../test/support/ha/wait.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function fake(options?: Parameters<typeof startFakeHa>[0]): Promise<FakeHa> {
  const ha = await startFakeHa(options);
  cleanups.push(() => ha.close());
  return ha;
}

function client(ha: { wsUrl: string; token: string }, overrides: Partial<HaClientOptions> = {}) {
  const c = createHaClient({
    wsUrl: ha.wsUrl,
    apiUrl: "http://127.0.0.1:1/api",
    token: ha.token,
    logger: silentLogger,
    pingIntervalMs: 30,
    pongTimeoutMs: 400,
    handshakeTimeoutMs: 1_000,
    backoff: { initialMs: 20, maxMs: 80 },
    ...overrides,
  });
  cleanups.push(() => c.close());
  return c;
}

describe("HA client against a minimal fake HA", () => {
  it("connects, reports the version, enables coalescing and answers commands", async () => {
    const ha = await fake();
    const c = client(ha);
    let ready = 0;
    c.onReady(() => ready++);
    await c.connect();
    expect(c.status).toBe("connected");
    expect(c.haVersion).toBe("2026.1.0");
    expect(ready).toBe(1);
    const states = await c.getStates();
    expect(states.map((s) => s.entity_id).sort()).toEqual(["light.kitchen", "switch.fan"]);
    // Sent before get_states on the same socket, so it has arrived by now.
    expect(ha.received).toContainEqual({ type: "supported_features", id: 1, features: { coalesce_messages: 1 } });
  });

  it("does not send supported_features to an HA older than 2022.9", async () => {
    const ha = await fake({ haVersion: "2022.8.7" });
    const c = client(ha);
    await c.connect();
    await c.getStates();
    expect(ha.received.some((m) => m.type === "supported_features")).toBe(false);
  });

  it("rejects a refused token with HaAuthError and status auth_failed, without leaking the token", async () => {
    const ha = await fake();
    const c = client({ wsUrl: ha.wsUrl, token: "not-the-token-5521" });
    const err = await c.connect().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HaAuthError);
    expect((err as Error).message).toMatch(/HA_TOKEN/);
    expect((err as Error).message).toMatch(/SUPERVISOR_TOKEN/);
    expect((err as Error).message).not.toContain("not-the-token-5521");
    expect(c.status).toBe("auth_failed");
  });

  it("rejects an unreachable HA with HaConnectionError naming the URL", async () => {
    const c = client({ wsUrl: "ws://127.0.0.1:1/api/websocket", token: "t" });
    const err = await c.connect().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HaConnectionError);
    expect((err as Error).message).toContain("ws://127.0.0.1:1/api/websocket");
    expect((err as Error).message).toContain("HA_URL");
  });

  it("treats a server that never speaks as unreachable once the handshake times out", async () => {
    const ha = await fake();
    ha.freeze(true);
    const err = await client(ha).connect().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HaConnectionError);
    expect((err as Error).message).toContain("no auth answer within 1000 ms");
  });

  it("with retryInitial keeps trying until HA answers", async () => {
    const ha = await fake();
    ha.freeze(true);
    const c = client(ha, { retryInitial: true });
    const connecting = c.connect();
    await waitUntil(() => ha.connectionCount() >= 2, "a second attempt");
    ha.freeze(false);
    await connecting;
    expect(c.status).toBe("connected");
  });

  it("normalises HA's error answers into HaCommandError", async () => {
    const ha = await fake();
    const c = client(ha);
    await c.connect();
    const err = await c.sendCommand({ type: "no/such_command" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HaCommandError);
    expect((err as HaCommandError).code).toBe("unknown_command");
  });

  it("renderTemplate resolves with the first rendering and the warnings that came before it", async () => {
    const ha = await fake();
    const c = client(ha);
    await c.connect();
    await expect(c.renderTemplate({ template: "{{ 1 + 1 }}" })).resolves.toEqual({ result: "rendered:{{ 1 + 1 }}", warnings: ["just a warning"] });
    // It unsubscribed after the first result.
    await waitUntil(() => ha.received.some((m) => m.type === "unsubscribe_events"), "unsubscribe_events");
  });

  it("renderTemplate gives up after its time limit when Home Assistant does not render, and unsubscribes", async () => {
    const ha = await fake({ templateSilent: true });
    const c = client(ha);
    await c.connect();
    const err = await c.renderTemplate({ template: "{{ 1 }}", timeoutMs: 100 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HaCommandError);
    expect((err as HaCommandError).code).toBe("template_timeout");
    expect((err as Error).message).toBe("Home Assistant did not render the template within 100 ms.");
    expect(ha.received.find((m) => m.type === "render_template")).toMatchObject({ timeout: 0.1 });
    await waitUntil(() => ha.received.some((m) => m.type === "unsubscribe_events"), "unsubscribe_events");
  });

  it("renderTemplate rejects with template_error on an error event", async () => {
    const ha = await fake({ templateError: "UndefinedError: 'foo' is undefined" });
    const c = client(ha);
    await c.connect();
    const err = await c.renderTemplate({ template: "{{ foo.bar }}" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HaCommandError);
    expect((err as HaCommandError).code).toBe("template_error");
    expect((err as Error).message).toContain("'foo' is undefined");
  });

  it("recovers from a drop: reconnecting → connected, onReady again, and a fresh snapshot without vanished entities", async () => {
    const ha = await fake();
    const c = client(ha);
    const statuses = recordStatuses(c);
    let ready = 0;
    c.onReady(() => ready++);
    await c.connect();
    const mirror = createEntityMirror();
    const stateOf = () => Object.fromEntries(mirror.states().map((e) => [e.entity_id, e.state]));
    await c.subscribeEntities((m, snapshot) => mirror.apply(m, snapshot));
    await waitUntil(() => mirror.snapshots() === 1, "the first snapshot");
    ha.setState("switch.fan", "on");
    await waitUntil(() => stateOf()["switch.fan"] === "on", "a diff");

    ha.freeze(true); // nothing reaches us while we change the house
    ha.removeEntity("light.kitchen");
    ha.setState("sensor.new", "12");
    ha.freeze(false);
    ha.dropAll();

    await waitUntil(() => mirror.snapshots() === 2, "the snapshot after reconnect");
    expect(statuses).toEqual(["connected", "reconnecting", "connected"]);
    expect(ready).toBe(2);
    expect(stateOf()).toEqual({ "switch.fan": "on", "sensor.new": "12" });
    await expect(c.getStates()).resolves.toHaveLength(2);
  });

  it("a command sent while reconnecting fails fast with HaNotConnectedError", async () => {
    const ha = await fake();
    const c = client(ha, { backoff: { initialMs: 2_000, maxMs: 2_000 } });
    await c.connect();
    ha.dropAll();
    await waitUntil(() => c.status === "reconnecting", "reconnecting");
    const err = await c.getStates().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HaNotConnectedError);
    expect((err as Error).message).toContain("re-established");
  });

  it("a half-open connection is detected by the missing pong and re-established after HA thaws", async () => {
    const ha = await fake();
    const c = client(ha);
    const statuses = recordStatuses(c);
    await c.connect();
    ha.freeze(true);
    await waitUntil(() => c.status === "reconnecting", "the pong timeout to force a reconnect");
    ha.freeze(false);
    await waitUntil(() => c.status === "connected", "the reconnect");
    expect(statuses).toEqual(["connected", "reconnecting", "connected"]);
    await expect(c.getStates()).resolves.toHaveLength(2);
  });

  it("stops retrying and reports auth_failed when HA refuses the token on reconnect", async () => {
    const ha = await fake();
    const c = client(ha);
    await c.connect();
    ha.refuseAuth(true);
    ha.dropAll();
    await waitUntil(() => c.status === "auth_failed", "auth_failed");
    const attempts = ha.connectionCount();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(ha.connectionCount()).toBe(attempts);
    await expect(c.getStates()).rejects.toThrow(/HA_TOKEN/);
  });

  it("keeps going when a listener throws", async () => {
    const ha = await fake();
    const c = client(ha);
    c.onStatus(() => {
      throw new Error("status listener bug");
    });
    c.onReady(() => {
      throw new Error("ready listener bug");
    });
    await c.connect();
    let calls = 0;
    await c.subscribeEntities(() => {
      calls++;
      throw new Error("entity listener bug");
    });
    ha.setState("switch.fan", "on");
    await waitUntil(() => calls === 2, "both entity messages");
    await expect(c.getStates()).resolves.toHaveLength(2);
  });

  it("an unsubscribed entity listener gets nothing more", async () => {
    const ha = await fake();
    const c = client(ha);
    await c.connect();
    let calls = 0;
    const unsubscribe = await c.subscribeEntities(() => calls++);
    await waitUntil(() => calls === 1, "the snapshot");
    await unsubscribe();
    ha.setState("switch.fan", "on");
    await c.getStates(); // a round trip after the change
    expect(calls).toBe(1);
  });

  it("unsubscribing while disconnected stays unsubscribed after the reconnect", async () => {
    const ha = await fake();
    const c = client(ha, { backoff: { initialMs: 300, maxMs: 300 } });
    let ready = 0;
    c.onReady(() => ready++);
    await c.connect();
    let calls = 0;
    const unsubscribe = await c.subscribeEntities(() => calls++);
    await waitUntil(() => calls === 1, "the snapshot");
    ha.dropAll();
    await waitUntil(() => c.status === "reconnecting", "reconnecting");
    await unsubscribe();
    await waitUntil(() => ready === 2, "the reconnect");
    // The library resubscribes what it had; the client drops it on its first event.
    await waitUntil(() => ha.received.some((m) => m.type === "unsubscribe_events"), "unsubscribe_events after the reconnect");
    ha.setState("switch.fan", "on");
    await c.getStates();
    expect(calls).toBe(1);
  });

  it("close() during reconnect backoff ends cleanly with status closed", async () => {
    const ha = await fake();
    const c = client(ha, { backoff: { initialMs: 5_000, maxMs: 5_000 } });
    await c.connect();
    ha.dropAll();
    await waitUntil(() => c.status === "reconnecting", "reconnecting");
    await c.close();
    expect(c.status).toBe("closed");
    await expect(c.connect()).rejects.toBeInstanceOf(HaNotConnectedError);
  });

  it("close() resolves once the socket is closed", async () => {
    const ha = await fake();
    const c = client(ha);
    await c.connect();
    await c.close();
    expect(c.status).toBe("closed");
    await expect(c.getStates()).rejects.toBeInstanceOf(HaNotConnectedError);
  });
});
