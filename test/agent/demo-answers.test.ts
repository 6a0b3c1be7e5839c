import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callTool } from "../support/mcp.js";
import { runProgram, type Program } from "../support/program.js";
import { connectClient } from "../support/stack.js";

/**
 * The questions a newcomer asks the demo through the MCP Inspector, asked the
 * same way: the program in demo mode, its simulator and the demo model, over
 * MCP. Each answer speaks only of the kind of thing asked about, with names
 * and units as Home Assistant shows them.
 */
describe("the demo's answers, through MCP", () => {
  let program: Program;
  let dataDir: string;
  let client: Client;
  let sessionId: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "ha-agent-demo-answers-"));
    program = runProgram({ DATA_DIR: dataDir, MCP_PORT: "0", STATUS_PORT: "0" });
    const [, url] = (await program.waitFor(/^MCP endpoint: (\S+)$/m)) as RegExpMatchArray;
    const [, token] = (await program.waitFor(/^Token: +(\S+)$/m)) as RegExpMatchArray;
    await program.waitFor(/HA Agent is ready/);
    client = await connectClient(url as string, token as string);
    sessionId = (await callTool(client, "ha_agent_start_session", {})).value.session_id as string;
  });
  afterAll(async () => {
    await client?.close();
    if (program.child.exitCode === null) {
      program.child.kill("SIGTERM");
      await program.exited;
    }
    await rm(dataDir, { recursive: true, force: true });
  });

  async function ask(message: string): Promise<string> {
    const sent = await callTool(client, "ha_agent_send_message", { session_id: sessionId, message });
    expect(sent.isError, sent.text).toBe(false);
    const done = await callTool(client, "ha_agent_await_continuation", { continuation_id: sent.value.continuation_id, timeout_ms: 30_000 });
    expect(done.value.status, done.text).toBe("completed");
    return (done.value.response as { final_message: string }).final_message;
  }

  it("answers whether the front door is locked from its lock, not from contacts or motion sensors", async () => {
    const text = await ask("Is the front door locked?");
    expect(text).toMatch(/Front Door Lock \(lock\.front_door\)/);
    expect(text).not.toMatch(/binary_sensor\.|[Mm]otion|Contact/);
  }, 40_000);

  it("answers whether any window is open from the window sensors alone, without the front door's contact", async () => {
    const text = await ask("Is any window open?");
    // Which windows are open depends on the demo house's day; all five windows are named either way.
    for (const room of ["Office", "Kitchen", "Emma's Room", "Living Room", "Master Bedroom"]) expect(text).toContain(`${room} Window (binary_sensor.`);
    expect(text).not.toMatch(/Door|door_contact|cover\./);
  }, 40_000);

  it("gives temperatures with their units, as Home Assistant shows them", async () => {
    const text = await ask("What is the temperature in the living room?");
    expect(text).toMatch(/Living Room Climate Sensor Temperature \(sensor\.living_room_temperature\) is \d+(\.\d+)? °C/);
    // No reading without its unit: "is 20.6;" or "is 20.6." at the end.
    expect(text).not.toMatch(/ is \d+(\.\d+)?[;.](\s|$)/);
    expect(text).not.toMatch(/[Hh]umidity|PM2\.5/);
  }, 40_000);

  it("names the energy dashboard's devices as the energy tool does, by their friendly names", async () => {
    // Last week is whole and past: the tool and the agent read the same figures.
    const tool = await callTool(client, "ha_agent_energy", { start: "-7d", period: "week" });
    const devices = tool.value.devices as { statistic_id: string; name: string }[];
    expect(devices.find((d) => d.statistic_id === "sensor.dryer_energy")?.name).toBe("Dryer Plug Energy");
    const text = await ask("How much energy did we use last week?");
    expect(text).toContain(tool.value.narrative as string);
    expect(text).not.toMatch(/sensor\.\w+_energy/);
  }, 40_000);
});
