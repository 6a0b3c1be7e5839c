import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callTool, waitUntil } from "../support/mcp.js";
import { startStack, type Stack } from "../support/stack.js";

describe("answers while Home Assistant is away", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.close();
  });

  const query = () => callTool(stack.client, "ha_agent_state_query", { area: "kitchen" });

  it("are marked stale, with when HA was last seen, in the structured result and the text, and live again once HA is back", async () => {
    const live = await query();
    expect(live.value).not.toHaveProperty("stale");
    expect(live.text).not.toContain("stale");

    const before = Date.now();
    // Long enough for the checks below on a busy machine; the test waits for the end of it.
    const outage = stack.sim.faults.restart({ downtimeMs: 6_000 });
    const stale = await waitUntil(query, (r) => r.value.stale === true, 5_000);
    const seen = Date.parse(stale.value.ha_last_seen as string);
    expect(seen).toBeGreaterThanOrEqual(before - 1_000);
    expect(seen).toBeLessThanOrEqual(Date.now());
    // The states are still there, as last seen.
    expect((stale.value.entities as unknown[]).length).toBe((live.value.entities as unknown[]).length);
    // The text block a model reads says it too.
    expect(JSON.parse(stale.text)).toMatchObject({ stale: true, ha_last_seen: stale.value.ha_last_seen });

    const rendered = await callTool(stack.client, "ha_agent_render_context", { area: "kitchen" });
    expect(rendered.value).toMatchObject({ stale: true, ha_last_seen: stale.value.ha_last_seen });
    expect((rendered.value.text as string).split("\n")[0]).toMatch(/^STALE: Home Assistant is unreachable since \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(Z|[+-]\d\d:\d\d); these are the last known states/);

    await outage;
    const back = await waitUntil(query, (r) => r.value.stale === undefined, 10_000);
    expect(back.value).not.toHaveProperty("ha_last_seen");
  }, 30_000);
});
