import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ModernCreateTaskResultSchema, ModernDetailedTaskSchema, type ModernDetailedTask } from "../../src/mcp/index.js";
import { startFakeGemini, type GeminiReply, type GeminiRequestBody, startFakeOpenAiServer, type FakeChatRequest, type FakeOpenAiServer, type FakeReply } from "@ha-agent/model-fakes";
import { defaultAdmin, demoHouse, startSimulator, type Simulator } from "@ha-agent/ha-simulator";
import { DECLARES_ELICITATION, DECLARES_TASKS, modernRequest, type RpcAnswer } from "../support/mcp-raw.js";
import { runProgram, type Program } from "../support/program.js";
import { shiftedClock, type ShiftedClock } from "../support/shifted-clock.js";

const KEY = "AIzaApprovalExpiryKey0000000000000000000";
const LOCK = "lock.front_door";
const HOURS_2 = 2 * 3_600_000;
const UNLOCK = { domain: "lock", service: "unlock", entity_id: LOCK };

/** Unlocks the front door, then reports what came back. */
function gemini(body: GeminiRequestBody): GeminiReply {
  if (!(body.tools ?? []).length) return { text: "Summary." };
  const answered = (body.contents ?? []).at(-1)?.parts?.some((p) => p.functionResponse);
  return answered ? { text: "The door call came back." } : { calls: [{ name: "call_service", args: UNLOCK }] };
}

/** The same through an OpenAI-compatible server. */
function openai(request: FakeChatRequest): FakeReply {
  const answered = request.messages.some((m) => m.role === "tool");
  return answered ? { text: "The door call came back." } : { toolCalls: [{ name: "call_service", args: UNLOCK }] };
}

/**
 * An approval's deadline is part of it, across a real restart: whether it
 * passes while the program is down or while the model is, no yes after it
 * acts, whichever channel brings it, and the door stays locked.
 */
describe("an approval whose deadline passed while the turn could not run", () => {
  let sim: Simulator;
  let dataDir: string;
  let clockDir: string;
  let clock: ShiftedClock;
  const running: Program[] = [];
  const allUnlocks = () => [...sim.home.serviceCalls.values()].filter((c) => c.domain === "lock" && c.service === "unlock").length;
  // The simulator lives across the tests: each counts only its own unlocks.
  let unlocksBefore = 0;
  const unlocks = () => allUnlocks() - unlocksBefore;

  beforeAll(async () => {
    sim = await startSimulator({ house: demoHouse() });
  });
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "ha-agent-approval-expiry-"));
    clockDir = await mkdtemp(join(tmpdir(), "ha-agent-clock-"));
    clock = shiftedClock(clockDir);
    await clock.set(0);
    sim.home.setState(LOCK, "locked");
    unlocksBefore = allUnlocks();
  });
  afterEach(async () => {
    for (const p of running.splice(0)) {
      if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill("SIGKILL");
      await p.exited;
    }
    await rm(dataDir, { recursive: true, force: true });
    await rm(clockDir, { recursive: true, force: true });
  });
  afterAll(async () => {
    await sim?.close();
  });

  async function start(model: Record<string, string>): Promise<{ url: string; statusUrl: string; program: Program }> {
    const program = runProgram({ DATA_DIR: dataDir, MCP_PORT: "0", STATUS_PORT: "0", HA_URL: sim.url, HA_TOKEN: sim.users.tokenFor(), ALLOW_ACTUATION: "true", ...model, ...clock.env });
    running.push(program);
    const [, url] = (await program.waitFor(/^MCP endpoint: (\S+)$/m)) as RegExpMatchArray;
    const [, statusUrl] = (await program.waitFor(/^Status page: +(\S+)$/m)) as RegExpMatchArray;
    await program.waitFor(/HA Agent is ready/);
    return { url: url as string, statusUrl: statusUrl as string, program };
  }
  const rpc = (url: string, method: string, params: Record<string, unknown>, name: string, capabilities: Record<string, unknown> = DECLARES_TASKS) =>
    modernRequest({ url, token: sim.users.tokenFor(), method, params, name, capabilities });
  const call = async (url: string, method: string, params: Record<string, unknown>, name: string) => (await rpc(url, method, params, name)).result as Record<string, unknown>;
  const getTask = async (url: string, taskId: string) => ModernDetailedTaskSchema.parse(await call(url, "tasks/get", { taskId }, taskId));
  async function until(url: string, taskId: string, accept: (t: ModernDetailedTask) => boolean): Promise<ModernDetailedTask> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const task = await getTask(url, taskId);
      if (accept(task)) return task;
      if (Date.now() > deadline) throw new Error(`task ${taskId} is still ${task.status}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  /** Starts the unlock in a session that asks, and waits until it waits for a yes. */
  async function waitingUnlock(url: string): Promise<{ taskId: string; approvalId: string }> {
    const started = (await call(url, "tools/call", { name: "ha_agent_start_session", arguments: { policy: { approval: "ask" } } }, "ha_agent_start_session")).structuredContent as { session_id: string };
    const created = ModernCreateTaskResultSchema.parse(await call(url, "tools/call", { name: "ha_agent_send_message", arguments: { session_id: started.session_id, message: "unlock the front door" } }, "ha_agent_send_message"));
    const waiting = await until(url, created.taskId, (t) => t.status === "input_required");
    const [approvalId] = Object.keys((waiting as Extract<ModernDetailedTask, { status: "input_required" }>).inputRequests);
    return { taskId: created.taskId, approvalId: approvalId! };
  }
  const approveTool = (url: string, taskId: string, approvalId: string) =>
    rpc(url, "tools/call", { name: "ha_agent_approve", arguments: { continuation_id: taskId, approval_id: approvalId, decision: "approve" } }, "ha_agent_approve");
  const toolError = (answer: RpcAnswer) => {
    const result = answer.result as { isError?: boolean; content?: { text: string }[] } | undefined;
    return result?.isError ? (result.content?.[0]?.text ?? "") : `not an error: ${JSON.stringify(answer)}`;
  };
  const expiredTask = (task: ModernDetailedTask) => {
    expect(task.status, JSON.stringify(task)).toBe("failed");
    expect(JSON.stringify(task)).toContain("nothing was done");
  };

  it("passed while the program was down: the restart ends the turn, and a yes by any channel is refused", async () => {
    const model = await startFakeGemini({ apiKey: KEY, responder: gemini });
    try {
      const env = { MODEL_PROVIDER: "gemini", GEMINI_API_KEY: KEY, GEMINI_BASE_URL: model.url };
      const first = await start(env);
      const { taskId, approvalId } = await waitingUnlock(first.url);
      // A client that shows forms gets the approval as an elicitation, with a signed state to retry with.
      const asked = (await rpc(first.url, "tools/call", { name: "ha_agent_await_continuation", arguments: { continuation_id: taskId } }, "ha_agent_await_continuation", DECLARES_ELICITATION)).result as { resultType: string; requestState: string };
      expect(asked.resultType).toBe("input_required");
      first.program.child.kill("SIGKILL");
      await first.program.exited;

      // Two hours pass while the program is down; the approval timed out after ten minutes.
      await clock.set(HOURS_2);
      const second = await start(env);
      expect(second.program.stdout()).toMatch(/expired while HA Agent was stopped/);
      expiredTask(await getTask(second.url, taskId));

      expect(toolError(await approveTool(second.url, taskId, approvalId))).toMatch(/\(approval_expired\)$/);
      const yes = { [approvalId]: { action: "accept", content: { approve: true } } };
      const updated = await rpc(second.url, "tasks/update", { taskId, inputResponses: yes }, taskId);
      expect(updated.error).toMatchObject({ code: -32602, data: { code: "approval_expired" } });
      const retried = await rpc(second.url, "tools/call", { name: "ha_agent_await_continuation", arguments: { continuation_id: taskId }, requestState: asked.requestState, inputResponses: yes }, "ha_agent_await_continuation", DECLARES_ELICITATION);
      expect(toolError(retried)).toMatch(/\(approval_expired\)$/);
      const console = await fetch(new URL(`api/turns/${taskId}/approve`, second.statusUrl), {
        method: "POST",
        headers: { "x-remote-user-id": defaultAdmin().id, "sec-fetch-site": "same-origin", "content-type": "application/json" },
        body: JSON.stringify({ approvalId, decision: "approve" }),
      });
      expect(console.status).toBe(409);
      expect(await console.json()).toMatchObject({ error: "approval_expired" });

      expect(unlocks()).toBe(0);
      expect(sim.home.getState(LOCK)?.state).toBe("locked");
    } finally {
      await model.close();
    }
  }, 60_000);

  it("not passed, after a restart with the clock 180 days behind: the turn still waits, no timer overflows, and a yes acts", async () => {
    const model = await startFakeGemini({ apiKey: KEY, responder: gemini });
    try {
      const env = { MODEL_PROVIDER: "gemini", GEMINI_API_KEY: KEY, GEMINI_BASE_URL: model.url };
      const first = await start(env);
      const { taskId, approvalId } = await waitingUnlock(first.url);
      first.program.child.kill("SIGKILL");
      await first.program.exited;

      // A Pi without a real-time clock boots with an old time: the stored deadline is 180 days ahead of it.
      await clock.set(-180 * 24 * 3_600_000);
      const second = await start(env);
      await new Promise((r) => setTimeout(r, 1_500));
      expect(second.program.stderr()).not.toMatch(/TimeoutOverflowWarning/);
      expect((await getTask(second.url, taskId)).status).toBe("input_required");

      const yes = await approveTool(second.url, taskId, approvalId);
      expect((yes.result as { isError?: boolean }).isError, JSON.stringify(yes)).toBeFalsy();
      expect((await until(second.url, taskId, (t) => t.status !== "input_required" && t.status !== "working")).status).toBe("completed");
      expect(unlocks()).toBe(1);
    } finally {
      await model.close();
    }
  }, 60_000);

  it("passed while the model was down: the turn is not taken up, and the yes that comes when the model is back is refused", async () => {
    let model: FakeOpenAiServer = await startFakeOpenAiServer({ flavour: "ollama", models: ["qwen3:8b"], responder: openai });
    const port = Number(new URL(model.baseUrl).port);
    try {
      // Without a model name the program asks the server which model it serves: a server that is down leaves none.
      const env = { MODEL_PROVIDER: "openai", OPENAI_BASE_URL: model.baseUrl };
      const first = await start(env);
      const { taskId, approvalId } = await waitingUnlock(first.url);
      first.program.child.kill("SIGKILL");
      await first.program.exited;
      await model.close();

      const second = await start(env);
      await second.program.waitFor(/a turn waiting for approval could not be taken up/);
      expect((await getTask(second.url, taskId)).status).toBe("input_required");
      // Two hours pass while the program runs without a model.
      await clock.move(second.program, HOURS_2);
      model = await startFakeOpenAiServer({ flavour: "ollama", models: ["qwen3:8b"], responder: openai, port });
      const asked = model.chatRequests().length;

      expect(toolError(await approveTool(second.url, taskId, approvalId))).toMatch(/\(approval_expired\)$/);
      expiredTask(await getTask(second.url, taskId));
      // Asked again, the answer is the same: the turn ended on its deadline.
      expect(toolError(await approveTool(second.url, taskId, approvalId))).toMatch(/\(approval_expired\)$/);
      expect(model.chatRequests().length).toBe(asked);
      expect(unlocks()).toBe(0);
      expect(sim.home.getState(LOCK)?.state).toBe("locked");
    } finally {
      await model.close();
    }
  }, 60_000);
});
