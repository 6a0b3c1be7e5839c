import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { demoHouse, simAddon, startSimulator, startSupervisor, type Simulator, type SupervisorSimulator } from "@ha-agent/ha-simulator";
import { runProgram, type Program } from "../support/program.js";
import { connectClient } from "../support/stack.js";

/** Polls `read` until it returns something other than undefined; a shared machine decides how long that takes. */
async function eventually<T>(read: () => T | undefined | Promise<T | undefined>, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("add-on mode under a simulated Supervisor", () => {
  let ha: Simulator;
  let supervisor: SupervisorSimulator;
  let dataDir: string;
  const running: Program[] = [];

  /** Starts the real program as the Supervisor starts the add-on: its token, its URL, options.json in the data directory. */
  async function start(options: Record<string, unknown> = {}, token = supervisor.addon.token): Promise<Program> {
    // core_url: callers' tokens are checked at the simulated HA, as at http://homeassistant:8123 under a real Supervisor.
    await writeFile(join(dataDir, "options.json"), JSON.stringify({ core_url: ha.url, ...options }));
    const program = runProgram({ SUPERVISOR_URL: supervisor.url, SUPERVISOR_TOKEN: token, DATA_DIR: dataDir, MCP_PORT: "0", STATUS_PORT: "0" });
    running.push(program);
    return program;
  }
  async function stop(program: Program): Promise<void> {
    program.child.kill("SIGTERM");
    expect((await program.exited).code).toBe(0);
  }
  const posts = () => supervisor.discovery.requests.filter((r) => r.method === "POST" && r.status === 200).length;

  beforeAll(async () => {
    ha = await startSimulator({ house: demoHouse() });
    // The add-on's host name is where the test reaches it, as other containers reach an add-on by its host name.
    supervisor = await startSupervisor({ ha, addons: [simAddon({ slug: "local_ha_agent", name: "HA Agent", hostname: "127.0.0.1", discovery: ["mcp"] })] });
    dataDir = await mkdtemp(join(tmpdir(), "ha-agent-addon-"));
  });
  afterEach(async () => {
    supervisor.faults.failDiscovery(undefined);
    for (const p of running.splice(0)) {
      if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill("SIGKILL");
      await p.exited;
    }
  });
  afterAll(async () => {
    await supervisor.close();
    await ha.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("connects through the Supervisor's proxy, and announces one mcp discovery whose url is the Assist tool set, while /mcp keeps every tool", async () => {
    const program = await start();
    await program.waitFor(/HA Agent is ready/, 30_000);
    const [entry] = await eventually(() => (supervisor.discovery.list().length ? supervisor.discovery.list() : undefined), "the discovery post");
    expect(supervisor.discovery.list()).toHaveLength(1);
    expect(entry).toMatchObject({ addon: "local_ha_agent", service: "mcp", config: { url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/mcp\/assist$/) } });
    const url = entry!.config.url as string;
    // Without a token the MCP server answers 401: the announced URL is the server.
    const anonymous = await fetch(url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: "{}" });
    expect(anonymous.status).toBe(401);
    // With a user's token, the home it serves is the one behind the Supervisor.
    const client = await connectClient(url, ha.users.tokenFor());
    try {
      const { tools } = await client.listTools();
      expect(tools.length).toBeLessThanOrEqual(8);
      const result = await client.callTool({ name: "ha_agent_state_query", arguments: { area: "kitchen" } });
      expect(result.isError).toBeFalsy();
      const entities = (result.structuredContent as { entities: { entity_id: string; state: string }[] }).entities;
      expect(entities.length).toBeGreaterThan(0);
      for (const e of entities) expect(e.state).toBe(ha.home.getState(e.entity_id)?.state);
    } finally {
      await client.close();
    }
    const full = await connectClient(url.replace(/\/assist$/, ""), ha.users.tokenFor());
    try {
      expect((await full.listTools()).tools.length).toBeGreaterThan(20);
    } finally {
      await full.close();
    }
    const health = (await (await fetch(url.replace(/\/mcp\/assist$/, "/healthz"))).json()) as { components: { discovery: { ok: boolean; details: { state: string } } } };
    expect(health.components.discovery).toMatchObject({ ok: true, details: { state: "announced" } });
    await stop(program);
    // A stop never withdraws the offer: Home Assistant keeps its entry.
    expect(supervisor.discovery.list()).toHaveLength(1);
  });

  it("announces again after a restart and there is still exactly one entry, with the same uuid", async () => {
    const before = supervisor.discovery.list();
    expect(before).toHaveLength(1);
    const postsBefore = posts();
    const program = await start();
    await eventually(() => (posts() > postsBefore ? true : undefined), "the announcement after the restart", 30_000);
    const after = supervisor.discovery.list();
    expect(after).toHaveLength(1);
    expect(after[0]!.uuid).toBe(before[0]!.uuid);
    expect(after[0]!.config.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp\/assist$/);
    await stop(program);
  });

  it("withdraws its entry when announce_to_home_assistant is off", async () => {
    const [entry] = supervisor.discovery.list();
    expect(entry).toBeDefined();
    const program = await start({ announce_to_home_assistant: false });
    await eventually(() => (supervisor.discovery.list().length === 0 ? true : undefined), "the withdrawal", 30_000);
    expect(supervisor.discovery.requests.at(-1)).toMatchObject({ method: "DELETE", target: entry!.uuid, status: 200 });
    await program.waitFor(/withdrawn/);
    await stop(program);
  });

  it("retries a failing Supervisor with backoff, shows the failure on /healthz meanwhile, and announces once it answers", async () => {
    supervisor.faults.failDiscovery(500);
    const program = await start();
    // The listening log line names the bound port (the banner names the add-on's host).
    const [, port] = (await program.waitFor(/http:\/\/127\.0\.0\.1:(\d+)\/mcp/, 30_000)) as RegExpMatchArray;
    const health = await eventually(async () => {
      const response = await fetch(`http://127.0.0.1:${port}/healthz`);
      const body = (await response.json()) as { status: string; reasons: string[]; components: { discovery?: { degraded?: boolean } } };
      return body.components.discovery?.degraded ? { status: response.status, body } : undefined;
    }, "the failure on /healthz", 30_000);
    expect(health.status).toBe(200);
    expect(health.body.status).toBe("degraded");
    expect(health.body.reasons.join(" ")).toMatch(/could not tell Home Assistant about this MCP server yet \(the Supervisor answered POST \/discovery with HTTP 500/);
    expect(program.stdout()).toMatch(/Could not tell Home Assistant about this MCP server: .*HTTP 500.*Trying again/);
    expect(supervisor.discovery.list()).toHaveLength(0);
    supervisor.faults.failDiscovery(undefined);
    await eventually(() => (supervisor.discovery.list().length === 1 ? true : undefined), "the announcement after the retry", 30_000);
    // The Supervisor holds the entry before its answer reaches the add-on: /healthz heals a moment later.
    await eventually(async () => {
      const healed = (await (await fetch(`http://127.0.0.1:${port}/healthz`)).json()) as { components: { discovery: { ok: boolean } } };
      return healed.components.discovery.ok ? true : undefined;
    }, "/healthz to show the announcement", 10_000);
    expect(supervisor.discovery.list()).toHaveLength(1);
    expect(program.child.exitCode).toBeNull();
    await stop(program);
  });

  it("stops with a clear message when the Supervisor refuses its token", async () => {
    const program = await start({}, "f".repeat(64));
    const { code } = await program.exited;
    expect(code).not.toBe(0);
    expect(program.stderr()).toMatch(/rejected the access token/);
    expect(program.stderr()).not.toMatch(/\n\s+at /);
  });
});
