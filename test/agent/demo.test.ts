import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callTool } from "../support/mcp.js";
import { runProgram, type Program } from "../support/program.js";
import { connectClient } from "../support/stack.js";

describe("the agent in demo mode, through MCP", () => {
  let program: Program;
  let dataDir: string;
  let client: Client;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "ha-agent-demo-agent-"));
    program = runProgram({ DATA_DIR: dataDir, MCP_PORT: "0", STATUS_PORT: "0" });
    const [, url] = (await program.waitFor(/^MCP endpoint: (\S+)$/m)) as RegExpMatchArray;
    const [, token] = (await program.waitFor(/^Token: +(\S+)$/m)) as RegExpMatchArray;
    await program.waitFor(/HA Agent is ready/);
    client = await connectClient(url as string, token as string);
  });
  afterAll(async () => {
    await client?.close();
    if (program.child.exitCode === null) {
      program.child.kill("SIGTERM");
      await program.exited;
    }
    await rm(dataDir, { recursive: true, force: true });
  });

  it("labels the demo model in the banner", () => {
    expect(program.stdout()).toMatch(/^Model: +Demo model \(scripted rules, not an AI\)$/m);
  });

  it("answers which kitchen lights are on, citing their ids, with a trace and usage in get_session", async () => {
    const started = await callTool(client, "ha_agent_start_session", {});
    const sessionId = started.value.session_id as string;
    const sent = await callTool(client, "ha_agent_send_message", { session_id: sessionId, message: "Which lights are on in the kitchen?" });
    expect(sent.isError, sent.text).toBe(false);
    expect(sent.value).toMatchObject({ acknowledged: true });
    const progress: string[] = [];
    const done = await client.callTool(
      { name: "ha_agent_await_continuation", arguments: { continuation_id: sent.value.continuation_id, timeout_ms: 30_000 } },
      { onprogress: (p) => void progress.push(p.message ?? "") },
    );
    const result = done.structuredContent as { status: string; response: { final_message: string; citations: string[] }; usage: { steps: number; tool_calls: number } };
    expect(result.status).toBe("completed");
    expect(result.response.final_message).toContain("not an AI");
    expect(result.response.final_message).toMatch(/light\.kitchen_worktop_lights/);
    expect(result.response.citations).toContain("light.kitchen_worktop_lights");
    expect(result.usage.steps).toBe(3);
    expect(result.usage.tool_calls).toBeGreaterThanOrEqual(2);
    expect(progress.length).toBeGreaterThan(0);

    const session = await callTool(client, "ha_agent_get_session", { session_id: sessionId });
    const s = session.value.session as { model_label: string; usage: { by_model: { model: string; model_calls: number }[] }; recent_turns: { traces: { finish_reason: string; tool_calls: string[] }[] }[] };
    expect(s.model_label).toContain("Demo model");
    expect(s.usage.by_model).toEqual([expect.objectContaining({ model: "demo/demo-planner-1", model_calls: 3 })]);
    expect(s.recent_turns[0]!.traces.map((t) => t.tool_calls)).toEqual([["index_search"], expect.arrayContaining(["state_query"]), []]);
  }, 60_000);
});
