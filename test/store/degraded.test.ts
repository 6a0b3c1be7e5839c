import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callTool } from "../support/mcp.js";
import { runProgram } from "../support/program.js";
import { startStack, type Stack } from "../support/stack.js";
import { faultyFs } from "../support/store/faulty-fs.js";

describe("a data directory that cannot be written", () => {
  let stack: Stack;
  beforeAll(async () => {
    const faulty = faultyFs();
    faulty.failWrites("EROFS");
    stack = await startStack({ storeFs: faulty.fs });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it("starts degraded: the home's tools work, sessions are refused with the reason", async () => {
    expect((await callTool(stack.client, "ha_agent_state_query", { area: "kitchen", limit: 2 })).isError).toBe(false);
    const started = await callTool(stack.client, "ha_agent_start_session", {});
    expect(started.isError).toBe(true);
    expect(started.text).toMatch(/store_unavailable/);
    expect(started.text).toMatch(/read-only/);
    expect(started.text).not.toMatch(/\/tmp\/|ha-agent-stack/);
  });

  it("reports the store as degraded on /healthz (still 200) and on the status page", async () => {
    const res = await fetch(`${stack.baseUrl}/healthz`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { status: string; reasons: string[]; components: { store: { ok: boolean; degraded: boolean } } };
    expect(body.status).toBe("degraded");
    expect(body.components.store).toMatchObject({ ok: false, degraded: true });
    expect(body.reasons.join(" ")).toMatch(/cannot write to its data directory/);
  });
});

describe("a data directory that can be written", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
    await stack.app.ready;
  });
  afterAll(async () => {
    await stack?.close();
  });

  it("reports the store ok on /healthz, not degraded", async () => {
    const res = await fetch(`${stack.baseUrl}/healthz`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { status: string; reasons: string[]; components: Record<string, { ok: boolean; degraded?: boolean; details?: { writable?: boolean } }> };
    expect(body.status).toBe("ok");
    expect(body.reasons).toEqual([]);
    expect(body.components.store?.ok).toBe(true);
    expect(body.components.store?.details?.writable).toBe(true);
    for (const [name, component] of Object.entries(body.components)) expect(component, name).not.toHaveProperty("degraded");
  });
});

describe("a data directory that can never work", () => {
  it("stops with one clear line and exit 2 for /proc and for a file, instead of spinning or a raw errno", async () => {
    for (const dataDir of ["/proc/ha-agent-data", "/etc/hostname"]) {
      const program = runProgram({ DATA_DIR: dataDir, MCP_PORT: "0", STATUS_PORT: "0" });
      const { code } = await program.exited;
      expect(code, dataDir).toBe(2);
      const err = program.stderr().trim();
      expect(err.split("\n"), err).toHaveLength(1);
      expect(err).toMatch(/^DATA_DIR \(/);
      expect(err).not.toMatch(/ENOTDIR|ENOENT|\n\s+at /);
    }
  }, 30_000);
});
