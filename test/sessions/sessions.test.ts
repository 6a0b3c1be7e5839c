import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoHouse, startSimulator, type Simulator, haStyleToken } from "@ha-agent/ha-simulator";
import { callTool } from "../support/mcp.js";
import { startStack } from "../support/stack.js";

const OWNER = { id: "user-owner", name: "Owner", isAdmin: true, tokens: [haStyleToken("owner")] };
const OTHER = { id: "user-other", name: "Other", isAdmin: false, tokens: [haStyleToken("other")] };

const call = (client: Client, name: string, args: Record<string, unknown>) => callTool(client, `ha_agent_${name}`, args);

describe("sessions through MCP", () => {
  let sim: Simulator;
  let dataDir: string;
  beforeAll(async () => {
    sim = await startSimulator({ house: demoHouse(), users: [OWNER, OTHER] });
    dataDir = await mkdtemp(join(tmpdir(), "ha-agent-sessions-"));
  });
  afterAll(async () => {
    await sim?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("survive a restart of the program", async () => {
    const first = await startStack({ sim, dataDir });
    const started = await call(first.client, "start_session", { budgets: { max_steps: 4 } });
    expect(started.isError).toBe(false);
    const sessionId = started.value.session_id as string;
    await first.close();

    const second = await startStack({ sim, dataDir });
    try {
      const got = await call(second.client, "get_session", { session_id: sessionId });
      expect(got.isError).toBe(false);
      expect(got.value.session).toMatchObject({ session_id: sessionId, status: "active" });
      const listed = await call(second.client, "list_sessions", {});
      expect((listed.value.sessions as { session_id: string }[]).map((s) => s.session_id)).toContain(sessionId);
    } finally {
      await second.close();
    }
  });

  it("are invisible to every other principal", async () => {
    const stack = await startStack({ sim, dataDir });
    try {
      const mine = (await call(stack.client, "start_session", {})).value.session_id as string;
      const other = await stack.connect(haStyleToken("other"));
      const got = await call(other, "get_session", { session_id: mine });
      expect(got.isError).toBe(true);
      expect(got.text).toMatch(/not_found/);
      const ended = await call(other, "end_session", { session_id: mine });
      expect(ended.isError).toBe(true);
      const listed = await call(other, "list_sessions", {});
      expect((listed.value.sessions as { session_id: string }[]).map((s) => s.session_id)).not.toContain(mine);
      // The owner still has it, untouched.
      expect((await call(stack.client, "get_session", { session_id: mine })).value.session).toMatchObject({ status: "active" });
    } finally {
      await stack.close();
    }
  });
});

describe("a data directory crafted by hand from docs/storage.md", () => {
  const SESSION = "01JD0000000000000000000001";
  const RUNNING = "01JD0000000000000000000002";
  const BROKEN = "01JD0000000000000000000003";
  const T = Date.UTC(2026, 10, 20);
  let sim: Simulator;
  let dataDir: string;

  beforeAll(async () => {
    sim = await startSimulator({ house: demoHouse(), users: [OWNER] });
    dataDir = await mkdtemp(join(tmpdir(), "ha-agent-handmade-"));
    const dir = join(dataDir, "sessions", SESSION);
    await mkdir(join(dir, "turns"), { recursive: true });
    await mkdir(join(dir, "logs"), { recursive: true });
    await writeFile(
      join(dir, "session.json"),
      JSON.stringify({ formatVersion: 1, id: SESSION, owner: OWNER.id, version: 1, status: "active", createdAt: T, updatedAt: T, lastActivityAt: T, openContinuations: [RUNNING] }),
    );
    await writeFile(
      join(dir, "turns", `${RUNNING}.json`),
      JSON.stringify({ formatVersion: 1, id: RUNNING, sessionId: SESSION, owner: OWNER.id, status: "running", createdAt: T, updatedAt: T, request: { message: "why is the hallway light flapping?" } }),
    );
    await writeFile(join(dir, "turns", `${BROKEN}.json`), '{"formatVersion": 1, "id": "01JD00');
    await writeFile(join(dir, "logs", `${RUNNING}.log`), `{"seq":1,"ts":${T},"type":"plan","detail":"read the hallway history"}\n{"seq":2,"ts":${T},"ty`);
  });
  afterAll(async () => {
    await sim?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("boots: the running turn is interrupted, the corrupt file is quarantined and /healthz reports it", async () => {
    const stack = await startStack({ sim, dataDir });
    try {
      const got = await call(stack.client, "get_session", { session_id: SESSION });
      expect(got.isError).toBe(false);
      const continuations = (got.value.session as { continuations: { continuation_id: string; status: string }[] }).continuations;
      expect(continuations).toContainEqual(expect.objectContaining({ continuation_id: RUNNING, status: "interrupted" }));
      const quarantine = await readdir(join(dataDir, "quarantine"));
      expect(quarantine.some((f) => f.includes(BROKEN))).toBe(true);
      const health = (await (await fetch(`${stack.baseUrl}/healthz`)).json()) as { components: { store: { details: { recovery: { quarantined: unknown[]; interrupted: unknown[] } } } } };
      expect(health.components.store.details.recovery.quarantined).toHaveLength(1);
      expect(health.components.store.details.recovery.interrupted).toHaveLength(1);
    } finally {
      await stack.close();
    }
  });
});
