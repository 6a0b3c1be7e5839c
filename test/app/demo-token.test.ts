import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type App } from "../../src/app.js";
import { loadConfig } from "../../src/config/index.js";
import { silentLogger, systemClock } from "../../src/shared/index.js";
import { callTool } from "../support/mcp.js";
import { connectClient } from "../support/stack.js";

const DEMO_TOKEN = "a-fixed-demo-token-for-tests";

async function startDemo(dataDir: string, env: Record<string, string> = {}): Promise<App> {
  const config = await loadConfig({ env: { DATA_DIR: dataDir, MCP_PORT: "0", STATUS_PORT: "0", ...env }, readFile: async () => undefined });
  const app = await startApp({ config, logger: silentLogger, clock: systemClock, host: "127.0.0.1" });
  await app.ready;
  return app;
}

describe("DEMO_TOKEN in demo mode", () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "ha-agent-demo-token-"));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it("belongs to the demo house's own user, so the principal and its sessions are the same with or without it", async () => {
    const fixed = await startDemo(dataDir, { DEMO_TOKEN });
    let sessionId: string;
    let fixedUser: string;
    try {
      expect(fixed.demoToken).toBe(DEMO_TOKEN);
      fixedUser = (await fixed.ha.currentUser()).id;
      const client = await connectClient(fixed.mcpUrl, DEMO_TOKEN);
      sessionId = (await callTool(client, "ha_agent_start_session", {})).value.session_id as string;
      await client.close();
    } finally {
      await fixed.stop();
    }

    const random = await startDemo(dataDir);
    try {
      expect(random.demoToken).not.toBe(DEMO_TOKEN);
      expect((await random.ha.currentUser()).id).toBe(fixedUser);
      const client = await connectClient(random.mcpUrl, random.demoToken as string);
      const listed = await callTool(client, "ha_agent_list_sessions", {});
      await client.close();
      expect((listed.value.sessions as { session_id: string }[]).map((s) => s.session_id)).toContain(sessionId);
    } finally {
      await random.stop();
    }
  });
});
