import { chmod, lstat, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startFakeGemini, type FakeGemini } from "@ha-agent/model-fakes";
import { demoHouse, startSimulator, type Simulator } from "@ha-agent/ha-simulator";
import { callTool } from "../support/mcp.js";
import { runProgram, type Program } from "../support/program.js";
import { connectClient } from "../support/stack.js";

const KEY = "AIzaOwnerOnlyKey000000000000000000000000";

/** Every file and folder under `dir` (not `dir` itself), with its permission bits; links are not followed. */
async function modes(dir: string): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  const walk = async (at: string) => {
    for (const name of await readdir(at)) {
      const path = join(at, name);
      const stat = await lstat(path);
      found.set(`${relative(dir, path)}${stat.isDirectory() ? "/" : ""}`, stat.mode & 0o777);
      if (stat.isDirectory()) await walk(path);
    }
  };
  await walk(dir);
  return found;
}

/** What older versions wrote: folders 0755, files 0644. */
async function loosen(dir: string): Promise<void> {
  for (const [path] of await modes(dir)) await chmod(join(dir, path), path.endsWith("/") ? 0o755 : 0o644);
}

describe("the data directory is its owner's alone", () => {
  let sim: Simulator;
  let model: FakeGemini;
  let dataDir: string;
  let program: Program | undefined;

  beforeAll(async () => {
    sim = await startSimulator({ house: demoHouse() });
    model = await startFakeGemini({ apiKey: KEY, responder: () => ({ text: "The kitchen light is off." }) });
    dataDir = await mkdtemp(join(tmpdir(), "ha-agent-owner-only-"));
  });
  afterEach(async () => {
    if (program && program.child.exitCode === null && program.child.signalCode === null) {
      program.child.kill("SIGTERM");
      await program.exited;
    }
  });
  afterAll(async () => {
    await model?.close();
    await sim?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** Starts the program and has it answer one question: a session, a turn file, a step log, the index and the secrets. */
  async function turn(): Promise<void> {
    program = runProgram({ DATA_DIR: dataDir, MCP_PORT: "0", STATUS_PORT: "0", HA_URL: sim.url, HA_TOKEN: sim.users.tokenFor(), MODEL_PROVIDER: "gemini", GEMINI_API_KEY: KEY, GEMINI_BASE_URL: model.url });
    const [, url] = (await program.waitFor(/^MCP endpoint: (\S+)$/m)) as RegExpMatchArray;
    await program.waitFor(/HA Agent is ready/);
    const client = await connectClient(url as string, sim.users.tokenFor());
    try {
      const asked = await callTool(client, "ha_agent_ask", { message: "Is the kitchen light on?" });
      expect(asked.isError, asked.text).toBe(false);
      expect(asked.value).toMatchObject({ status: "completed" });
    } finally {
      await client.close();
    }
  }

  it("writes every file 0600 and every folder 0700, whatever the umask, and tightens what an older version left open at start", async () => {
    // The test runner's umask (usually 022) is what the program inherits: the modes are the program's own.
    await turn();
    program!.child.kill("SIGTERM");
    await program!.exited;
    const first = await modes(dataDir);
    expect([...first.keys()]).toEqual(expect.arrayContaining(["sessions/", "index/meta.json", "secrets/", "tmp/"]));
    expect([...first.keys()].some((p) => /^sessions\/\w+\/turns\/\w+\.json$/.test(p))).toBe(true);
    expect([...first.keys()].some((p) => /^sessions\/\w+\/logs\/\w+\.log$/.test(p))).toBe(true);
    expect([...first].filter(([path, mode]) => mode !== (path.endsWith("/") ? 0o700 : 0o600))).toEqual([]);

    // As an older version left them: the next start makes them owner-only again, before a second turn adds more.
    await loosen(dataDir);
    await turn();
    const second = await modes(dataDir);
    expect(second.size).toBeGreaterThan(first.size);
    expect([...second].filter(([path, mode]) => mode !== (path.endsWith("/") ? 0o700 : 0o600))).toEqual([]);
  }, 60_000);
});
