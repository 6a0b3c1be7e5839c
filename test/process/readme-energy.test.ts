import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runProgram, type Program } from "../support/program.js";
import { codeLines, inspectPreamble, ROOT, runInspectSteps } from "../support/readme.js";
import { shiftedClock } from "../support/shifted-clock.js";

/**
 * The moment the README's energy answer was taken. The program runs with its
 * clock set there (a few seconds in, so the whole run stays in that minute),
 * and the demo house's 30 days of statistics are the ones it had then.
 */
const ASKED_AT = Date.parse("2026-11-26T14:30:05+01:00");

describe("the README's energy question, as 'Ask about energy' shows it", () => {
  let readme: string;
  let program: Program;
  let dataDir: string;
  let mcpUrl: string;
  let token: string;

  beforeAll(async () => {
    readme = await readFile(join(ROOT, "README.md"), "utf8");
    dataDir = await mkdtemp(join(tmpdir(), "ha-agent-readme-energy-"));
    const clock = shiftedClock(dataDir);
    await clock.set(ASKED_AT - Date.now());
    program = runProgram({ DATA_DIR: dataDir, MCP_PORT: "0", STATUS_PORT: "0", ...clock.env });
    mcpUrl = (await program.waitFor(/^MCP endpoint: (\S+)$/m))[1]!;
    token = (await program.waitFor(/^Token: +(\S+)$/m))[1]!;
    await program.waitFor(/HA Agent is ready/);
  }, 30_000);

  afterAll(async () => {
    if (program && program.child.exitCode === null) {
      program.child.kill("SIGTERM");
      await program.exited;
    }
    await rm(dataDir, { recursive: true, force: true });
  });

  it("answers word for word what the README quotes, from the Energy dashboard's statistics", async () => {
    expect(readme).toContain("26 November 2026 at 14:30, Amsterdam time");
    const lines = codeLines(readme);
    const ask = lines.findIndex((l) => l.startsWith("inspect ") && l.includes("message=How much energy did we use this week?"));
    expect(ask).toBeGreaterThan(0);
    const start = lines.find((l) => l.startsWith("inspect ") && l.includes("ha_agent_start_session"))!;
    const steps = [start, lines[ask]!, lines[ask + 1]!];
    expect(steps.map((l) => /--tool-name (\S+)/.exec(l)?.[1])).toEqual(["ha_agent_start_session", "ha_agent_send_message", "ha_agent_await_continuation"]);

    const results = await runInspectSteps(inspectPreamble(readme, { mcpUrl, token }), steps);
    const section = readme.slice(readme.indexOf("### Ask about energy"));
    const quoted = /word for word:\n\n> (.+)\n/.exec(section)?.[1];
    expect(quoted).toBeDefined();
    expect(results[2]).toMatchObject({ status: "completed", response: { final_message: quoted } });
  }, 120_000);
});
