import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ToolCall } from "../../src/models/index.js";
import { manualClock, type Principal } from "../../src/shared/index.js";
import { openStore, type ContinuationRecord } from "../../src/store/index.js";
import { createAgentTools, type ActuationCeiling, type ToolCallContext } from "../../src/tools/index.js";
import { alice, runCleanups, stack, type Stack } from "../support/agent-stack.js";
import { scriptedModel, type ScriptedReply } from "../support/scripted-model.js";
import type { AgentEvent } from "../../src/agent/events.js";
import type { AgentRuntime, AgentRuntimeOptions } from "../../src/agent/runtime.js";

afterEach(runCleanups);

const bob: Principal = { id: "bob", name: "Bob", kind: "user", isAdmin: false };
const ACTS: ActuationCeiling = { allow: true, allowlist: [], approvalRequired: ["lock.*", "alarm_control_panel.*"] };
const unlockFrontDoor = { name: "call_service", args: { domain: "lock", service: "unlock", entity_id: "lock.front_door" } };
const turnOnKitchen = { name: "call_service", args: { domain: "light", service: "turn_on", entity_id: "light.kitchen_ceiling", service_data: { brightness_pct: 40 } } };

/** The model's second call: it reads the result of its action and says what it saw. */
const reportResult: ScriptedReply = (request) => {
  const last = request.conversation.at(-1);
  const output = last?.type === "tool_results" ? last.results[0]!.output : undefined;
  const text = `Result: ${JSON.stringify(output)}`;
  return { turn: { provider: "scripted", model: "s", raw: { text }, text, toolCalls: [] }, text, toolCalls: [], finishReason: "stop", usage: { inputTokens: 10, outputTokens: 5, thinkingTokens: 0, cachedTokens: 0, estimated: false }, durationMs: 1 };
};

const callsOf = (s: Stack, domain: string, service: string) => [...s.sim.home.serviceCalls.values()].filter((c) => c.domain === domain && c.service === service).length;

/** Sends a message in a session that asks for approvals and waits until the turn waits for one. */
async function waitingTurn(s: Stack, runtime: AgentRuntime, policy: Record<string, unknown> = { approval: "ask" }): Promise<ContinuationRecord> {
  const session = await s.store.sessions.create({ owner: alice.id, policy });
  const { continuation } = await runtime.send(alice, { sessionId: session.id, message: "turn on the kitchen light at 40%" });
  const waiting = await runtime.wait(alice, continuation.id, 5_000);
  expect(waiting.status).toBe("input_required");
  return waiting;
}

/** A turn left waiting for a yes to `call` when the program stopped: a first runtime asked, then drained. */
async function leftWaiting(s: Stack, call: Omit<ToolCall, "id">, extra: Partial<AgentRuntimeOptions> = {}): Promise<ContinuationRecord> {
  const first = s.runtime(scriptedModel([{ text: "", toolCalls: [call] }]), ACTS, [], extra);
  const waiting = await waitingTurn(s, first);
  await first.drain(1_000);
  return waiting;
}

describe("approvals", () => {
  it("asks before an action the session did not pre-approve, and an approval runs exactly that call once", async () => {
    const s = await stack();
    s.sim.home.setState("light.kitchen_ceiling", "off");
    const runtime = s.runtime(scriptedModel([{ text: "", toolCalls: [turnOnKitchen] }, reportResult]), ACTS);
    const events: AgentEvent[] = [];
    const waiting = await waitingTurn(s, runtime);
    runtime.events.subscribe(waiting.sessionId, (e) => events.push(e));

    // The pending approval is the exact call, with its targets' states now.
    expect(waiting.approval).toMatchObject({
      call: { domain: "light", service: "turn_on", targets: ["light.kitchen_ceiling"], data: { brightness_pct: 40 } },
      targetStates: [{ entityId: "light.kitchen_ceiling", state: "off" }],
      why: "not_preapproved",
    });
    // Whichever is longer: the default 600 s or the turn's 120 s budget.
    expect(waiting.approval!.expiresAt - waiting.approval!.requestedAt).toBe(600_000);
    expect(callsOf(s, "light", "turn_on")).toBe(0);
    // Lists of turns (tasks/list, the console) read the session's references: they show the wait too.
    expect((await runtime.list(alice)).continuations.find((c) => c.continuationId === waiting.id)?.status).toBe("input_required");

    const answered = await runtime.approve(alice, { continuationId: waiting.id, approvalId: waiting.approval!.id, decision: "approve", via: "tool" });
    expect(answered.status).not.toBe("input_required");
    const done = await runtime.wait(alice, waiting.id, 5_000);
    expect(done.status).toBe("completed");
    expect(done.approval).toBeUndefined();
    expect(s.sim.home.getState("light.kitchen_ceiling")?.state).toBe("on");
    expect(callsOf(s, "light", "turn_on")).toBe(1);

    // The decision is journaled before the call's intent, and both before its result.
    const types = (await s.store.steps.read(alice.id, waiting.id)).map((l) => l.type);
    expect(types.indexOf("approval_request")).toBeLessThan(types.indexOf("approval_decision"));
    expect(types.indexOf("approval_decision")).toBeLessThan(types.indexOf("tool_call"));
    expect(events.find((e) => e.type === "approval")?.payload.approval).toMatchObject({ approval_id: waiting.approval!.id, decision: "approve" });
  });

  it("a denial runs nothing, and the model reads it with the person's reason", async () => {
    const s = await stack();
    s.sim.home.setState("light.kitchen_ceiling", "off");
    const model = scriptedModel([{ text: "", toolCalls: [turnOnKitchen] }, reportResult]);
    const runtime = s.runtime(model, ACTS);
    const waiting = await waitingTurn(s, runtime);
    await runtime.approve(alice, { continuationId: waiting.id, approvalId: waiting.approval!.id, decision: "deny", reason: "the baby sleeps", via: "tool" });
    const done = await runtime.wait(alice, waiting.id, 5_000);
    expect(done.status).toBe("completed");
    expect(done.response?.finalMessage).toContain("approval_denied");
    expect(done.response?.finalMessage).toContain("the baby sleeps");
    expect(s.sim.home.getState("light.kitchen_ceiling")?.state).toBe("off");
    expect(callsOf(s, "light", "turn_on")).toBe(0);
  });

  it("only the session's principal answers, once, and only the approval that waits", async () => {
    const s = await stack();
    const runtime = s.runtime(scriptedModel([{ text: "", toolCalls: [turnOnKitchen] }, reportResult]), ACTS);
    const waiting = await waitingTurn(s, runtime);
    const id = waiting.approval!.id;
    await expect(runtime.approve(bob, { continuationId: waiting.id, approvalId: id, decision: "approve", via: "tool" })).rejects.toMatchObject({ code: "not_found" });
    await expect(runtime.approve(alice, { continuationId: waiting.id, approvalId: "01ARZ3NDEKTSV4RRFFQ69G5FAV", decision: "approve", via: "tool" })).rejects.toMatchObject({ code: "no_pending_approval" });
    expect((await runtime.get(alice, waiting.id)).status).toBe("input_required");
    expect(callsOf(s, "light", "turn_on")).toBe(0);

    await runtime.approve(alice, { continuationId: waiting.id, approvalId: id, decision: "approve", via: "tool" });
    await expect(runtime.approve(alice, { continuationId: waiting.id, approvalId: id, decision: "approve", via: "tool" })).rejects.toMatchObject({ code: "no_pending_approval" });
    await runtime.wait(alice, waiting.id, 5_000);
    expect(callsOf(s, "light", "turn_on")).toBe(1);
  });

  it("approval_required services always ask, even when pre-approved, and are refused where no one is asked", async () => {
    const s = await stack();
    s.sim.home.setState("lock.front_door", "locked");
    const unlock = { name: "call_service", args: { domain: "lock", service: "unlock", entity_id: "lock.front_door" } };
    const preapproved = { allowActuation: true, allowlistedServices: ["lock.*", "light.*"] };

    const refusing = s.runtime(scriptedModel([{ text: "", toolCalls: [unlock] }, reportResult]), ACTS);
    const plain = await s.store.sessions.create({ owner: alice.id, policy: preapproved });
    const refused = await refusing.wait(alice, (await refusing.send(alice, { sessionId: plain.id, message: "unlock the front door" })).continuation.id, 5_000);
    expect(refused.status).toBe("completed");
    expect(refused.response?.finalMessage).toContain("approval_required");

    const asking = s.runtime(scriptedModel([{ text: "", toolCalls: [unlock] }, reportResult]), ACTS);
    const waiting = await waitingTurn(s, asking, { ...preapproved, approval: "ask" });
    expect(waiting.approval).toMatchObject({ why: "approval_required", call: { domain: "lock", service: "unlock", targets: ["lock.front_door"] }, targetStates: [{ state: "locked" }] });
    expect(callsOf(s, "lock", "unlock")).toBe(0);
    expect(s.sim.home.getState("lock.front_door")?.state).toBe("locked");
  });

  it("never asks about a service outside the add-on's allowlist: the owner's cap is absolute", async () => {
    const s = await stack();
    const runtime = s.runtime(scriptedModel([{ text: "", toolCalls: [turnOnKitchen] }, reportResult]), { ...ACTS, allowlist: ["switch.*"] });
    const session = await s.store.sessions.create({ owner: alice.id, policy: { approval: "ask" } });
    const done = await runtime.wait(alice, (await runtime.send(alice, { sessionId: session.id, message: "kitchen light on" })).continuation.id, 5_000);
    expect(done.status).toBe("completed");
    expect(done.response?.finalMessage).toContain("service_not_allowed");
    expect(callsOf(s, "light", "turn_on")).toBe(0);
  });

  it("a restart while waiting keeps the approval waiting, and the answer after it runs the call once", async () => {
    const s = await stack();
    s.sim.home.setState("light.kitchen_ceiling", "off");
    const waiting = await leftWaiting(s, turnOnKitchen);
    expect((await s.store.continuations.get(alice.id, waiting.id))?.status).toBe("input_required");

    const store = await s.reopen();
    expect(store.recovery.awaitingApproval).toEqual([{ owner: alice.id, sessionId: waiting.sessionId, continuationId: waiting.id }]);
    const again = await store.continuations.get(alice.id, waiting.id);
    expect(again).toMatchObject({ status: "input_required", approval: { id: waiting.approval!.id, expiresAt: waiting.approval!.expiresAt } });

    // The journaled model step is not asked again: the second model only writes the answer.
    const secondModel = scriptedModel([reportResult]);
    const second = s.runtime(secondModel, ACTS);
    await second.takeUpWaiting(store.recovery.awaitingApproval);
    expect((await second.wait(alice, waiting.id, 1_000)).status).toBe("input_required");
    await second.approve(alice, { continuationId: waiting.id, approvalId: waiting.approval!.id, decision: "approve", via: "tool" });
    const done = await second.wait(alice, waiting.id, 5_000);
    expect(done.error).toBeUndefined();
    expect(done.status).toBe("completed");
    expect(secondModel.requests).toHaveLength(1);
    expect(callsOf(s, "light", "turn_on")).toBe(1);
  });

  it("an answer that finds no model to go on with is refused, and the approval stays open for a later one", async () => {
    const s = await stack();
    const waiting = await leftWaiting(s, turnOnKitchen);
    const store = await s.reopen();

    // After the restart the model is not reachable yet: the turn cannot be taken up.
    const reachable: { model?: ReturnType<typeof scriptedModel> } = {};
    const runtime = s.runtime(undefined, ACTS, [], { models: { get: async () => reachable.model, check: () => {}, missing: () => "No model is configured yet." } });
    await runtime.takeUpWaiting(store.recovery.awaitingApproval);
    const answer = { continuationId: waiting.id, approvalId: waiting.approval!.id, decision: "approve" as const, via: "tool" as const };
    await expect(runtime.approve(alice, answer)).rejects.toMatchObject({ code: "no_model" });
    expect((await runtime.get(alice, waiting.id)).status).toBe("input_required");

    // The model is back: the same approval is answered, and the call runs once.
    reachable.model = scriptedModel([reportResult]);
    await runtime.approve(alice, answer);
    expect((await runtime.wait(alice, waiting.id, 5_000)).status).toBe("completed");
    expect(callsOf(s, "light", "turn_on")).toBe(1);
  });

  it("an unanswered approval ends the turn at the longer of approval_timeout_s and the turn's budget, and says so", async () => {
    const s = await stack();
    const runtime = s.runtime(scriptedModel([{ text: "", toolCalls: [turnOnKitchen] }]), ACTS, [], { approvalTimeoutMs: 300 });
    const session = await s.store.sessions.create({ owner: alice.id, policy: { approval: "ask" }, budgets: { maxDurationMs: 100 } });
    const { continuation } = await runtime.send(alice, { sessionId: session.id, message: "kitchen light on" });
    const waiting = await runtime.wait(alice, continuation.id, 5_000);
    expect(waiting.approval!.expiresAt - waiting.approval!.requestedAt).toBe(300);
    // Waiting on a turn that waits for a person answers at once; the deadline ends it soon after.
    await new Promise((r) => setTimeout(r, 400));
    const done = await runtime.wait(alice, continuation.id, 5_000);
    expect(done.status).toBe("expired");
    expect(done.error).toMatchObject({ code: "approval_expired" });
    expect(done.error?.message).toContain("No one answered");
    expect(callsOf(s, "light", "turn_on")).toBe(0);
  });

  it("ha_agent_await_continuation shows the pending approval and ha_agent_approve answers it", async () => {
    const s = await stack();
    const runtime = s.runtime(scriptedModel([{ text: "", toolCalls: [turnOnKitchen] }, reportResult]), ACTS);
    const session = await s.store.sessions.create({ owner: alice.id, policy: { approval: "ask" } });
    const { continuation } = await runtime.send(alice, { sessionId: session.id, message: "kitchen light on" });
    const tools = new Map(createAgentTools({ agent: runtime }).map((t) => [t.name, t]));
    const ctx: ToolCallContext = { principal: alice, signal: new AbortController().signal, progress: async () => {} };
    const awaited = await tools.get("await_continuation")!.invoke({ continuation_id: continuation.id, timeout_ms: 5_000 }, ctx);
    expect(awaited.ok && awaited.value).toMatchObject({ status: "input_required", next: "approve", approval: { service: "light.turn_on", targets: ["light.kitchen_ceiling"], why: "not_preapproved" } });
    const approvalId = awaited.ok ? (awaited.value as { approval: { approval_id: string } }).approval.approval_id : "";
    const approved = await tools.get("approve")!.invoke({ continuation_id: continuation.id, approval_id: approvalId, decision: "approve" }, ctx);
    expect(approved.ok).toBe(true);
    const again = await tools.get("approve")!.invoke({ continuation_id: continuation.id, approval_id: approvalId, decision: "approve" }, ctx);
    expect(again).toMatchObject({ ok: false, error: { code: "no_pending_approval" } });
    expect((await runtime.wait(alice, continuation.id, 5_000)).status).toBe("completed");
    expect(callsOf(s, "light", "turn_on")).toBe(1);
  });

  it("an approval covers exactly one call: other entities or other data need a new one", async () => {
    const s = await stack();
    s.runtime(undefined, ACTS);
    const approved = { kind: "call_service" as const, domain: "light", service: "turn_on", targets: ["light.kitchen_ceiling"], data: { brightness_pct: 40 } };
    const ctx = (args: Partial<ToolCallContext> = {}): ToolCallContext => ({
      principal: alice,
      signal: new AbortController().signal,
      progress: async () => {},
      actuation: { allowActuation: false, allowlistedServices: [], approval: "ask", approved },
      ...args,
    });
    const call = (args: Record<string, unknown>) => s.registry.call("call_service", { domain: "light", service: "turn_on", ...args }, ctx());
    expect(await call({ entity_id: "light.kitchen_ceiling", service_data: { brightness_pct: 100 } })).toMatchObject({ ok: false, error: { code: "approval_needed" } });
    expect(await call({ entity_id: ["light.kitchen_ceiling", "light.living_room_ceiling"], service_data: { brightness_pct: 40 } })).toMatchObject({ ok: false, error: { code: "approval_needed" } });
    expect(callsOf(s, "light", "turn_on")).toBe(0);
    expect(await call({ entity_id: "light.kitchen_ceiling", service_data: { brightness_pct: 40 } })).toMatchObject({ ok: true });
    expect(callsOf(s, "light", "turn_on")).toBe(1);
  });
});

describe("an approval's deadline", () => {
  const answerTo = (waiting: ContinuationRecord) => ({ continuationId: waiting.id, approvalId: waiting.approval!.id, decision: "approve" as const, via: "tool" as const });
  const decisionsOf = async (s: Stack, id: string) =>
    (await s.store.steps.read(alice.id, id)).filter((l) => l.type === "approval_decision").map((l) => (l.detail as { decision: string }).decision);

  it("refuses a yes after it while no model could take the turn up, and ends the turn expired with nothing done", async () => {
    const s = await stack();
    s.sim.home.setState("lock.front_door", "locked");
    const clock = manualClock(Date.now());
    const waiting = await leftWaiting(s, unlockFrontDoor, { clock });
    const store = await s.reopen();
    expect(store.recovery.awaitingApproval.map((w) => w.continuationId)).toEqual([waiting.id]);

    // The program restarted while the model server was down: the turn cannot be taken up, and its deadline passes.
    const reachable: { model?: ReturnType<typeof scriptedModel> } = {};
    const runtime = s.runtime(undefined, ACTS, [], { clock, models: { get: async () => reachable.model, check: () => {}, missing: () => "The model server is down." } });
    await runtime.takeUpWaiting(store.recovery.awaitingApproval);
    clock.set(waiting.approval!.expiresAt);
    // The model is back when the owner's yes arrives: the yes is refused all the same.
    reachable.model = scriptedModel([reportResult]);
    await expect(runtime.approve(alice, answerTo(waiting))).rejects.toMatchObject({ code: "approval_expired" });

    const done = await runtime.get(alice, waiting.id);
    expect(done).toMatchObject({ status: "expired", error: { code: "approval_expired" } });
    expect(done.error?.message).toContain("nothing was done");
    expect(done.approval).toBeUndefined();
    expect(await decisionsOf(s, waiting.id)).toEqual(["expired"]);
    // What the turn spent before it waited is counted, as for any finish.
    expect(done.usage).toMatchObject({ steps: 1, modelCalls: 1, model: "scripted/scripted-1" });
    // Another channel's answer to the same approval is told why, too.
    await expect(runtime.approve(alice, { ...answerTo(waiting), via: "task" })).rejects.toMatchObject({ code: "approval_expired" });
    expect(reachable.model.requests).toHaveLength(0);
    expect(callsOf(s, "lock", "unlock")).toBe(0);
    expect(s.sim.home.getState("lock.front_door")?.state).toBe("locked");
    await runtime.drain(1_000);
  });

  it("refuses a yes after it while the turn waits, and the waiting turn ends expired at once", async () => {
    const s = await stack();
    s.sim.home.setState("lock.front_door", "locked");
    const clock = manualClock(Date.now());
    const model = scriptedModel([{ text: "", toolCalls: [unlockFrontDoor] }, reportResult]);
    const runtime = s.runtime(model, ACTS, [], { clock });
    const waiting = await waitingTurn(s, runtime);
    // The clock moved past the deadline before the turn's own timer fired.
    clock.advance(waiting.approval!.expiresAt - waiting.approval!.requestedAt);
    await expect(runtime.approve(alice, answerTo(waiting))).rejects.toMatchObject({ code: "approval_expired" });
    const done = await runtime.wait(alice, waiting.id, 5_000);
    expect(done).toMatchObject({ status: "expired", error: { code: "approval_expired" } });
    expect(await decisionsOf(s, waiting.id)).toEqual(["expired"]);
    expect(model.requests).toHaveLength(1);
    expect(callsOf(s, "lock", "unlock")).toBe(0);
  });

  it("ends the turn at boot when it passed while the program was down: never taken up, and a later yes is refused", async () => {
    const s = await stack();
    s.sim.home.setState("lock.front_door", "locked");
    const waiting = await leftWaiting(s, unlockFrontDoor);
    await s.store.close();

    const later = manualClock(waiting.approval!.expiresAt + 60_000);
    const store = (s.store = await openStore({ dataDir: s.dir, clock: later }));
    expect(store.recovery.awaitingApproval).toEqual([]);
    expect(store.recovery.approvalsExpired).toBe(1);
    const record = await store.continuations.get(alice.id, waiting.id);
    expect(record).toMatchObject({ status: "expired", error: { code: "approval_expired" }, usage: { steps: 1 } });
    expect(record?.error?.message).toContain("nothing was done");
    expect(record?.approval).toBeUndefined();
    // The step log ends as a live expiry ends it: the decision, then the store's final line.
    const log = await readFile(join(s.dir, "sessions", waiting.sessionId, "logs", `${waiting.id}.log`), "utf8");
    const lines = log.trim().split("\n").map((l) => JSON.parse(l) as { type: string; key?: string; detail: { decision?: string; status?: string } });
    expect(lines.slice(-2).map((l) => [l.type, l.detail.decision ?? l.detail.status])).toEqual([["approval_decision", "expired"], ["final", "expired"]]);
    expect(lines.at(-2)?.key).toBe(lines.find((l) => l.type === "approval_request")?.key);
    // The session lists it as finished, counted once.
    const session = store.sessions.get(alice.id, waiting.sessionId);
    expect(session?.openContinuations).toEqual([]);
    expect(session?.messages.find((m) => m.continuationId === waiting.id)?.status).toBe("expired");
    expect(session?.stats).toMatchObject({ turns: 1, steps: 1 });

    const model = scriptedModel([reportResult]);
    const runtime = s.runtime(model, ACTS, [], { clock: later });
    await runtime.takeUpWaiting(store.recovery.awaitingApproval);
    await expect(runtime.approve(alice, answerTo(waiting))).rejects.toMatchObject({ code: "approval_expired" });
    expect(model.requests).toHaveLength(0);
    expect(callsOf(s, "lock", "unlock")).toBe(0);
    expect(s.sim.home.getState("lock.front_door")?.state).toBe("locked");
  });

  describe("when the wall clock moves", () => {
    const DAY = 86_400_000;
    /** Elapsed time for the runtime, moved only by the test. */
    const stopwatch = () => {
      let t = 0;
      return { elapsed: () => t, advance: (ms: number) => void (t += ms) };
    };
    const settle = (ms = 150) => new Promise((r) => setTimeout(r, ms));

    it("after a reboot with the clock 180 days behind, a waiting approval keeps its time: no early expiry, no timer overflow", async () => {
      const s = await stack();
      s.sim.home.setState("lock.front_door", "locked");
      const waiting = await leftWaiting(s, unlockFrontDoor);
      await s.store.close();

      const behind = manualClock(Date.now() - 180 * DAY);
      const store = (s.store = await openStore({ dataDir: s.dir, clock: behind }));
      expect(store.recovery.awaitingApproval.map((w) => w.continuationId)).toEqual([waiting.id]);
      const warnings: Error[] = [];
      const onWarning = (w: Error) => warnings.push(w);
      process.on("warning", onWarning);
      try {
        const monotonic = stopwatch();
        const model = scriptedModel([{ text: "", toolCalls: [unlockFrontDoor] }, reportResult]);
        const runtime = s.runtime(model, ACTS, [], { clock: behind, monotonic, deadlineCheckMs: 10 });
        await runtime.takeUpWaiting(store.recovery.awaitingApproval);
        await settle();
        expect((await runtime.get(alice, waiting.id)).status).toBe("input_required");
        // Nine minutes of the ten pass: still waiting.
        monotonic.advance(540_000);
        behind.advance(540_000);
        await settle();
        expect((await runtime.get(alice, waiting.id)).status).toBe("input_required");
        expect(warnings.filter((w) => w.name === "TimeoutOverflowWarning")).toEqual([]);
        // The rest passes: it ends, saying so truly, with nothing done.
        monotonic.advance(61_000);
        behind.advance(61_000);
        await settle();
        const done = await runtime.get(alice, waiting.id);
        expect(done).toMatchObject({ status: "expired", error: { code: "approval_expired" } });
        expect(callsOf(s, "lock", "unlock")).toBe(0);
        await runtime.drain(1_000);
      } finally {
        process.off("warning", onWarning);
      }
      expect(warnings.filter((w) => w.name === "TimeoutOverflowWarning")).toEqual([]);
    });

    it("after a reboot with the clock 180 days behind, a carried approval keeps the time it had left when the program stopped, not a fresh timeout", async () => {
      const s = await stack();
      s.sim.home.setState("lock.front_door", "locked");
      const T0 = Date.now();
      const before = manualClock(T0);
      await s.store.close();
      s.store = await openStore({ dataDir: s.dir, clock: before, monotonic: stopwatch() });
      s.store.keepClockMark({ schedule: () => () => {} });
      const first = s.runtime(scriptedModel([{ text: "", toolCalls: [unlockFrontDoor] }]), ACTS, [], { clock: before });
      const waiting = await waitingTurn(s, first);
      expect(waiting.approval!.expiresAt - waiting.approval!.requestedAt).toBe(600_000);
      // Four of the ten minutes pass; then the power goes (the note of the last time seen is renewed as it stops).
      before.advance(240_000);
      await first.drain(1_000);
      await s.store.close();

      const behind = manualClock(T0 - 180 * DAY);
      const monotonic = stopwatch();
      const store = (s.store = await openStore({ dataDir: s.dir, clock: behind, monotonic }));
      expect(store.lastSeenAt).toBe(T0 + 240_000);
      const runtime = s.runtime(scriptedModel([{ text: "", toolCalls: [unlockFrontDoor] }]), ACTS, [], { clock: behind, monotonic, deadlineCheckMs: 10 });
      await runtime.takeUpWaiting(store.recovery.awaitingApproval);
      await settle();
      expect((await runtime.get(alice, waiting.id)).status).toBe("input_required");
      monotonic.advance(330_000);
      behind.advance(330_000);
      await settle();
      expect((await runtime.get(alice, waiting.id)).status).toBe("input_required");
      // Six minutes were left: past them it ends, with nothing done.
      monotonic.advance(40_000);
      behind.advance(40_000);
      await settle();
      expect(await runtime.get(alice, waiting.id)).toMatchObject({ status: "expired", error: { code: "approval_expired" } });
      expect(callsOf(s, "lock", "unlock")).toBe(0);
      await runtime.drain(1_000);
    });

    it("an approval asked while the clock is behind what the data last saw still gets its whole timeout", async () => {
      const s = await stack();
      s.sim.home.setState("lock.front_door", "locked");
      const T0 = Date.now();
      const before = manualClock(T0);
      await s.store.close();
      s.store = await openStore({ dataDir: s.dir, clock: before });
      await s.store.sessions.create({ owner: alice.id });
      await s.store.close();
      const behind = manualClock(T0 - 180 * DAY);
      const monotonic = stopwatch();
      s.store = await openStore({ dataDir: s.dir, clock: behind, monotonic });
      expect(s.store.lastSeenAt).toBeGreaterThanOrEqual(T0);
      const runtime = s.runtime(scriptedModel([{ text: "", toolCalls: [unlockFrontDoor] }]), ACTS, [], { clock: behind, monotonic, deadlineCheckMs: 10 });
      const waiting = await waitingTurn(s, runtime);
      monotonic.advance(540_000);
      behind.advance(540_000);
      await settle();
      expect((await runtime.get(alice, waiting.id)).status).toBe("input_required");
      await runtime.cancel(alice, waiting.id).catch(() => undefined);
      await runtime.drain(1_000);
    });

    it("after a forward jump past the deadline, the waiting turn expires promptly with nothing done, and the session takes messages again", async () => {
      const s = await stack();
      s.sim.home.setState("lock.front_door", "locked");
      const clock = manualClock(Date.now());
      const monotonic = stopwatch();
      const model = scriptedModel([{ text: "", toolCalls: [unlockFrontDoor] }, { text: "Hello again.", toolCalls: [] }]);
      const runtime = s.runtime(model, ACTS, [], { clock, monotonic, deadlineCheckMs: 10 });
      const waiting = await waitingTurn(s, runtime);
      // NTP sets the clock an hour forward; no time elapsed in this run.
      clock.advance(3_600_000);
      await settle();
      const done = await runtime.get(alice, waiting.id);
      expect(done).toMatchObject({ status: "expired", error: { code: "approval_expired" } });
      expect(await decisionsOf(s, waiting.id)).toEqual(["expired"]);
      expect(callsOf(s, "lock", "unlock")).toBe(0);
      const { continuation } = await runtime.send(alice, { sessionId: waiting.sessionId, message: "hello" });
      expect((await runtime.wait(alice, continuation.id, 5_000)).status).toBe("completed");
      await runtime.drain(1_000);
    });

    it("a message sent right after a forward jump ends the overdue wait first instead of answering busy", async () => {
      const s = await stack();
      const clock = manualClock(Date.now());
      const model = scriptedModel([{ text: "", toolCalls: [unlockFrontDoor] }, { text: "Hello again.", toolCalls: [] }]);
      // The wait's own look is 30 s away: only the message can notice the jump in time.
      const runtime = s.runtime(model, ACTS, [], { clock, monotonic: stopwatch() });
      const waiting = await waitingTurn(s, runtime);
      clock.advance(3_600_000);
      const { continuation } = await runtime.send(alice, { sessionId: waiting.sessionId, message: "hello" });
      expect((await runtime.get(alice, waiting.id)).status).toBe("expired");
      expect((await runtime.wait(alice, continuation.id, 5_000)).status).toBe("completed");
      expect(callsOf(s, "lock", "unlock")).toBe(0);
      await runtime.drain(1_000);
    });
  });
});
