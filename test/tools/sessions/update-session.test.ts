import { afterEach, describe, expect, it } from "vitest";
import { alice, runCleanups, stack } from "../../support/agent-stack.js";
import { scriptedModel } from "../../support/scripted-model.js";
import { ToolRegistry } from "../../../src/tools/registry.js";
import type { ToolCallContext } from "../../../src/tools/tool.js";
import { createUpdateSessionTool } from "../../../src/tools/sessions/update-session.js";

afterEach(runCleanups);

const ctx = (principal = alice): ToolCallContext => ({ principal, signal: new AbortController().signal, progress: async () => {} });

describe("ha_agent_update_session", () => {
  it("changes the pins, and the next turn's system instruction carries them", async () => {
    const s = await stack();
    const model = scriptedModel([{ text: "D'accord." }]);
    const runtime = s.runtime(model);
    const session = await s.store.sessions.create({ owner: alice.id, pins: ["Answer in English."] });
    const update = createUpdateSessionTool({ store: s.store });

    const changed = await update.invoke({ session_id: session.id, pins: ["Always answer in French.", "Never touch the heating."] }, ctx());
    expect(changed).toMatchObject({ ok: true, value: { pins: ["Always answer in French.", "Never touch the heating."], version: session.version + 1 } });

    const { continuation } = await runtime.send(alice, { sessionId: session.id, message: "Hello" });
    expect((await runtime.wait(alice, continuation.id, 5_000)).status).toBe("completed");
    const system = model.requests[0]!.system;
    expect(system).toContain("Always answer in French.");
    expect(system).toContain("Never touch the heating.");
    expect(system).not.toContain("Answer in English.");
  });

  it("changes only the policy fields given, checks the patterns as at start, and keeps the pins", async () => {
    const s = await stack();
    const session = await s.store.sessions.create({ owner: alice.id, pins: ["Keep it short."], policy: { allowActuation: true, allowlistedServices: ["light.*"] } });
    const update = createUpdateSessionTool({ store: s.store });
    const changed = await update.invoke({ session_id: session.id, policy: { approval: "ask" } }, ctx());
    expect(changed).toMatchObject({ ok: true, value: { pins: ["Keep it short."], policy: { allow_actuation: true, allowlisted_services: ["light.*"], approval: "ask" } } });
    expect(s.store.sessions.get(alice.id, session.id)?.policy.approval).toBe("ask");

    const registry = new ToolRegistry();
    registry.register(update);
    const bad = await registry.call("update_session", { session_id: session.id, policy: { allowlisted_services: ["lights"] } }, ctx());
    expect(bad).toMatchObject({ ok: false, error: { code: "invalid_argument" } });
    expect(s.store.sessions.get(alice.id, session.id)?.policy.allowlistedServices).toEqual(["light.*"]);
  });

  it("refuses another user's session as not found, and pins while a turn works", async () => {
    const s = await stack();
    const runtime = s.runtime(scriptedModel([{ text: "late", delayMs: 2_000 }]));
    const session = await s.store.sessions.create({ owner: alice.id });
    const update = createUpdateSessionTool({ store: s.store });
    const bob = { id: "bob", name: "Bob", kind: "user" as const, isAdmin: false };
    expect(await update.invoke({ session_id: session.id, pins: [] }, ctx(bob))).toMatchObject({ ok: false, error: { code: "not_found" } });

    const { continuation } = await runtime.send(alice, { sessionId: session.id, message: "Hello" });
    expect(await update.invoke({ session_id: session.id, pins: ["x"] }, ctx())).toMatchObject({ ok: false, error: { code: "busy" } });
    await runtime.cancel(alice, continuation.id);
  });
});
