import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startFakeGemini, type FakeGemini, type GeminiReply, type GeminiRequestBody } from "@ha-agent/model-fakes";
import { demoHouse, startSimulator, type Simulator } from "@ha-agent/ha-simulator";
import { startConfigPostCounter, type ConfigPostCounter, type HeldPost } from "../support/config-post-counter.js";
import { callTool, waitUntil } from "../support/mcp.js";
import { runProgram, type Program } from "../support/program.js";
import { connectClient } from "../support/stack.js";

const KEY = "AIzaSaveRestartKey0000000000000000000000";
const ENTITY = "automation.porch_light_off_at_midnight";
const DRAFT = { alias: "Porch light off at midnight", triggers: [{ trigger: "time", at: "00:00:00" }], actions: [{ action: "light.turn_off", target: { entity_id: "light.porch_light" } }] };

/** What the model saves: a new automation, unless a test has it change one. */
let saving: Record<string, unknown> = { config: DRAFT };

/** Saves the draft, then repeats what the save gave back. */
function responder(body: GeminiRequestBody): GeminiReply {
  if (!(body.tools ?? []).length) return { text: "Summary." };
  const response = (body.contents ?? []).at(-1)?.parts?.find((p) => p.functionResponse)?.functionResponse as { response?: unknown } | undefined;
  if (response) return { text: `The save came back: ${JSON.stringify(response.response)}` };
  return { calls: [{ name: "automation_save", args: saving }] };
}

/**
 * A save approved by a person, with the program killed (SIGKILL) while the
 * save is on its way to Home Assistant: whether the POST got there or not,
 * the resumed turn leaves the automation saved, and Home Assistant received
 * exactly one POST. A proxy in front of the simulator holds the POST, so
 * the kill comes between the approval and the save every time.
 */
describe("an approved automation save across a hard kill of the program", () => {
  let sim: Simulator;
  let counter: ConfigPostCounter;
  let gemini: FakeGemini;
  const running: Program[] = [];
  const dirs: string[] = [];

  beforeAll(async () => {
    sim = await startSimulator({ house: demoHouse() });
    counter = await startConfigPostCounter(sim);
    gemini = await startFakeGemini({ apiKey: KEY, responder });
  });
  afterEach(async () => {
    for (const p of running.splice(0)) {
      if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill("SIGKILL");
      await p.exited;
    }
  });
  afterAll(async () => {
    await gemini?.close();
    await counter?.close();
    await sim?.close();
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  async function start(dataDir: string): Promise<{ client: Client; program: Program }> {
    const program = runProgram({ DATA_DIR: dataDir, MCP_PORT: "0", STATUS_PORT: "0", HA_URL: counter.url, HA_TOKEN: sim.users.tokenFor(), MODEL_PROVIDER: "gemini", GEMINI_API_KEY: KEY, GEMINI_BASE_URL: gemini.url, ALLOW_AUTOMATION_EDITS: "true" });
    running.push(program);
    const [, url] = (await program.waitFor(/^MCP endpoint: (\S+)$/m)) as RegExpMatchArray;
    await program.waitFor(/HA Agent is ready/);
    return { client: await connectClient(url as string, sim.users.tokenFor()), program };
  }

  /** Starts a save, approves it, and kills the program while its POST is held on the way. */
  async function killedMidSave(): Promise<{ dataDir: string; continuationId: string; held: HeldPost }> {
    const dataDir = await mkdtemp(join(tmpdir(), "ha-agent-save-restart-"));
    dirs.push(dataDir);
    const first = await start(dataDir);
    const session = await callTool(first.client, "ha_agent_start_session", { policy: { approval: "ask" } });
    const sent = await callTool(first.client, "ha_agent_send_message", { session_id: session.value.session_id, message: "turn the porch light off every midnight" });
    const continuationId = sent.value.continuation_id as string;
    const waiting = await waitUntil(() => callTool(first.client, "ha_agent_await_continuation", { continuation_id: continuationId, timeout_ms: 1_000 }), (r) => r.value.status === "input_required", 15_000);
    expect(waiting.value.approval).toMatchObject({ service: "automation_save", why: "automation_edit" });
    const holding = counter.holdNext();
    await callTool(first.client, "ha_agent_approve", { continuation_id: continuationId, approval_id: (waiting.value.approval as { approval_id: string }).approval_id, decision: "approve" });
    const held = await holding;
    await first.client.close();
    first.program.child.kill("SIGKILL");
    await first.program.exited;
    return { dataDir, continuationId, held };
  }

  async function resumed(dataDir: string, continuationId: string): Promise<Record<string, unknown>> {
    const second = await start(dataDir);
    const interrupted = await callTool(second.client, "ha_agent_await_continuation", { continuation_id: continuationId, timeout_ms: 1_000 });
    expect(interrupted.value).toMatchObject({ status: "interrupted", next: "resume" });
    await callTool(second.client, "ha_agent_resume", { continuation_id: continuationId });
    const done = await waitUntil(() => callTool(second.client, "ha_agent_await_continuation", { continuation_id: continuationId, timeout_ms: 2_000 }), (r) => ["completed", "failed"].includes(r.value.status as string), 20_000);
    await second.client.close();
    return done.value;
  }

  it("the POST reached Home Assistant before the kill: the resumed turn finds it saved and does not post again", async () => {
    const before = counter.posts.length;
    const { dataDir, continuationId, held } = await killedMidSave();
    await held.forward();
    expect(counter.posts.length).toBe(before + 1);
    const done = await resumed(dataDir, continuationId);
    expect(done.status, JSON.stringify(done)).toBe("completed");
    expect(JSON.stringify(done.response)).toContain("It was saved before HA Agent restarted");
    expect(counter.posts.length).toBe(before + 1);
    expect(sim.home.getState(ENTITY)?.state).toBe("on");
  }, 90_000);

  it("the POST never reached Home Assistant: the resumed turn saves the approved config, once", async () => {
    // A home without the automation, whatever ran before.
    const saved = sim.home.getState(ENTITY);
    if (saved) {
      const removed = await fetch(`${sim.url}/api/config/automation/config/${String(saved.attributes.id)}`, { method: "DELETE", headers: { authorization: `Bearer ${sim.users.tokenFor()}` } });
      expect(removed.status).toBe(200);
      await waitUntil(async () => sim.home.getState(ENTITY), (s) => s === undefined, 5_000);
    }
    const before = counter.posts.length;
    const { dataDir, continuationId, held } = await killedMidSave();
    held.drop();
    expect(counter.posts.length).toBe(before);
    const done = await resumed(dataDir, continuationId);
    expect(done.status, JSON.stringify(done)).toBe("completed");
    expect(JSON.stringify(done.response)).toContain("HA Agent restarted before the save; it is done now");
    expect(counter.posts.length).toBe(before + 1);
    expect(sim.home.getState(ENTITY)?.state).toBe("on");
  }, 90_000);

  it("the automation was edited in Home Assistant between the yes and the save: the resumed turn refuses, says what to do, and overwrites nothing", async () => {
    const id = "hall_night_light";
    const config = (path: string) => `${sim.url}/api/config/automation/config/${path}`;
    const headers = { authorization: `Bearer ${sim.users.tokenFor()}`, "content-type": "application/json" };
    const write = (body: Record<string, unknown>) => fetch(config(id), { method: "POST", headers, body: JSON.stringify(body) });
    const trigger = { trigger: "time", at: "22:00:00" };
    expect((await write({ alias: "Hall night light", triggers: [trigger], actions: [{ action: "light.turn_on", target: { entity_id: "light.porch_light" } }] })).status).toBe(200);
    saving = { id, config: { alias: "Hall night light", triggers: [trigger], actions: [{ action: "light.turn_off", target: { entity_id: "light.porch_light" } }] } };
    try {
      const before = counter.posts.length;
      const { dataDir, continuationId, held } = await killedMidSave();
      held.drop();
      // Someone edits the automation in Home Assistant's editor while HA Agent is down.
      const edited = { alias: "Hall night light, edited in HA", triggers: [{ trigger: "time", at: "23:00:00" }], actions: [{ action: "light.turn_on", target: { entity_id: "light.porch_light" } }] };
      expect((await write(edited)).status).toBe(200);
      const done = await resumed(dataDir, continuationId);
      expect(JSON.stringify(done.response)).toContain("changed in Home Assistant after a person approved this save");
      expect(JSON.stringify(done.response)).toContain("ask again");
      expect(counter.posts.length).toBe(before);
      const saved = (await (await fetch(config(id), { headers })).json()) as Record<string, unknown>;
      expect(saved).toMatchObject(edited);
    } finally {
      saving = { config: DRAFT };
    }
  }, 90_000);
});
