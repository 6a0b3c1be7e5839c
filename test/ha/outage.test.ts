import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callTool, waitUntil } from "../support/mcp.js";
import { startStack, type Stack } from "../support/stack.js";

interface QueryResult {
  entities: { entity_id: string; state: string }[];
}

async function healthStatus(stack: Stack): Promise<{ status: number; body: { reasons: string[] } }> {
  const res = await fetch(`${stack.baseUrl}/healthz`);
  return { status: res.status, body: (await res.json()) as { reasons: string[] } };
}

describe("Home Assistant outages", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.close();
  });

  const kitchen = async () => ((await callTool(stack.client, "ha_agent_state_query", { area: "kitchen" })).value as unknown as QueryResult).entities;

  it("recovers a dropped connection and resyncs, keeping nothing stale", async () => {
    const before = await kitchen();
    const [removed, changed] = before.map((e) => e.entity_id);
    expect(removed && changed).toBeTruthy();
    const newState = stack.sim.home.getState(changed as string)?.state === "on" ? "off" : "on";
    await stack.sim.faults.restart({
      downtimeMs: 500,
      whileDown: (home) => {
        home.removeEntity(removed as string);
        home.setState(changed as string, newState);
      },
    });
    const after = await waitUntil(kitchen, (entities) => !entities.some((e) => e.entity_id === removed), 10_000);
    expect(after.find((e) => e.entity_id === changed)?.state).toBe(newState);
    expect(after).toHaveLength(before.length - 1);
    expect((await healthStatus(stack)).status).toBe(200);
  });

  it("shows a 30-second outage on /healthz as 503, then recovers by itself", async () => {
    expect((await healthStatus(stack)).status).toBe(200);
    const outage = stack.sim.faults.restart({ downtimeMs: 30_000 });
    const during = await waitUntil(() => healthStatus(stack), (h) => h.status === 503, 5_000);
    expect(during.body.reasons.join(" ")).toMatch(/Home Assistant/);
    // Liveness stays 200 all along, so the container's HEALTHCHECK never restarts the add-on for a Core restart.
    const live = await fetch(`${stack.baseUrl}/livez`);
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: "alive", ready: false });
    // Still down well into the outage: it does not flap back to 200 while HA is away.
    await new Promise((r) => setTimeout(r, 10_000));
    expect((await healthStatus(stack)).status).toBe(503);
    expect((await fetch(`${stack.baseUrl}/livez`)).status).toBe(200);
    await outage;
    await waitUntil(() => healthStatus(stack), (h) => h.status === 200, 10_000);
    expect((await kitchen()).length).toBeGreaterThan(0);
  }, 60_000);
});
