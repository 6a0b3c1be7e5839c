import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ModernCreateTaskResultSchema, ModernDetailedTaskSchema, type ModernDetailedTask } from "../../src/mcp/index.js";
import { startFakeGemini, type FakeGemini, type GeminiReply, type GeminiRequestBody } from "@ha-agent/model-fakes";
import { demoHouse, startSimulator, type Simulator } from "@ha-agent/ha-simulator";
import { DECLARES_TASKS, modernRequest } from "../support/mcp-raw.js";
import { runProgram, type Program } from "../support/program.js";

const KEY = "AIzaApprovalRestartKey000000000000000000";
const LIGHT = "light.kitchen_ceiling";

/** Turns the kitchen light on, then reports what came back. */
function responder(body: GeminiRequestBody): GeminiReply {
  if (!(body.tools ?? []).length) return { text: "Summary." };
  const response = (body.contents ?? []).at(-1)?.parts?.find((p) => p.functionResponse)?.functionResponse as { response?: unknown } | undefined;
  if (response) return { text: `The light call came back: ${JSON.stringify(response.response)}` };
  return { calls: [{ name: "call_service", args: { domain: "light", service: "turn_on", entity_id: LIGHT } }] };
}

describe("an approval across a hard kill of the program", () => {
  let sim: Simulator;
  let gemini: FakeGemini;
  let dataDir: string;
  const running: Program[] = [];
  const lightCalls = () => [...sim.home.serviceCalls.values()].filter((c) => c.domain === "light" && c.service === "turn_on").length;

  beforeAll(async () => {
    sim = await startSimulator({ house: demoHouse() });
    gemini = await startFakeGemini({ apiKey: KEY, responder });
    dataDir = await mkdtemp(join(tmpdir(), "ha-agent-approval-restart-"));
  });
  afterEach(async () => {
    for (const p of running.splice(0)) {
      if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill("SIGKILL");
      await p.exited;
    }
  });
  afterAll(async () => {
    await gemini?.close();
    await sim?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  async function start(): Promise<{ url: string; program: Program }> {
    const program = runProgram({ DATA_DIR: dataDir, MCP_PORT: "0", STATUS_PORT: "0", HA_URL: sim.url, HA_TOKEN: sim.users.tokenFor(), MODEL_PROVIDER: "gemini", GEMINI_API_KEY: KEY, GEMINI_BASE_URL: gemini.url, ALLOW_ACTUATION: "true" });
    running.push(program);
    const [, url] = (await program.waitFor(/^MCP endpoint: (\S+)$/m)) as RegExpMatchArray;
    await program.waitFor(/HA Agent is ready/);
    return { url: url as string, program };
  }
  const call = async (url: string, method: string, params: Record<string, unknown>, name: string) =>
    (await modernRequest({ url, token: sim.users.tokenFor(), method, params, name, capabilities: DECLARES_TASKS })).result as Record<string, unknown>;
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

  it("keeps the approval waiting after SIGKILL, with the same id, and the yes after it runs the call once", async () => {
    sim.home.setState(LIGHT, "off");
    const first = await start();
    const started = (await call(first.url, "tools/call", { name: "ha_agent_start_session", arguments: { policy: { approval: "ask" } } }, "ha_agent_start_session")).structuredContent as { session_id: string };
    const created = ModernCreateTaskResultSchema.parse(await call(first.url, "tools/call", { name: "ha_agent_send_message", arguments: { session_id: started.session_id, message: "turn on the kitchen light" } }, "ha_agent_send_message"));
    const waiting = await until(first.url, created.taskId, (t) => t.status === "input_required");
    const [approvalId] = Object.keys((waiting as Extract<ModernDetailedTask, { status: "input_required" }>).inputRequests);

    first.program.child.kill("SIGKILL");
    await first.program.exited;
    const second = await start();
    const after = await getTask(second.url, created.taskId);
    expect(after.status).toBe("input_required");
    expect(Object.keys((after as Extract<ModernDetailedTask, { status: "input_required" }>).inputRequests)).toEqual([approvalId]);
    expect(lightCalls()).toBe(0);

    await call(second.url, "tasks/update", { taskId: created.taskId, inputResponses: { [approvalId!]: { action: "accept", content: { approve: true } } } }, created.taskId);
    const done = await until(second.url, created.taskId, (t) => t.status === "completed" || t.status === "failed");
    expect(done.status, JSON.stringify(done)).toBe("completed");
    expect(lightCalls()).toBe(1);
    expect(sim.home.getState(LIGHT)?.state).toBe("on");
  }, 60_000);
});
