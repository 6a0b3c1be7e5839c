import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateHouse, startSimulator, type Simulator } from "@ha-agent/ha-simulator";
import { callTool, waitUntil } from "../support/mcp.js";
import { startStack, type Stack } from "../support/stack.js";

interface Entity {
  entity_id: string;
  state: string | null;
}
interface Answer {
  stale?: true;
  stale_reason?: string;
  entities: Entity[];
  total: number;
}
interface Health {
  status: number;
  body: { status: string; reasons: string[]; components: Record<string, { ok: boolean; degraded?: boolean; details?: Record<string, unknown> }> };
}

/** How late the restarted HA answers the resync's commands: long enough to look at the window without timing luck. */
const RESYNC_DELAY_MS = 3_000;

describe("after Home Assistant restarts with every entity replaced", () => {
  let sim: Simulator;
  let stack: Stack;
  beforeAll(async () => {
    sim = await startSimulator({ house: generateHouse({ entities: 300, seed: 11 }) });
    stack = await startStack({ sim });
  });
  afterAll(async () => {
    await stack?.close();
    await sim?.close();
  });

  const all = async () => (await callTool(stack.client, "ha_agent_state_query", { limit: 1000 })).value as unknown as Answer;
  const health = async (): Promise<Health> => {
    const res = await fetch(`${stack.baseUrl}/healthz`);
    return { status: res.status, body: (await res.json()) as Health["body"] };
  };
  /** The states HA has now, as state_query shows them. */
  const haStates = () => new Map(sim.home.states().map((s) => [s.entity_id, s.state]));

  it("marks answers stale and /healthz as catching up until the resync is in, then answers exactly HA's states", async () => {
    const before = await all();
    expect(before.stale).toBeUndefined();
    expect(before.total).toBeGreaterThan(100);
    const oldIds = new Set(before.entities.map((e) => e.entity_id));

    let replaced = false;
    const restart = sim.faults.restart({
      downtimeMs: 300,
      whileDown: (home) => {
        // Every entity goes, and comes back under a new id: nothing the index held is still there.
        const records = home.states();
        for (const s of records) home.removeEntity(s.entity_id);
        for (const s of records) home.addEntity({ entity_id: `${s.entity_id}_v2`, state: s.state === "on" ? "off" : s.state, attributes: s.attributes });
        // Home Assistant is still starting: the resync's snapshot and registry list come late.
        sim.faults.delayCommand("subscribe_entities", RESYNC_DELAY_MS);
        sim.faults.delayCommand("config/entity_registry/list", RESYNC_DELAY_MS);
        replaced = true;
      },
    });
    try {
      // Reconnected: HA answers again, the resync is still waiting for its answers.
      const reconnected = await waitUntil(health, (h) => replaced && h.body.components.home_assistant?.ok === true, 10_000);
      const during = await all();
      const healthDuring = await health();
      const gone = during.entities.filter((e) => !haStates().has(e.entity_id));

      // Whatever the index still holds from before the restart comes marked stale, with why.
      expect(gone.length).toBeGreaterThan(0);
      expect(during).toMatchObject({ stale: true, stale_reason: "catching_up" });
      // Ready, but degraded: answers are served, each marked stale, and readiness does not flap for a resync.
      for (const h of [reconnected, healthDuring]) {
        expect(h.status).toBe(200);
        expect(h.body.status).toBe("degraded");
        expect(h.body.reasons.join(" ")).toMatch(/catching up with Home Assistant/);
        expect(h.body.components.index).toMatchObject({ ok: false, degraded: true, details: { catchingUp: true } });
      }
      const text = (await callTool(stack.client, "ha_agent_render_context", { domain: "light" })).value as { text: string; stale?: true };
      expect(text.stale).toBe(true);
      expect(text.text.split("\n")[0]).toMatch(/^STALE: Home Assistant is back after a lost connection/);
      const search = (await callTool(stack.client, "ha_agent_index_search", { query: "light" })).value;
      expect(search).toMatchObject({ stale: true, stale_reason: "catching_up" });

      const after = await waitUntil(all, (a) => a.stale === undefined, 15_000);
      const ha = haStates();
      expect(after.entities.filter((e) => e.state !== null).map((e) => [e.entity_id, e.state]).sort()).toEqual([...ha].sort());
      expect(after.entities.some((e) => oldIds.has(e.entity_id))).toBe(false);
      const healthAfter = await health();
      expect(healthAfter.status).toBe(200);
      expect(healthAfter.body.status).toBe("ok");
      expect(healthAfter.body.components.index).toMatchObject({ ok: true });
    } finally {
      await restart;
      sim.faults.delayCommand("subscribe_entities", 0);
      sim.faults.delayCommand("config/entity_registry/list", 0);
    }
  }, 40_000);

  it("never gives a state that disagrees with HA without saying stale, from the drop until it has caught up", async () => {
    // Every answer through a restart, read as fast as they come: down, back but not yet reconnected, catching up, caught up.
    const sample = sim.home
      .states()
      .map((s) => s.entity_id)
      .filter((id) => id.startsWith("sensor."))
      .slice(0, 40);
    const restart = sim.faults.restart({
      downtimeMs: 1_000,
      whileDown: (home) => {
        for (const id of sample) home.setState(id, "after-restart");
      },
    });
    let back = false;
    void restart.then(() => (back = true));
    const wrongUnmarked: string[] = [];
    const reasons = new Set<string>();
    try {
      const deadline = Date.now() + 15_000;
      for (;;) {
        const answer = (await callTool(stack.client, "ha_agent_state_query", { entity_ids: sample, limit: 1000 })).value as unknown as Answer;
        const ha = haStates();
        const wrong = answer.entities.filter((e) => e.state !== (ha.get(e.entity_id) ?? null));
        if (answer.stale) reasons.add(answer.stale_reason ?? "none");
        else if (wrong.length) wrongUnmarked.push(`${wrong[0]!.entity_id}: ${wrong[0]!.state} ≠ ${ha.get(wrong[0]!.entity_id)}`);
        if (back && !answer.stale && !wrong.length) break;
        if (Date.now() > deadline) throw new Error("the index did not catch up within 15 s");
      }
    } finally {
      await restart;
    }
    expect(wrongUnmarked).toEqual([]);
    expect(reasons.has("ha_unreachable")).toBe(true);
  }, 30_000);
});
