import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectClient } from "../support/stack.js";
import { runProgram, type Program } from "../support/program.js";

describe("demo mode (no HA settings at all)", () => {
  let program: Program;
  let dataDir: string;
  let mcpUrl: string;
  let token: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "ha-agent-demo-"));
    program = runProgram({ DATA_DIR: dataDir, MCP_PORT: "0", STATUS_PORT: "0" });
    const [, url] = (await program.waitFor(/^MCP endpoint: (\S+)$/m)) as RegExpMatchArray;
    const [, secret] = (await program.waitFor(/^Token: +(\S+)$/m)) as RegExpMatchArray;
    mcpUrl = url as string;
    token = secret as string;
  });

  afterAll(async () => {
    if (program.child.exitCode === null) {
      program.child.kill("SIGKILL");
      await program.exited;
    }
    await rm(dataDir, { recursive: true, force: true });
  });

  it("prints the MCP endpoint and the token before any log line", () => {
    const lines = program.stdout().split("\n");
    expect(lines[0]).toMatch(/^HA Agent \S+ \(demo mode\)$/);
    expect(lines[1]).toMatch(/^MCP endpoint: http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(lines[2]).toMatch(/^Token: +\S{16,}$/);
  });

  it("tells a caller without a token where the demo token is, not to create a Home Assistant token", async () => {
    const res = await fetch(mcpUrl, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(res.status).toBe(401);
    const { message } = (await res.json()) as { message: string };
    expect(message).toContain("demo token");
    expect(message).not.toContain("long-lived");
  });

  it("writes readable one-line logs, not JSON, by default", async () => {
    await program.waitFor(/HA Agent is ready/);
    const logLines = program.stdout().split("\n").filter((l) => /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d (TRACE|DEBUG|INFO |WARN |ERROR|FATAL)/.test(l));
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.some((l) => /INFO {2}.*HA Agent is ready/.test(l))).toBe(true);
    expect(program.stdout()).not.toMatch(/^\{"level"/m);
  });

  it("serves valid tool names and the kitchen's real states to an MCP client", async () => {
    await program.waitFor(/HA Agent is ready/);
    const client = await connectClient(mcpUrl, token);
    try {
      const { tools } = await client.listTools();
      expect(tools.length).toBeGreaterThanOrEqual(2);
      for (const tool of tools) expect(tool.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
      const names = tools.map((t) => t.name);
      expect(names).toContain("ha_agent_state_query");
      expect(names).toContain("ha_agent_index_search");

      const result = await client.callTool({ name: "ha_agent_state_query", arguments: { area: "kitchen" } });
      expect(result.isError).toBeFalsy();
      const entities = (result.structuredContent as { entities: { entity_id: string; area: string | null; state: string; name: string }[] }).entities;
      expect(entities.length).toBeGreaterThan(3);
      for (const e of entities) expect(e.area).toBe("Kitchen");
      expect(entities.some((e) => e.entity_id.startsWith("light."))).toBe(true);
      // The text block carries the same JSON as the structured result.
      const text = (result.content as { type: string; text: string }[])[0]?.text ?? "";
      expect(JSON.parse(text)).toEqual(result.structuredContent);
    } finally {
      await client.close();
    }
  });

  it("serves the console's icon, so no browser logs a 404 at every load", async () => {
    const [, statusUrl] = (await program.waitFor(/^Status page:\s+(http\S+)$/m)) as RegExpMatchArray;
    const icon = await fetch(`${statusUrl}favicon.ico`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get("content-type")).toBe("image/x-icon");
    const bytes = new Uint8Array(await icon.arrayBuffer());
    // An ICO file's header: reserved 0, type 1 (icon).
    expect([...bytes.slice(0, 4)]).toEqual([0, 0, 1, 0]);
    expect(bytes.length).toBeLessThan(4_096);
    expect(await (await fetch(statusUrl!)).text()).toContain('<link rel="icon" href="favicon.ico">');
  });

  it("stops cleanly with exit code 0 on SIGTERM", async () => {
    const started = Date.now();
    program.child.kill("SIGTERM");
    const { code } = await program.exited;
    expect(code).toBe(0);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
