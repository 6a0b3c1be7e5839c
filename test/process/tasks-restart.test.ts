import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { LegacyListTasksResultSchema, LegacyTaskSchema, ModernCreateTaskResultSchema, ModernDetailedTaskSchema, type ModernDetailedTask } from "../../src/mcp/index.js";
import { startFakeGemini, type FakeGemini, type GeminiReply, type GeminiRequestBody } from "@ha-agent/model-fakes";
import { demoHouse, startSimulator, type Simulator } from "@ha-agent/ha-simulator";
import { DECLARES_TASKS, legacyRequest, modernRequest } from "../support/mcp-raw.js";
import { runProgram, type Program } from "../support/program.js";

const KEY = "AIzaRestartKey00000000000000000000000000";

function responder(body: GeminiRequestBody): GeminiReply {
  if (!(body.tools ?? []).length) return { text: "Summary." };
  const lastUser = [...(body.contents ?? [])].reverse().find((c) => c.role === "user" && (c.parts ?? []).some((p) => typeof p.text === "string"));
  const text = String((lastUser?.parts ?? []).find((p) => typeof p.text === "string")?.text ?? "");
  return text.includes("slow") ? { text: "late", delayMs: 60_000 } : { text: `You said: ${text}` };
}

describe("tasks across a restart of the program", () => {
  let sim: Simulator;
  let gemini: FakeGemini;
  let dataDir: string;
  const running: Program[] = [];

  beforeAll(async () => {
    sim = await startSimulator({ house: demoHouse() });
    gemini = await startFakeGemini({ apiKey: KEY, responder });
    dataDir = await mkdtemp(join(tmpdir(), "ha-agent-tasks-restart-"));
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

  async function start(): Promise<string> {
    const program = runProgram({ DATA_DIR: dataDir, MCP_PORT: "0", STATUS_PORT: "0", HA_URL: sim.url, HA_TOKEN: sim.users.tokenFor(), MODEL_PROVIDER: "gemini", GEMINI_API_KEY: KEY, GEMINI_BASE_URL: gemini.url });
    running.push(program);
    const [, mcpUrl] = (await program.waitFor(/^MCP endpoint: (\S+)$/m)) as RegExpMatchArray;
    await program.waitFor(/HA Agent is ready/);
    return mcpUrl as string;
  }
  const token = () => sim.users.tokenFor();
  const getTask = async (url: string, taskId: string) => ModernDetailedTaskSchema.parse((await modernRequest({ url, token: token(), method: "tasks/get", params: { taskId }, name: taskId, capabilities: DECLARES_TASKS })).result);
  const askAsTask = async (url: string, message: string) =>
    ModernCreateTaskResultSchema.parse((await modernRequest({ url, token: token(), method: "tools/call", params: { name: "ha_agent_ask", arguments: { message } }, name: "ha_agent_ask", capabilities: DECLARES_TASKS })).result);

  it("keeps a finished task and shows an interrupted one as failed, naming ha_agent_resume", async () => {
    const first = await start();
    const done = await askAsTask(first, "remember this answer");
    let before: ModernDetailedTask;
    while ((before = await getTask(first, done.taskId)).status === "working") await new Promise((r) => setTimeout(r, 50));
    expect(before.status).toBe("completed");
    const slow = await askAsTask(first, "slow work");
    expect((await getTask(first, slow.taskId)).status).toBe("working");
    // The program dies with the turn mid-step.
    const [program] = running.splice(0);
    program!.child.kill("SIGKILL");
    await program!.exited;

    const second = await start();
    expect(await getTask(second, done.taskId)).toEqual(before);
    const interrupted = await getTask(second, slow.taskId);
    expect(interrupted.status).toBe("failed");
    expect(interrupted.status === "failed" && interrupted.error.message).toContain("ha_agent_resume");
    const legacy = LegacyTaskSchema.parse((await legacyRequest({ url: second, token: token(), method: "tasks/get", params: { taskId: slow.taskId } })).result);
    expect(legacy).toMatchObject({ status: "failed", statusMessage: expect.stringContaining("ha_agent_resume") });
    const listed = LegacyListTasksResultSchema.parse((await legacyRequest({ url: second, token: token(), method: "tasks/list" })).result);
    expect(listed.tasks.map((t) => t.taskId)).toEqual(expect.arrayContaining([done.taskId, slow.taskId]));
  }, 60_000);
});
