import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { demoHouse, startSimulator, type Simulator } from "@ha-agent/ha-simulator";
import { connectClient } from "../support/stack.js";
import { runProgram, type Program } from "../support/program.js";

describe("standalone mode against a server that speaks HA's protocol", () => {
  let sim: Simulator;
  let dataDir: string;
  const running: Program[] = [];
  const start = (env: Record<string, string>) => {
    const program = runProgram({ DATA_DIR: dataDir, MCP_PORT: "0", STATUS_PORT: "0", ...env });
    running.push(program);
    return program;
  };

  beforeAll(async () => {
    sim = await startSimulator({ house: demoHouse() });
    dataDir = await mkdtemp(join(tmpdir(), "ha-agent-standalone-"));
  });
  afterEach(async () => {
    sim.faults.slow(0);
    for (const p of running.splice(0)) {
      if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill("SIGKILL");
      await p.exited;
    }
  });
  afterAll(async () => {
    await sim.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("connects, turns /healthz to 200 and serves the kitchen's states", async () => {
    const program = start({ HA_URL: sim.url, HA_TOKEN: sim.users.tokenFor() });
    const [, mcpUrl] = (await program.waitFor(/^MCP endpoint: (\S+)$/m)) as RegExpMatchArray;
    await program.waitFor(/HA Agent is ready/);
    const health = await fetch(`${(mcpUrl as string).replace(/\/mcp$/, "")}/healthz`);
    expect(health.status).toBe(200);
    const client = await connectClient(mcpUrl as string, sim.users.tokenFor());
    try {
      const result = await client.callTool({ name: "ha_agent_state_query", arguments: { area: "kitchen" } });
      expect(result.isError).toBeFalsy();
      const entities = (result.structuredContent as { entities: { entity_id: string; state: string }[] }).entities;
      for (const e of entities) expect(e.state).toBe(sim.home.getState(e.entity_id)?.state);
    } finally {
      await client.close();
    }
  });

  it("stops with a clear message and a non-zero exit when HA rejects its token", async () => {
    const program = start({ HA_URL: sim.url, HA_TOKEN: "a-token-ha-does-not-know" });
    const { code } = await program.exited;
    expect(code).not.toBe(0);
    expect(program.stderr()).toMatch(/rejected/i);
    expect(program.stderr()).toMatch(/HA_TOKEN/);
    expect(program.stderr()).not.toMatch(/\n\s+at /);
  });

  it("refuses HA_TOKEN without HA_URL with exit 2 and a message naming HA_URL, never showing the token", async () => {
    const program = start({ HA_TOKEN: "eyJhbGciOiJIUzI1NiJ9.real-looking.token" });
    const { code } = await program.exited;
    expect(code).toBe(2);
    expect(program.stderr()).toMatch(/HA_TOKEN: is set but HA_URL is not/);
    expect(program.stdout() + program.stderr()).not.toContain("real-looking");
  });

  it("refuses invalid settings with a message naming them, and no stack trace", async () => {
    const program = start({ HA_URL: sim.url, HA_TOKEN: "x", MCP_PORT: "eighty", TOOL_NAME_SEPARATOR: "/" });
    const { code } = await program.exited;
    expect(code).toBe(2);
    expect(program.stderr()).toMatch(/MCP_PORT: expected a whole number from 0 to 65535, got "eighty"/);
    expect(program.stderr()).toMatch(/TOOL_NAME_SEPARATOR/);
    expect(program.stderr()).not.toMatch(/\n\s+at /);
  });

  it("exits 0 within 5 s when SIGTERM arrives during a tool call", async () => {
    const program = start({ HA_URL: sim.url, HA_TOKEN: sim.users.tokenFor() });
    const [, mcpUrl] = (await program.waitFor(/^MCP endpoint: (\S+)$/m)) as RegExpMatchArray;
    await program.waitFor(/HA Agent is ready/);
    const client = await connectClient(mcpUrl as string, sim.users.tokenFor());
    // Every answer from HA now takes 20 s, so the call is surely still running.
    sim.faults.slow(20_000);
    // The call is left hanging on purpose: the server goes away underneath it.
    void client.callTool({ name: "ha_agent_diagnose_entity", arguments: { entity_id: "light.kitchen_ceiling" } }).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 300));
    const started = Date.now();
    program.child.kill("SIGTERM");
    const { code } = await program.exited;
    expect(code).toBe(0);
    expect(Date.now() - started).toBeLessThan(5_000);
    await client.close().catch(() => {});
  });
});
