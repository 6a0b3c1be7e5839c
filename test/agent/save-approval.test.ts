import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { AgentRuntime } from "../../src/agent/index.js";
import { createHaClient } from "../../src/ha/index.js";
import { createHomeIndex, type HomeIndex } from "../../src/indexer/index.js";
import type { GenerateRequest, ModelClient } from "../../src/models/index.js";
import { silentLogger, systemClock, type Principal } from "../../src/shared/index.js";
import { demoHouse, startSimulator, type Simulator } from "@ha-agent/ha-simulator";
import { openStore, type ContinuationRecord, type Store } from "../../src/store/index.js";
import { approvalToWire, createGroundingTools, createLogicTools, ToolRegistry } from "../../src/tools/index.js";
import { startConfigPostCounter, type ConfigPostCounter } from "../support/config-post-counter.js";
import { scriptedModel, type ScriptedReply } from "../support/scripted-model.js";

const alice: Principal = { id: "alice", name: "Alice", kind: "user", isAdmin: true };
const HALL = "automation.hall_light_at_night";

/** A new automation, as a model drafts it: YAML with the older singular keys. */
const PORCH = "alias: Porch light off at midnight\ntrigger:\n  - platform: time\n    at: '00:00:00'\naction:\n  - action: light.turn_off\n    target:\n      entity_id: light.porch_light\n";
const saveNew = { name: "automation_save", args: { config_yaml: PORCH } };

/** The model's last call: it says what its save gave back. */
const reportResult: ScriptedReply = (request) => {
  const last = request.conversation.at(-1);
  const text = `Result: ${JSON.stringify(last?.type === "tool_results" ? last.results[0]!.output : null)}`;
  return { turn: { provider: "scripted", model: "s", raw: { text }, text, toolCalls: [] }, text, toolCalls: [], finishReason: "stop", usage: { inputTokens: 10, outputTokens: 5, thinkingTokens: 0, cachedTokens: 0, estimated: false }, durationMs: 1 };
};

interface Home {
  sim: Simulator;
  counter: ConfigPostCounter;
  index: HomeIndex;
  store: Store;
  registry: ToolRegistry;
  runtime(model: ModelClient): AgentRuntime;
}

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/**
 * The agent over the demo house with allow_automation_edits on, its config
 * POSTs counted by a proxy in front of the simulator: "nothing was saved"
 * means Home Assistant received no POST.
 */
async function home(): Promise<Home> {
  const sim = await startSimulator({ house: demoHouse() });
  cleanups.push(() => sim.close());
  const counter = await startConfigPostCounter(sim);
  cleanups.push(() => counter.close());
  const ha = createHaClient({ wsUrl: sim.wsUrl, apiUrl: `${counter.url}/api`, token: sim.users.tokenFor(), logger: silentLogger });
  cleanups.push(() => ha.close());
  const index = createHomeIndex({ ha, logger: silentLogger });
  cleanups.push(() => index.stop());
  await ha.connect();
  await index.start();
  const dir = await mkdtemp(join(tmpdir(), "save-approval-"));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const store = await openStore({ dataDir: dir });
  cleanups.push(() => store.close());
  const registry = new ToolRegistry();
  for (const t of [...createGroundingTools({ index, ha }), ...createLogicTools({ index, ha, automationEdits: true })]) registry.register(t);
  const runtime = (model: ModelClient) => {
    const r = new AgentRuntime({ store, registry, index, clock: systemClock, logger: silentLogger, ceiling: { allow: false, allowlist: [] }, automationEdits: true, models: { get: async () => model, check: () => {}, missing: () => "no model" } });
    cleanups.push(() => r.drain(1_000));
    return r;
  };
  return { sim, counter, index, store, registry, runtime };
}

async function waitingSave(h: Home, runtime: AgentRuntime): Promise<ContinuationRecord> {
  const session = await h.store.sessions.create({ owner: alice.id, policy: { approval: "ask" } });
  const { continuation } = await runtime.send(alice, { sessionId: session.id, message: "turn the porch light off every midnight" });
  const waiting = await runtime.wait(alice, continuation.id, 10_000);
  expect(waiting.status).toBe("input_required");
  return waiting;
}

const offered = (request: GenerateRequest | undefined) => (request?.tools ?? []).map((t) => t.name);

describe("saving an automation through the agent", () => {
  it("asks first, showing the exact config it would save, and saves nothing meanwhile", async () => {
    const h = await home();
    const model = scriptedModel([{ text: "", toolCalls: [saveNew] }, reportResult]);
    const waiting = await waitingSave(h, h.runtime(model));
    expect(offered(model.requests[0])).toContain("automation_save");
    expect(waiting.approval).toMatchObject({
      why: "automation_edit",
      call: {
        kind: "automation_save",
        created: true,
        entityId: null,
        diff: null,
        config: { alias: "Porch light off at midnight", triggers: [{ trigger: "time", at: "00:00:00" }], actions: [{ action: "light.turn_off" }] },
      },
    });
    const call = waiting.approval!.call;
    if (call.kind !== "automation_save") throw new Error("expected a save");
    expect(call.config.id).toBe(call.id);
    const wire = approvalToWire(waiting.approval!);
    expect(wire).toMatchObject({ service: "automation_save", why: "automation_edit", data: { id: call.id, created: true } });
    expect(wire.question.split("\n")[0]).toMatch(/^Approve automation_save of a new automation \(id \d+, alias "Porch light off at midnight"\), with this configuration\?$/);
    expect(wire.question).toContain("  - action: light.turn_off\n    target:\n      entity_id: light.porch_light");
    expect(h.counter.posts).toEqual([]);
  });

  it("shows the diff against the saved automation when it changes one", async () => {
    const h = await home();
    const id = String(h.sim.home.getState(HALL)?.attributes.id);
    const edited = {
      id,
      alias: "Hall light at night",
      triggers: [{ trigger: "state", entity_id: "binary_sensor.hallway_motion_sensor_occupancy", to: "on" }],
      actions: [{ action: "light.turn_on", target: { entity_id: "light.hallway_ceiling" }, data: { brightness_pct: 60 } }],
      mode: "restart",
    };
    const waiting = await waitingSave(h, h.runtime(scriptedModel([{ text: "", toolCalls: [{ name: "automation_save", args: { config: edited, id } }] }, reportResult])));
    expect(waiting.approval).toMatchObject({ call: { kind: "automation_save", id, created: false, entityId: HALL }, targetStates: [{ entityId: HALL, state: "on" }] });
    const diff = (waiting.approval!.call as { diff: string }).diff;
    expect(diff).toContain("-      brightness_pct: 40\n+      brightness_pct: 60\n");
    expect(diff).toContain("-conditions:\n");
    expect(approvalToWire(waiting.approval!).question).toContain(diff);
  });

  it("a yes to a change of an automation edited in Home Assistant since it was asked writes nothing, and says what to do", async () => {
    const h = await home();
    const id = String(h.sim.home.getState(HALL)?.attributes.id);
    const path = `${h.sim.url}/api/config/automation/config/${id}`;
    const headers = { authorization: `Bearer ${h.sim.users.tokenFor()}`, "content-type": "application/json" };
    const saved = (await (await fetch(path, { headers })).json()) as Record<string, unknown>;
    const draft = { ...saved, alias: "Hall light, from the agent" };
    const runtime = h.runtime(scriptedModel([{ text: "", toolCalls: [{ name: "automation_save", args: { config: draft, id } }] }, reportResult]));
    const waiting = await waitingSave(h, runtime);
    // Someone edits it in Home Assistant's editor before the person says yes.
    const edited = { ...saved, alias: "Hall light, edited in HA" };
    expect((await fetch(path, { method: "POST", headers, body: JSON.stringify(edited) })).status).toBe(200);
    const posted = h.counter.posts.length;
    await runtime.approve(alice, { continuationId: waiting.id, approvalId: waiting.approval!.id, decision: "approve", via: "tool" });
    const done = await runtime.wait(alice, waiting.id, 10_000);
    expect(done.response?.finalMessage).toContain("changed_since_approval");
    expect(done.response?.finalMessage).toContain("ask again to save the config you want");
    expect(h.counter.posts.length).toBe(posted);
    expect(((await (await fetch(path, { headers })).json()) as { alias: string }).alias).toBe("Hall light, edited in HA");
  });

  it("a denial saves nothing, and the model reads it", async () => {
    const h = await home();
    const runtime = h.runtime(scriptedModel([{ text: "", toolCalls: [saveNew] }, reportResult]));
    const waiting = await waitingSave(h, runtime);
    await runtime.approve(alice, { continuationId: waiting.id, approvalId: waiting.approval!.id, decision: "deny", reason: "not tonight", via: "tool" });
    const done = await runtime.wait(alice, waiting.id, 10_000);
    expect(done.status).toBe("completed");
    expect(done.response?.finalMessage).toMatch(/approval_denied.*saving the new automation.*not tonight/);
    expect(h.counter.posts).toEqual([]);
    expect(h.sim.home.getState("automation.porch_light_off_at_midnight")).toBeUndefined();
  });

  it("an approval saves exactly the approved config once, and the model hears the automation exists and is on", async () => {
    const h = await home();
    const runtime = h.runtime(scriptedModel([{ text: "", toolCalls: [saveNew] }, reportResult]));
    const waiting = await waitingSave(h, runtime);
    const id = (waiting.approval!.call as { id: string }).id;
    await runtime.approve(alice, { continuationId: waiting.id, approvalId: waiting.approval!.id, decision: "approve", via: "tool" });
    const done = await runtime.wait(alice, waiting.id, 10_000);
    expect(done.status).toBe("completed");
    expect(h.counter.posts).toEqual([`/api/config/automation/config/${id}`]);
    expect(done.response?.finalMessage).toContain('"entity_id":"automation.porch_light_off_at_midnight"');
    expect(done.response?.finalMessage).toContain('"state":"on"');
    expect(h.sim.home.getState("automation.porch_light_off_at_midnight")?.attributes.id).toBe(id);
  });

  it("is refused in a session that does not ask: the tool is not offered, a call of it is answered approval_required, and nothing is saved", async () => {
    const h = await home();
    const model = scriptedModel([{ text: "", toolCalls: [saveNew] }, reportResult]);
    const runtime = h.runtime(model);
    const session = await h.store.sessions.create({ owner: alice.id });
    const { continuation } = await runtime.send(alice, { sessionId: session.id, message: "turn the porch light off every midnight" });
    const done = await runtime.wait(alice, continuation.id, 10_000);
    expect(done.status).toBe("completed");
    expect(offered(model.requests[0])).not.toContain("automation_save");
    expect(offered(model.requests[0])).toContain("automation_check");
    expect(done.response?.finalMessage).toContain('"code":"approval_required"');
    expect(h.counter.posts).toEqual([]);
  });

  it("a turn taken up after a restart still saves as its administrator owner, once", async () => {
    const h = await home();
    const first = h.runtime(scriptedModel([{ text: "", toolCalls: [saveNew] }]));
    const waiting = await waitingSave(h, first);
    // A shutdown leaves the turn waiting; the next start takes it up with no caller to say who its owner is.
    await first.drain(1_000);
    const second = h.runtime(scriptedModel([reportResult]));
    await second.takeUpWaiting([{ owner: alice.id, continuationId: waiting.id }]);
    await second.approve(alice, { continuationId: waiting.id, approvalId: waiting.approval!.id, decision: "approve", via: "console" });
    const done = await second.wait(alice, waiting.id, 10_000);
    expect(done.status).toBe("completed");
    expect(done.response?.finalMessage).not.toContain("admin_only");
    expect(h.counter.posts).toHaveLength(1);
  });
});
