import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INSPECTOR_CLI_FOR_NODE_20, INSPECTOR_FOR_NODE_20 } from "../../src/banner.js";
import { runProgram, type Program } from "../support/program.js";
import { codeLines, inspectPreamble, ROOT as root, runInspectSteps, runReadmeLines } from "../support/readme.js";


/** The address and token placeholders the README's commands use. */
const README_URL = "http://127.0.0.1:8808/mcp";
const TOKEN_PLACEHOLDERS = ["<token>", "…"];

const INSPECTOR = /@modelcontextprotocol\/inspector[\w@.-]*/;
const isInspectorCommand = (line: string) => /\bnpx\b/.test(line) && INSPECTOR.test(line);

describe("the README's MCP Inspector commands", () => {
  let readme: string;
  let commands: string[];
  let program: Program;
  let dataDir: string;
  let mcpUrl: string;
  let token: string;

  beforeAll(async () => {
    readme = await readFile(join(root, "README.md"), "utf8");
    commands = codeLines(readme).filter(isInspectorCommand);
    dataDir = await mkdtemp(join(tmpdir(), "ha-agent-readme-"));
    // As the quick start starts it: npm start, nothing else; the demo allows actions and asks first.
    program = runProgram({ DATA_DIR: dataDir, MCP_PORT: "0", STATUS_PORT: "0" });
    mcpUrl = ((await program.waitFor(/^MCP endpoint: (\S+)$/m)) as RegExpMatchArray)[1] as string;
    token = ((await program.waitFor(/^Token: +(\S+)$/m)) as RegExpMatchArray)[1] as string;
    await program.waitFor(/HA Agent is ready/);
  }, 30_000);

  afterAll(async () => {
    if (program && program.child.exitCode === null) {
      program.child.kill("SIGTERM");
      await program.exited;
    }
    await rm(dataDir, { recursive: true, force: true });
  });

  /** Runs README lines in bash against the demo program, offline, and returns stdout. */
  async function bash(script: string): Promise<string> {
    return runReadmeLines(TOKEN_PLACEHOLDERS.reduce((s, p) => s.replaceAll(p, token), script.replaceAll(README_URL, mcpUrl)));
  }


  it("pin the Inspector CLI that runs on Node 20, the banner's version, which the project installs", async () => {
    expect(commands.length).toBeGreaterThanOrEqual(4);
    for (const command of commands) expect(command.match(INSPECTOR)?.[0], command).toBe(INSPECTOR_CLI_FOR_NODE_20);
    const pkg = JSON.parse(await readFile(join(root, "package.json"), "utf8")) as { devDependencies: Record<string, string> };
    expect(pkg.devDependencies["@modelcontextprotocol/inspector-cli"]).toBe(INSPECTOR_FOR_NODE_20);
  });

  it("list the tools, as printed in the README and the banner", async () => {
    const lists = commands.filter((c) => c.startsWith("npx ") && c.includes("--method tools/list"));
    expect(lists.length).toBeGreaterThanOrEqual(2);
    for (const command of lists) {
      const { tools } = JSON.parse(await bash(command)) as { tools: { name: string }[] };
      expect(tools.map((t) => t.name), command).toContain("ha_agent_state_query");
    }
  }, 120_000);

  it("list and get the personas as prompts, as 'Personas' shows", async () => {
    const list = commands.find((c) => c.startsWith("npx ") && c.includes("--method prompts/list"));
    expect(list).toBeDefined();
    const { prompts } = JSON.parse(await bash(list as string)) as { prompts: { name: string; arguments: { name: string }[] }[] };
    expect(prompts.map((p) => p.name)).toEqual(expect.arrayContaining(["troubleshooter", "energy_analyst", "home_guide", "automation_helper"]));
    expect(prompts.find((p) => p.name === "troubleshooter")?.arguments.map((a) => a.name)).toEqual(["entity", "device", "area", "max_tokens"]);
    const get = commands.find((c) => c.startsWith("npx ") && c.includes("--method prompts/get"));
    expect(get).toBeDefined();
    const { messages } = JSON.parse(await bash(get as string)) as { messages: { content: { text: string } }[] };
    expect(messages.at(-1)?.content.text).toContain("light.kitchen_ceiling now");
  }, 120_000);

  it("call a tool: the kitchen's states", async () => {
    const call = commands.find((c) => c.startsWith("npx ") && c.includes("--method tools/call") && c.includes("ha_agent_state_query"));
    expect(call).toBeDefined();
    const result = JSON.parse(await bash(call as string)) as { isError?: boolean; structuredContent: { entities: { entity_id: string; area: string }[] } };
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent.entities.length).toBeGreaterThan(0);
    for (const e of result.structuredContent.entities) expect(e.area).toBe("Kitchen");
  }, 60_000);

  /** The exports (placeholders filled in) and the `inspect` helper of "Talk to the agent", and where the helper is. */
  function inspectHelper(): { at: number; preamble: string } {
    const lines = codeLines(readme);
    const at = lines.findIndex((l) => /^inspect\(\) \{/.test(l) && isInspectorCommand(l));
    expect(at).toBeGreaterThan(0);
    return { at, preamble: inspectPreamble(readme, { mcpUrl, token }) };
  }

  it("define the inspect helper of 'Talk to the agent', which starts a session", async () => {
    const lines = codeLines(readme);
    const { at, preamble } = inspectHelper();
    // The block's own first lines: the exports, the helper, and its first use.
    const firstUse = lines.slice(at + 1).find((l) => l.startsWith("inspect "))!;
    expect(firstUse).toMatch(/ha_agent_start_session/);
    const out = await bash([preamble, firstUse.replace(/\s+#.*$/, "")].join("\n"));
    const result = JSON.parse(out) as { structuredContent: { session_id: string } };
    expect(result.structuredContent.session_id).toMatch(/\S/);
  }, 60_000);

  it("answer why the hall light did not turn on, word for word as 'Ask why something did not happen' shows", async () => {
    const lines = codeLines(readme);
    const { at, preamble } = inspectHelper();
    const start = lines.slice(at + 1).find((l) => l.startsWith("inspect ") && l.includes("ha_agent_start_session"))!;
    const asked = lines.findIndex((l) => l.startsWith("inspect ") && l.includes("message=Why didn't the hall light turn on last night?"));
    expect(asked).toBeGreaterThan(at);
    const last = (await runInspectSteps(preamble, [start, lines[asked]!, lines[asked + 1]!])).at(-1)!;
    const section = readme.slice(readme.indexOf("### Ask why something did not happen"));
    const shown = /^> (.+)$/m.exec(section)?.[1];
    expect(last).toMatchObject({ status: "completed" });
    expect((last.response as { final_message: string }).final_message).toBe(shown);
  }, 120_000);

  it("approve an action, as 'Approve an action' shows: the turn waits, the yes runs the call, the turn completes", async () => {
    const lines = codeLines(readme);
    const { preamble } = inspectHelper();
    const first = lines.findIndex((l) => l.startsWith("inspect ") && l.includes(`'policy={"approval":"ask"}'`));
    expect(first).toBeGreaterThan(0);
    const steps = lines.slice(first, first + 5);
    expect(steps.map((l) => /--tool-name (\S+)/.exec(l)?.[1])).toEqual(["ha_agent_start_session", "ha_agent_send_message", "ha_agent_await_continuation", "ha_agent_approve", "ha_agent_await_continuation"]);
    // Each <placeholder> takes the value an earlier step printed, as a reader copies it.
    const results = await runInspectSteps(preamble, steps);
    expect(results[2]).toMatchObject({ status: "input_required", next: "approve", approval: { service: "light.turn_on", targets: ["light.kitchen_ceiling"] } });
    expect(results[4]).toMatchObject({ status: "completed", response: { final_message: expect.stringContaining("Done: I called light.turn_on") } });
  }, 120_000);

  it("takes the demo's first action as the quick start shows, in two lines: the question, then the yes turns the light on", async () => {
    const start = readme.indexOf("## Quick start");
    expect(start).toBeGreaterThan(-1);
    const section = readme.slice(start, readme.indexOf("\n## ", start + 1));
    const steps = codeLines(section).filter((l) => isInspectorCommand(l) && l.includes("--method tools/call"));
    expect(steps.map((l) => /--tool-name (\S+)/.exec(l)?.[1])).toEqual(["ha_agent_ask", "ha_agent_approve"]);
    const filled = steps.map((l) => l.replaceAll(README_URL, mcpUrl).replaceAll("<token>", token));
    const [asked, approved] = await runInspectSteps("", filled);
    expect(asked).toMatchObject({ status: "input_required", next: "approve", approval: { service: "light.turn_on", targets: ["light.kitchen_ceiling"] } });
    expect(approved).toBeDefined();
    // The yes runs the call: the simulated light is on, and the turn says so.
    const state = async () => JSON.parse(await bash(`npx -y ${INSPECTOR_CLI_FOR_NODE_20} --cli ${README_URL} --transport http --header "Authorization: Bearer <token>" --method tools/call --tool-name ha_agent_state_query --tool-arg 'entity_ids=["light.kitchen_ceiling"]'`)) as { structuredContent: { entities: { state: string }[] } };
    const deadline = Date.now() + 20_000;
    while ((await state()).structuredContent.entities[0]?.state !== "on" && Date.now() < deadline) await new Promise((r) => setTimeout(r, 500));
    expect((await state()).structuredContent.entities[0]?.state).toBe("on");
    // Said as a newcomer says it, the request asks first too, about the kitchen's lights.
    const [plain] = await runInspectSteps("", [filled[0]!.replace("Turn on the kitchen ceiling light", "turn on the kitchen light")]);
    expect(plain).toMatchObject({ status: "input_required", approval: { service: "light.turn_on", targets: expect.arrayContaining(["light.kitchen_ceiling"]) } });
  }, 120_000);
});
