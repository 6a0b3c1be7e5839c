import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { manualClock, type Clock, type Principal } from "../../shared/index.js";
import { openStore, type Store } from "../../store/index.js";
import { ToolRegistry } from "../registry.js";
import type { ToolCallContext, ToolOutcome } from "../tool.js";
import { createSessionTools } from "./index.js";

const alice: Principal = { id: "user-alice", name: "Alice", kind: "user", isAdmin: true };
const bob: Principal = { id: "user-bob", name: "Bob", kind: "user", isAdmin: false };
const ctxFor = (principal: Principal): ToolCallContext => ({ principal, signal: new AbortController().signal, progress: async () => undefined });

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(dataDir?: string, more: { configuredModel?: () => { provider: string; model: string }; clock?: Clock } = {}): Promise<{ store: Store; registry: ToolRegistry; dataDir: string }> {
  const dir = dataDir ?? (await mkdtemp(join(tmpdir(), "ha-agent-tools-")));
  if (!dataDir) cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const { clock, ...options } = more;
  const store = await openStore({ dataDir: dir, ...(clock ? { clock } : {}) });
  cleanups.push(() => store.close());
  const registry = new ToolRegistry();
  for (const tool of createSessionTools({ store, ...options })) registry.register(tool);
  return { store, registry, dataDir: dir };
}

// The union of the fields these tests read from the tools' results.
interface Wire {
  session_id: string;
  session: { continuations: unknown[] } & Record<string, unknown>;
  sessions: Array<{ session_id: string }>;
  next_cursor: string | null;
  budgets: unknown;
  policy: unknown;
  model: unknown;
}

async function call(registry: ToolRegistry, name: string, args: unknown, principal = alice): Promise<ToolOutcome<Wire>> {
  return (await registry.call(name, args, ctxFor(principal))) as unknown as ToolOutcome<Wire>;
}

describe("session tools", () => {
  it("start_session and get_session say which provider and model the session's turns use", async () => {
    const { registry } = await setup(undefined, { configuredModel: () => ({ provider: "gemini", model: "gemini-2.5-flash" }) });
    const plain = await call(registry, "start_session", {});
    expect(plain.ok && plain.value.model).toEqual({ provider: "gemini", name: "gemini-2.5-flash" });
    const chosen = await call(registry, "start_session", { model: { name: "gemini-2.5-pro", temperature: 0.2 } });
    expect(chosen.ok && chosen.value.model).toEqual({ provider: "gemini", name: "gemini-2.5-pro", temperature: 0.2 });
    const got = await call(registry, "get_session", { session_id: chosen.ok ? chosen.value.session_id : "" });
    expect(got.ok && got.value.session.model).toEqual({ provider: "gemini", name: "gemini-2.5-pro", temperature: 0.2 });
    const other = await call(registry, "start_session", { model: { provider: "openai" } });
    expect(other).toMatchObject({ ok: false, error: { code: "invalid_argument", message: expect.stringContaining("model.provider") } });
  });

  it("refuses budgets above their maximum, naming the field and the limit", async () => {
    const { registry } = await setup();
    const cases: [Record<string, number>, string][] = [
      [{ max_duration_ms: 3e9 }, "budgets.max_duration_ms: at most 3600000"],
      [{ max_steps: 4294967296 }, "budgets.max_steps: at most 50"],
      [{ max_tool_calls: 201 }, "budgets.max_tool_calls: at most 200"],
      [{ max_tokens_per_turn: 2 ** 53 - 1 }, "budgets.max_tokens_per_turn: at most 2000000"],
    ];
    for (const [budgets, message] of cases) {
      expect(await call(registry, "start_session", { budgets })).toMatchObject({ ok: false, error: { code: "invalid_argument", message: expect.stringContaining(message) } });
    }
    const atLimit = await call(registry, "start_session", { budgets: { max_duration_ms: 3_600_000, max_steps: 50 } });
    expect(atLimit.ok && atLimit.value.budgets).toMatchObject({ max_duration_ms: 3_600_000, max_steps: 50 });
  });

  it("start_session fills the default budgets and policy and get_session shows them", async () => {
    const { registry } = await setup();
    const started = await call(registry, "start_session", { budgets: { max_steps: 4 }, preferences: { language: "de" } });
    expect(started.ok).toBe(true);
    if (!started.ok) return;
    expect(started.value.budgets).toEqual({ max_steps: 4, max_tool_calls: 16, max_duration_ms: 120_000, max_tokens_per_turn: 100_000 });
    expect(started.value.policy).toMatchObject({ allow_actuation: false, max_open_continuations: 1 });
    const got = await call(registry, "get_session", { session_id: started.value.session_id });
    expect(got.ok && got.value.session).toMatchObject({ status: "active", preferences: { language: "de" }, memory: { last_k: 0 }, continuations: [] });
  });

  it("hides another principal's session as not_found and lists only the caller's own", async () => {
    const { registry } = await setup();
    const mine = await call(registry, "start_session", {});
    const id = mine.ok ? mine.value.session_id : "";
    await call(registry, "start_session", {}, bob);
    const theirs = await call(registry, "get_session", { session_id: id }, bob);
    expect(theirs).toMatchObject({ ok: false, error: { code: "not_found" } });
    expect(await call(registry, "end_session", { session_id: id }, bob)).toMatchObject({ ok: false, error: { code: "not_found" } });
    const listed = await call(registry, "list_sessions", {});
    expect(listed.ok && listed.value.sessions.map((s) => s.session_id)).toEqual([id]);
  });

  it("ends a session once and then says it is ended", async () => {
    const { registry } = await setup();
    const started = await call(registry, "start_session", {});
    const id = started.ok ? started.value.session_id : "";
    expect(await call(registry, "end_session", { session_id: id, reason: "done" })).toEqual({ ok: true, value: { status: "ended" } });
    const again = await call(registry, "end_session", { session_id: id });
    expect(again).toMatchObject({ ok: false, error: { code: "session_ended" } });
    if (!again.ok) expect(again.error.message).toMatch(/start a new session/);
    const got = await call(registry, "get_session", { session_id: id });
    expect(got.ok && got.value.session).toMatchObject({ status: "ended", end_reason: "done" });
    const active = await call(registry, "list_sessions", { status: "active" });
    expect(active.ok && active.value.sessions).toEqual([]);
  });

  it("pages through sessions with a cursor and refuses a made-up one", async () => {
    const { registry } = await setup();
    for (let i = 0; i < 3; i++) await call(registry, "start_session", {});
    const first = await call(registry, "list_sessions", { limit: 2 });
    expect(first.ok && first.value.sessions).toHaveLength(2);
    const cursor = first.ok ? first.value.next_cursor : null;
    expect(cursor).toEqual(expect.any(String));
    const second = await call(registry, "list_sessions", { limit: 2, cursor });
    expect(second.ok && second.value).toMatchObject({ next_cursor: null });
    expect(second.ok && second.value.sessions).toHaveLength(1);
    expect(await call(registry, "list_sessions", { cursor: "nope" })).toMatchObject({ ok: false, error: { code: "invalid_argument" } });
  });

  it("lists sessions newest first by created_at after the clock moved back, also page by page", async () => {
    const clock = manualClock(Date.UTC(2026, 5, 1));
    const { registry } = await setup(undefined, { clock });
    const idOf = (o: ToolOutcome<Wire>) => (o.ok ? o.value.session_id : "");
    const older = idOf(await call(registry, "start_session", {}));
    clock.advance(-3_600_000);
    const oldest = idOf(await call(registry, "start_session", {}));
    clock.advance(7_200_000);
    const newest = idOf(await call(registry, "start_session", {}));
    const all = await call(registry, "list_sessions", {});
    expect(all.ok && all.value.sessions.map((s) => s.session_id)).toEqual([newest, older, oldest]);
    const first = await call(registry, "list_sessions", { limit: 2 });
    const second = await call(registry, "list_sessions", { limit: 2, cursor: first.ok ? first.value.next_cursor : null });
    expect(second.ok && second.value.sessions.map((s) => s.session_id)).toEqual([oldest]);
  });

  it("shows continuation statuses, and an unfinished one as interrupted after a restart", async () => {
    const first = await setup();
    const s = await first.store.sessions.create({ owner: alice.id });
    const { continuation } = await first.store.continuations.create(alice.id, s.id, { message: "why did the lights flicker?" });
    await first.store.continuations.update(alice.id, continuation.id, { status: "running" });
    await first.store.close();
    const second = await setup(first.dataDir);
    const got = await call(second.registry, "get_session", { session_id: s.id });
    expect(got.ok && got.value.session.continuations).toEqual([
      expect.objectContaining({ continuation_id: continuation.id, status: "interrupted", preview: "why did the lights flicker?" }),
    ]);
  });

  it("shows the memory sizes of a finished turn, also after a restart, without the memory itself", async () => {
    const first = await setup();
    const s = await first.store.sessions.create({ owner: alice.id, pins: ["never touch the heating"] });
    const { continuation } = await first.store.continuations.create(alice.id, s.id, { message: "hi" });
    await first.store.continuations.update(alice.id, continuation.id, {
      status: "completed",
      response: { finalMessage: "hello" },
      memory: {
        rollingSummary: "greeted",
        facts: [{ text: "likes it warm", createdAt: 1 }],
        pins: [{ id: "p1", text: "never touch the heating" }],
        lastK: [
          { role: "user", content: "hi", ts: 1 },
          { role: "assistant", content: "hello", ts: 2 },
        ],
      },
    });
    const sizes = { rolling_summary_chars: 7, facts: 1, pins: 1, last_k: 2 };
    const got = await call(first.registry, "get_session", { session_id: s.id });
    expect(got.ok && got.value.session.memory).toEqual(sizes);
    await first.store.close();
    const second = await setup(first.dataDir);
    const again = await call(second.registry, "get_session", { session_id: s.id });
    expect(again.ok && again.value.session.memory).toEqual(sizes);
  });

  it("rejects a malformed session id as an invalid argument", async () => {
    const { registry } = await setup();
    expect(await call(registry, "get_session", { session_id: "../../etc/passwd" })).toMatchObject({ ok: false, error: { code: "invalid_argument" } });
  });
});
