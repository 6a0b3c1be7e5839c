import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectClient } from "../support/stack.js";
import { runProgram } from "../support/program.js";

/** Starts the demo on `dataDir`, reads the banner's token, and stops it. */
async function bannerToken(env: Record<string, string>): Promise<string> {
  const program = runProgram({ MCP_PORT: "0", STATUS_PORT: "0", ...env });
  try {
    const [, token] = (await program.waitFor(/^Token: +(\S+)$/m)) as RegExpMatchArray;
    return token!;
  } finally {
    program.child.kill("SIGTERM");
    await program.exited;
  }
}

describe("the demo token across restarts", () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "ha-agent-demo-restart-"));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it("is the same after a restart on the same data directory, kept in a file only its owner reads", async () => {
    const first = await bannerToken({ DATA_DIR: dataDir });
    const second = await bannerToken({ DATA_DIR: dataDir });
    expect(second).toBe(first);
    expect((await stat(join(dataDir, "secrets", "demo-token.key"))).mode & 0o777).toBe(0o600);
    // A client set up with it before the restart still gets in.
    const program = runProgram({ DATA_DIR: dataDir, MCP_PORT: "0", STATUS_PORT: "0" });
    try {
      const [, mcpUrl] = (await program.waitFor(/^MCP endpoint: (\S+)$/m)) as RegExpMatchArray;
      await program.waitFor(/HA Agent is ready/);
      const client = await connectClient(mcpUrl!, first);
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
      await client.close();
    } finally {
      program.child.kill("SIGTERM");
      await program.exited;
    }
  });

  it("differs on another data directory, and DEMO_TOKEN still overrides it", async () => {
    const other = await mkdtemp(join(tmpdir(), "ha-agent-demo-restart-"));
    try {
      expect(await bannerToken({ DATA_DIR: other })).not.toBe(await bannerToken({ DATA_DIR: dataDir }));
      expect(await bannerToken({ DATA_DIR: dataDir, DEMO_TOKEN: "a-fixed-demo-token-for-tests" })).toBe("a-fixed-demo-token-for-tests");
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });
});
