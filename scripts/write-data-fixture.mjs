#!/usr/bin/env node
// Writes a small data directory with the store of one build (its compiled
// dist/), for test/fixtures/data-format-N/: what a released format looks like
// on disk, read whole by the upgrade test (test/store/formats.test.ts).
// Only the store API both releases share is used, so the same script writes
// the previous release's format and this one's:
//
//   git worktree add /tmp/prev eb8b18f && (cd /tmp/prev && npm ci && npm run build)
//   node scripts/write-data-fixture.mjs --dist /tmp/prev/dist --out test/fixtures/data-format-1
//   npm run build && node scripts/write-data-fixture.mjs --dist dist --out test/fixtures/data-format-2
//
// --now MS sets the clock (default 2026-01-01T00:00:00Z, so fixtures are
// stable); approvals expire 30 days after it.
import { mkdir, readFile, rm } from "node:fs/promises";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i === -1 ? fallback : process.argv[i + 1];
};
const dist = resolve(arg("--dist", "dist"));
const out = resolve(arg("--out", ""));
if (!arg("--out")) {
  console.error("usage: node scripts/write-data-fixture.mjs --dist DIST --out DIR [--now MS]");
  process.exit(2);
}
const load = (path) => import(pathToFileURL(join(dist, path)).href);
const { openStore, loadSecret } = await load("store/index.js");
const { saveGrants } = await load("oauth/grants/grants-file.js");
const { writeIndexMeta } = await load("indexer/meta.js");
const { announcementStore } = await load("supervisor/announcement-record.js");

const T0 = Number(arg("--now", "1767225600000"));
let t = T0;
// Each reading a second later: times and ids in the files are distinct and in order.
const clock = { now: () => (t += 1000) };
const DAY = 86_400_000;

await rm(out, { recursive: true, force: true });
await mkdir(out, { recursive: true, mode: 0o700 });
// A build that keeps its version in format.json takes it from here; older ones ignore the option.
const { version } = JSON.parse(await readFile(join(dist, "..", "package.json"), "utf8"));
const store = await openStore({ dataDir: out, clock, appVersion: version });
// clock.json (from format 2): renewed only at close here, so the fixture stays the same from run to run.
store.keepClockMark?.({ schedule: () => () => {} });
const ADMIN = "8f2c1d4e5a6b7c8d9e0f1a2b3c4d5e6f";

/** The agent's journal line of one Gemini call (src/agent/records.ts), journaled before any tool runs, so a resume never asks again. */
const modelResponse = (step, calls, text = "") => ({
  type: "model_response",
  detail: {
    step,
    turn: {
      provider: "gemini",
      model: "gemini-2.5-flash",
      raw: { role: "model", parts: [...(text ? [{ text }] : []), ...calls.map((c) => ({ functionCall: { id: c.id, name: c.name, args: c.args } }))] },
      text,
      toolCalls: calls,
    },
    usage: { inputTokens: 600, outputTokens: 40, thinkingTokens: 15, cachedTokens: 0, estimated: false },
    finishReason: calls.length ? "tool_calls" : "stop",
    durationMs: 850,
    wrapUp: false,
  },
});

// 1. A finished turn: steps, an artifact, usage, memory.
const chat = await store.sessions.create({ owner: ADMIN, pins: ["never touch the heating"], preferences: { language: "en", units: "metric" } });
const asked = (await store.continuations.create(ADMIN, chat.id, { message: "why did the hall light flicker last night?", ownerIsAdmin: true, model: "gemini/gemini-2.5-flash", idempotencyKey: "fixture-1" })).continuation;
await store.continuations.update(ADMIN, asked.id, { status: "running" });
await store.steps.append(ADMIN, asked.id, { type: "retrieval", detail: { text: "light.hall (Hall light): on" } });
const key = `${asked.id}:1:0`;
const historyCall = { id: "c1", name: "history", args: { entity_id: "light.hall" } };
await store.steps.append(ADMIN, asked.id, modelResponse(1, [historyCall]));
await store.steps.append(ADMIN, asked.id, { type: "tool_call", key, detail: { step: 1, index: 0, call: historyCall, action: false } });
const artifact = await store.artifacts.put(ADMIN, asked.id, { content: "22:14 on\n22:14 off\n22:15 on\n", mediaType: "text/plain", name: "history.txt" });
await store.steps.append(ADMIN, asked.id, { type: "tool_result", key, artifact, detail: { step: 1, index: 0, result: { callId: "c1", name: "history", output: "3 changes", isError: false }, durationMs: 12 } });
await store.steps.append(ADMIN, asked.id, modelResponse(2, [], "The hall light switched off and on at 22:14 and 22:15."));
const usage = { steps: 2, toolCalls: 1, tokensIn: 1200, tokensOut: 80, tokensThinking: 30, modelCalls: 2, model: "gemini/gemini-2.5-flash" };
await store.continuations.update(ADMIN, asked.id, {
  status: "completed",
  response: { finalMessage: "The hall light switched off and on at 22:14 and 22:15.", citations: [{ source: "light.hall", detail: "history" }], followUps: ["Show the automation that did it"] },
  usage,
  memory: {
    rollingSummary: "",
    facts: [{ text: "The hall light is on a dimmer", createdAt: T0, source: "user" }],
    pins: [{ id: "p1", text: "never touch the heating" }],
    lastK: [
      { role: "user", content: "why did the hall light flicker last night?", continuationId: asked.id, ts: T0 },
      { role: "assistant", content: "The hall light switched off and on at 22:14 and 22:15.", continuationId: asked.id, ts: T0 + 5000 },
    ],
  },
});

// 2. A turn waiting for a person's yes to unlock the front door, sent by an administrator.
const door = await store.sessions.create({ owner: ADMIN, policy: { allowActuation: true, approval: "ask" } });
const unlock = (await store.continuations.create(ADMIN, door.id, { message: "unlock the front door", ownerIsAdmin: true })).continuation;
await store.continuations.update(ADMIN, unlock.id, { status: "running" });
const unlockKey = `${unlock.id}:1:0`;
const unlockCall = { id: "c2", name: "call_service", args: { domain: "lock", service: "unlock", target: { entity_id: "lock.front_door" } } };
await store.steps.append(ADMIN, unlock.id, modelResponse(1, [unlockCall]));
await store.steps.append(ADMIN, unlock.id, { type: "tool_call", key: unlockKey, detail: { step: 1, index: 0, call: unlockCall, action: true } }, { durable: true });
const lockApproval = {
  id: "01JD3Z8Q4R5S6T7V8W9X0Y1Z2A",
  step: 1,
  index: 0,
  call: { kind: "call_service", domain: "lock", service: "unlock", targets: ["lock.front_door"], data: {} },
  targetStates: [{ entityId: "lock.front_door", name: "Front door", state: "locked" }],
  why: "not_preapproved",
  requestedAt: clock.now(),
  expiresAt: T0 + 30 * DAY,
};
await store.steps.append(ADMIN, unlock.id, { type: "approval_request", key: unlockKey, detail: lockApproval }, { durable: true });
await store.continuations.update(ADMIN, unlock.id, { status: "input_required", approval: lockApproval, usage: { steps: 1, toolCalls: 1, tokensIn: 900, tokensOut: 40, modelCalls: 1 } });

// 3. A turn waiting for a person's yes to save a new automation.
const auto = await store.sessions.create({ owner: ADMIN, policy: { allowActuation: true, approval: "ask" } });
const save = (await store.continuations.create(ADMIN, auto.id, { message: "turn the porch light on at sunset", ownerIsAdmin: true })).continuation;
await store.continuations.update(ADMIN, save.id, { status: "running" });
const saveKey = `${save.id}:1:0`;
const config = { id: "1767225600000", alias: "Porch light at sunset", triggers: [{ trigger: "sun", event: "sunset" }], actions: [{ action: "light.turn_on", target: { entity_id: "light.porch" } }], mode: "single" };
const saveCall = { id: "c3", name: "automation_save", args: { config } };
await store.steps.append(ADMIN, save.id, modelResponse(1, [saveCall]));
await store.steps.append(ADMIN, save.id, { type: "tool_call", key: saveKey, detail: { step: 1, index: 0, call: saveCall, action: true } }, { durable: true });
const saveApproval = {
  id: "01JD3Z8Q4R5S6T7V8W9X0Y1Z2B",
  step: 1,
  index: 0,
  call: { kind: "automation_save", id: "1767225600000", created: true, entityId: null, config, diff: null },
  targetStates: [],
  why: "automation_edit",
  requestedAt: clock.now(),
  expiresAt: T0 + 30 * DAY,
};
await store.steps.append(ADMIN, save.id, { type: "approval_request", key: saveKey, detail: saveApproval }, { durable: true });
await store.continuations.update(ADMIN, save.id, { status: "input_required", approval: saveApproval, usage: { steps: 1, toolCalls: 1, tokensIn: 700, tokensOut: 120, modelCalls: 1 } });
await store.close();

// The files the rest of the program keeps in the data directory.
await loadSecret({ dataDir: out, name: "request-state" });
await mkdir(join(out, "oauth"), { mode: 0o700 });
await saveGrants({
  dir: join(out, "oauth"),
  grants: [
    {
      id: "grant-1",
      clientId: "https://claude.ai/oauth/mcp-oauth-client-metadata",
      clientName: "Claude",
      principal: { id: ADMIN, name: "Alex", isAdmin: true },
      resource: "http://homeassistant.local:8099/mcp",
      scope: "mcp",
      haRefreshToken: "fixture-not-a-real-refresh-token",
      haClientId: "http://homeassistant.local:8099/",
      createdAt: T0,
      lastUsedAt: T0 + 60_000,
      refreshToken: { hash: "9b74c9897bac770ffc029102a200c5de", expiresAt: T0 + 90 * DAY },
      usedRefreshHashes: ["4a8a08f09d37b73795649038408b5f33"],
      accessTokens: [{ hash: "8277e0910d750195b448797616e091ad", expiresAt: T0 + 3_600_000 }],
    },
  ],
});
await writeIndexMeta(out, { formatVersion: 1, haVersion: "2026.1.0", builtAt: T0 });
await announcementStore(out).write({ uuid: "0c6f3f3a2b1d4e5f8a9b0c1d2e3f4a5b", service: "mcp", url: "http://homeassistant.local:8099/mcp", at: new Date(T0).toISOString() });
console.log(`wrote ${out}: sessions ${chat.id} (finished turn ${asked.id}), ${door.id} (lock approval ${unlock.id}), ${auto.id} (automation save ${save.id})`);
