import { afterEach, describe, expect, it, vi } from "vitest";
import { MEMORY_CACHE_SESSIONS, type ContinuationRequestInput } from "../../src/store/index.js";
import { alice, runCleanups, stack, type Stack } from "../support/agent-stack.js";
import { scriptedModel, type ScriptedReply } from "../support/scripted-model.js";
import { createAgentTools } from "../../src/tools/index.js";
import type { ToolCallContext } from "../../src/tools/index.js";
import type { AgentRuntime } from "../../src/agent/runtime.js";

afterEach(runCleanups);

const KITCHEN_SCRIPT: ScriptedReply[] = [
  { text: "", toolCalls: [{ name: "index_search", args: { query: "kitchen lights" } }] },
  { text: "", toolCalls: [{ name: "state_query", args: { area: "kitchen", domain: "light", state: "on" } }] },
  (request) => {
    const results = request.conversation.at(-1);
    const entities = results?.type === "tool_results" ? ((results.results[0]!.output as { entities: { entity_id: string }[] }).entities ?? []) : [];
    const text = `On in the kitchen: ${entities.map((e) => e.entity_id).join(", ")}.`;
    return { turn: { provider: "scripted", model: "s", raw: { text }, text, toolCalls: [] }, text, toolCalls: [], finishReason: "stop", usage: { inputTokens: 50, outputTokens: 12, thinkingTokens: 0, cachedTokens: 0, estimated: false }, durationMs: 1 };
  },
];

/**
 * A model that asks for one search, then hangs on its second call: a process
 * killed mid-turn. `hanging` resolves once it hangs; `release` lets the dead
 * turn end, and the test then drains its runtime, so nothing writes to the
 * data folder while it is removed.
 */
function dyingAfterOneStep(): { model: ReturnType<typeof scriptedModel>; hanging: Promise<void>; release: () => void } {
  let release!: () => void;
  let hung!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const hanging = new Promise<void>((r) => (hung = r));
  const model = scriptedModel([
    { text: "", toolCalls: [{ name: "index_search", args: { query: "kitchen" } }] },
    async () => {
      hung();
      await held;
      throw new Error("never answered: the process died");
    },
  ]);
  return { model, hanging, release };
}

describe("AgentRuntime", () => {
  it("answers which kitchen lights are on, citing their ids, and remembers the exchange", async () => {
    const s = await stack();
    const runtime = s.runtime(scriptedModel(KITCHEN_SCRIPT));
    const session = await s.store.sessions.create({ owner: alice.id });
    const { continuation } = await runtime.send(alice, { sessionId: session.id, message: "Which lights are on in the kitchen?" });
    const done = await runtime.wait(alice, continuation.id, 10_000);

    const on = s.sim.home.states().filter((st) => st.entity_id.startsWith("light.kitchen") && st.state === "on").map((st) => st.entity_id);
    expect(on.length).toBeGreaterThan(0);
    expect(done.status).toBe("completed");
    for (const id of on) expect(done.response?.finalMessage).toContain(id);
    expect(done.response?.citations?.map((c) => c.source).sort()).toEqual([...on].sort());
    expect(done.usage).toMatchObject({ steps: 3, toolCalls: 2 });
    const memory = await s.store.sessions.memory(alice.id, session.id);
    expect(memory.lastK.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(s.store.sessions.get(alice.id, session.id)?.memorySizes.lastK).toBe(2);
  });

  it("shows the model the previous turn although other sessions pushed the session's memory out of the store's cache", async () => {
    const s = await stack();
    const model = scriptedModel([{ text: "Nice to meet you, Ada." }, { text: "You are Ada." }]);
    const runtime = s.runtime(model);
    const session = await s.store.sessions.create({ owner: alice.id });
    const first = await runtime.send(alice, { sessionId: session.id, message: "My name is Ada.", allowTools: false });
    expect((await runtime.wait(alice, first.continuation.id, 10_000)).status).toBe("completed");
    for (let i = 0; i < MEMORY_CACHE_SESSIONS; i++) await s.store.sessions.create({ owner: `someone-${i}` });

    const second = await runtime.send(alice, { sessionId: session.id, message: "What is my name?", allowTools: false });
    expect((await runtime.wait(alice, second.continuation.id, 10_000)).status).toBe("completed");
    expect(JSON.stringify(model.requests[1]?.conversation)).toContain("My name is Ada.");
    expect(JSON.stringify(model.requests[1]?.conversation)).toContain("Nice to meet you, Ada.");
    expect((await s.store.sessions.memory(alice.id, session.id)).lastK.map((m) => m.content)).toEqual(["My name is Ada.", "Nice to meet you, Ada.", "What is my name?", "You are Ada."]);
  });

  it("marks a turn failed, and frees its session, when its run fails outside the loop", async () => {
    const s = await stack();
    const runtime = s.runtime(scriptedModel([{ text: "Here again." }]));
    const session = await s.store.sessions.create({ owner: alice.id });
    vi.spyOn(s.store.sessions, "memory").mockRejectedValueOnce(new Error("EIO: i/o error, read"));

    const first = await runtime.send(alice, { sessionId: session.id, message: "Hello?", allowTools: false });
    const failed = await runtime.wait(alice, first.continuation.id, 10_000);
    expect(failed.status).toBe("failed");
    expect(failed.error).toMatchObject({ code: "internal", message: expect.stringContaining("EIO: i/o error") });
    expect(failed.error?.message).toContain("ha_agent_retry");
    expect(s.store.sessions.get(alice.id, session.id)?.openContinuations).toEqual([]);

    const again = await runtime.retry(alice, first.continuation.id);
    expect((await runtime.wait(alice, again.continuation.id, 10_000)).status).toBe("completed");
  });

  it("says busy while a turn is open, naming it, and returns the first continuation for a repeated idempotency key", async () => {
    const s = await stack();
    const runtime = s.runtime(scriptedModel([{ text: "slow", delayMs: 2_000 }]));
    const session = await s.store.sessions.create({ owner: alice.id });
    const first = await runtime.send(alice, { sessionId: session.id, message: "one", idempotencyKey: "k1" });
    const again = await runtime.send(alice, { sessionId: session.id, message: "one", idempotencyKey: "k1" });
    expect(again).toMatchObject({ created: false, continuation: { id: first.continuation.id } });
    await expect(runtime.send(alice, { sessionId: session.id, message: "two" })).rejects.toMatchObject({ code: "busy", message: expect.stringContaining(first.continuation.id) });
    expect((await runtime.cancel(alice, first.continuation.id, "test")).status).toBe("cancelled");
    // Cancelling again answers the same: a cancel is idempotent.
    expect((await runtime.cancel(alice, first.continuation.id)).status).toBe("cancelled");
  });

  it("refuses to start a turn without a model, naming the options", async () => {
    const s = await stack();
    const runtime = s.runtime(undefined);
    const session = await s.store.sessions.create({ owner: alice.id });
    await expect(runtime.send(alice, { sessionId: session.id, message: "hi" })).rejects.toMatchObject({ code: "no_model", message: expect.stringContaining("gemini_api_key") });
  });

  it("puts the session's pins in every system instruction", async () => {
    const s = await stack();
    const model = scriptedModel([{ text: "ok" }]);
    const runtime = s.runtime(model);
    const session = await s.store.sessions.create({ owner: alice.id, pins: ["Never touch the heating."] });
    await runtime.wait(alice, (await runtime.send(alice, { sessionId: session.id, message: "hi" })).continuation.id, 5_000);
    expect(model.requests[0]!.system).toContain("- Never touch the heating.");
  });

  it("answers ask in a session that ends itself", async () => {
    const s = await stack();
    const runtime = s.runtime(scriptedModel([{ text: "Hello." }]));
    const { continuation } = await runtime.ask(alice, { message: "hi" });
    const done = await runtime.wait(alice, continuation.id, 5_000);
    expect(done.response?.finalMessage).toBe("Hello.");
    await new Promise((r) => setTimeout(r, 50));
    expect(s.store.sessions.get(alice.id, done.sessionId)?.status).toBe("ended");
  });

  it("turns the light on only when the add-on and the session allow it", async () => {
    const s = await stack();
    s.sim.home.setState("light.kitchen_ceiling", "off");
    const turnOn: ScriptedReply[] = [{ text: "", toolCalls: [{ name: "call_service", args: { domain: "light", service: "turn_on", entity_id: "light.kitchen_ceiling" } }] }, { text: "Done." }];

    const refused = s.runtime(scriptedModel(turnOn));
    const readOnly = await s.store.sessions.create({ owner: alice.id });
    const r1 = await refused.wait(alice, (await refused.send(alice, { sessionId: readOnly.id, message: "turn on the kitchen light" })).continuation.id, 5_000);
    expect(r1.status).toBe("completed");
    expect(s.sim.home.getState("light.kitchen_ceiling")?.state).toBe("off");

    const allowed = s.runtime(scriptedModel(turnOn), { allow: true, allowlist: ["light.*"] });
    const acting = await s.store.sessions.create({ owner: alice.id, policy: { allowActuation: true } });
    const r2 = await allowed.wait(alice, (await allowed.send(alice, { sessionId: acting.id, message: "turn on the kitchen light" })).continuation.id, 5_000);
    expect(r2.status).toBe("completed");
    expect(s.sim.home.getState("light.kitchen_ceiling")?.state).toBe("on");
  });

  it("after a restart the turn is interrupted, and resume finishes it without asking the model again for a journaled step", async () => {
    const s = await stack();
    const { model: firstModel, hanging, release } = dyingAfterOneStep();
    const runtime = s.runtime(firstModel);
    const session = await s.store.sessions.create({ owner: alice.id });
    const { continuation } = await runtime.send(alice, { sessionId: session.id, message: "kitchen?" });
    await hanging;
    expect(firstModel.requests).toHaveLength(2);

    // The "crash": the store is reopened under the running turn, as boot would find it.
    await s.store.steps.flush(continuation.id);
    const store = await s.reopen();
    expect((await store.continuations.get(alice.id, continuation.id))?.status).toBe("interrupted");

    const secondModel = scriptedModel([{ text: "The kitchen lights are listed above." }]);
    const after = s.runtime(secondModel);
    await after.resume(alice, continuation.id);
    const done = await after.wait(alice, continuation.id, 5_000);
    expect(done.status).toBe("completed");
    expect(secondModel.requests).toHaveLength(1);
    // The resumed call carries the journaled first model turn and its tool result.
    expect(secondModel.requests[0]!.conversation.filter((i) => i.type === "model")).toHaveLength(1);
    expect(done.usage.steps).toBe(2);
    release();
    await runtime.drain(1_000);
  });
});

/** A turn left interrupted, as boot finds it after a crash: created, then the store reopened under it. */
async function interruptedTurn(s: Stack, sessionId: string, request: ContinuationRequestInput) {
  const { continuation } = await s.store.continuations.create(alice.id, sessionId, request);
  const store = await s.reopen();
  expect((await store.continuations.get(alice.id, continuation.id))?.status).toBe("interrupted");
  return continuation;
}

describe("the model a turn runs on", () => {
  it("resumes and retries an older turn whose planner hints name a model on the session's fixed model", async () => {
    const s = await stack();
    const session = await s.store.sessions.create({ owner: alice.id, model: { name: "fixed-1" }, policy: { enforceFixedModel: true } });
    const old = await interruptedTurn(s, session.id, { message: "hi", allowTools: false, plannerHints: { model: "other-1" } });
    const asked: (string | undefined)[] = [];
    const runtime = s.runtime(scriptedModel([{ text: "resumed" }, { text: "retried" }]), undefined, asked);

    await runtime.resume(alice, old.id);
    expect((await runtime.wait(alice, old.id, 5_000)).status).toBe("completed");
    const again = await runtime.retry(alice, old.id);
    expect((await runtime.wait(alice, again.continuation.id, 5_000)).status).toBe("completed");
    expect(asked).toEqual(["fixed-1", "fixed-1"]);
    expect(again.continuation.request).toMatchObject({ model: "fixed-1", retryOf: old.id });
  });

  it("decides a turn's model when it is sent, and resume and retry keep it", async () => {
    const s = await stack();
    const session = await s.store.sessions.create({ owner: alice.id });
    const asked: (string | undefined)[] = [];
    const runtime = s.runtime(scriptedModel([{ text: "one" }, { text: "two" }]), undefined, asked);
    const { continuation } = await runtime.send(alice, { sessionId: session.id, message: "hi", model: "other-1", allowTools: false });
    expect(continuation.request.model).toBe("other-1");
    await runtime.wait(alice, continuation.id, 5_000);
    const again = await runtime.retry(alice, continuation.id);
    await runtime.wait(alice, again.continuation.id, 5_000);
    expect(asked).toEqual(["other-1", "other-1"]);
  });

  it("refuses a per-turn model in a session that fixes its model", async () => {
    const s = await stack();
    const session = await s.store.sessions.create({ owner: alice.id, model: { name: "fixed-1" }, policy: { enforceFixedModel: true } });
    const runtime = s.runtime(scriptedModel([]));
    await expect(runtime.send(alice, { sessionId: session.id, message: "hi", model: "other-1" })).rejects.toMatchObject({ code: "model_fixed" });
  });
});

describe("the agent tools over the runtime", () => {
  function tools(runtime: AgentRuntime, progress: { progress: number; message?: string }[] = []) {
    const byName = new Map(createAgentTools({ agent: runtime }).map((t) => [t.name, t]));
    const ctx: ToolCallContext = { principal: alice, signal: new AbortController().signal, progress: async (p) => void progress.push(p) };
    return (name: string, args: Record<string, unknown>) => byName.get(name)!.invoke(args as never, ctx);
  }

  it("sends one progress notification per model step, numbered as get_session numbers them", async () => {
    const s = await stack();
    const runtime = s.runtime(scriptedModel(KITCHEN_SCRIPT));
    const session = await s.store.sessions.create({ owner: alice.id });
    const progress: { progress: number; message?: string }[] = [];
    const call = tools(runtime, progress);
    const sent = await call("send_message", { session_id: session.id, message: "Which lights are on in the kitchen?" });
    const id = (sent as { ok: true; value: { continuation_id: string } }).value.continuation_id;
    const done = await call("await_continuation", { continuation_id: id, timeout_ms: 10_000 });
    expect(done).toMatchObject({ ok: true, value: { status: "completed", usage: { steps: 3 } } });
    expect(progress.map((p) => p.progress)).toEqual([1, 2, 3]);
    expect(progress.map((p) => p.message)).toEqual(["Step 1: asked for index_search", "Step 2: asked for state_query", "Step 3: answered"]);
  });

  it("carries progress on from the journal after a resume", async () => {
    const s = await stack();
    const { model: firstModel, hanging, release } = dyingAfterOneStep();
    const session = await s.store.sessions.create({ owner: alice.id });
    const first = s.runtime(firstModel);
    const { continuation } = await first.send(alice, { sessionId: session.id, message: "kitchen?" });
    await hanging;
    await s.store.steps.flush(continuation.id);
    await s.reopen();

    const progress: { progress: number; message?: string }[] = [];
    const call = tools(s.runtime(scriptedModel([{ text: "", toolCalls: [{ name: "index_search", args: { query: "light" } }] }, { text: "Found them." }])), progress);
    const interrupted = await call("await_continuation", { continuation_id: continuation.id, timeout_ms: 0 });
    expect(interrupted).toMatchObject({ ok: true, value: { status: "interrupted", next: "resume" } });
    const done = await call("resume", { continuation_id: continuation.id, timeout_ms: 10_000 });
    expect(done).toMatchObject({ ok: true, value: { status: "completed", usage: { steps: 3 } } });
    expect(progress.map((p) => p.progress)).toEqual([2, 3]);
    release();
    await first.drain(1_000);
  });

  it("with stream, await reports streaming with the text so far while it arrives; without it, running as before", async () => {
    const s = await stack();
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let spoke!: () => void;
    const spoken = new Promise<void>((r) => (spoke = r));
    const slowSpeaker: ScriptedReply = async (_request, opts) => {
      opts.onPartial?.({ text: "The kitchen " });
      opts.onPartial?.({ text: "lights are" });
      spoke();
      await held;
      opts.onPartial?.({ text: " on." });
      const text = "The kitchen lights are on.";
      return { turn: { provider: "scripted", model: "s", raw: { text }, text, toolCalls: [] }, text, toolCalls: [], finishReason: "stop", usage: { inputTokens: 5, outputTokens: 5, thinkingTokens: 0, cachedTokens: 0, estimated: false }, durationMs: 1 };
    };
    const runtime = s.runtime(scriptedModel([slowSpeaker, slowSpeaker]));
    const call = tools(runtime);
    const session = await s.store.sessions.create({ owner: alice.id });
    const sent = await call("send_message", { session_id: session.id, message: "Lights?", stream: true });
    const id = (sent as { ok: true; value: { continuation_id: string } }).value.continuation_id;
    await spoken;
    expect(await call("await_continuation", { continuation_id: id, timeout_ms: 0 })).toMatchObject({ ok: true, value: { status: "streaming", partial_response: "The kitchen lights are", next: "await" } });
    release();
    expect(await call("await_continuation", { continuation_id: id, timeout_ms: 10_000 })).toMatchObject({ ok: true, value: { status: "completed", response: { final_message: "The kitchen lights are on." } } });

    // The same model, not streamed: the status stays running.
    const plain = await s.store.sessions.create({ owner: alice.id });
    const other = s.runtime(scriptedModel([slowSpeaker]));
    const { continuation } = await other.send(alice, { sessionId: plain.id, message: "Lights?" });
    await new Promise((r) => setTimeout(r, 50));
    expect(other.streaming(continuation.id)).toBeUndefined();
    expect((await other.wait(alice, continuation.id, 10_000)).status).toBe("completed");
  });

  it("answers a cancel of an unknown turn and a message to an ended session as failures with one code each", async () => {
    const s = await stack();
    const runtime = s.runtime(scriptedModel([]));
    const call = tools(runtime);
    expect(await call("cancel", { continuation_id: "01JD0000000000000000000000" })).toMatchObject({ ok: false, error: { code: "not_found" } });
    const session = await s.store.sessions.create({ owner: alice.id });
    await s.store.sessions.end(alice.id, session.id);
    expect(await call("send_message", { session_id: session.id, message: "hi" })).toMatchObject({ ok: false, error: { code: "session_ended", message: expect.stringContaining("ha_agent_start_session") } });
  });
});
