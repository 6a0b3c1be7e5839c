import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type App } from "../../src/app.js";
import { loadConfig } from "../../src/config/index.js";
import { silentLogger, systemClock } from "../../src/shared/index.js";
import { callTool } from "../support/mcp.js";
import { signInAsPerson } from "../support/oauth-browser.js";
import { connectClient } from "../support/stack.js";
import { pkcePair } from "./pkce.js";

describe("sign-in in demo mode", () => {
  let dataDir: string;
  let app: App;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "ha-agent-demo-oauth-"));
    const config = await loadConfig({ env: { DATA_DIR: dataDir, MCP_PORT: "0", STATUS_PORT: "0" }, readFile: async () => undefined });
    app = await startApp({ config, logger: silentLogger, clock: systemClock, host: "127.0.0.1" });
    await app.ready;
  });
  afterAll(async () => {
    await app?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("sends the browser to the simulated home's login page, and the demo user's sign-in acts as the demo token's user", async () => {
    const origin = app.mcpUrl.replace(/\/mcp$/, "");
    const redirect = "http://127.0.0.1:43300/cb";
    const { client_id } = (await (await fetch(`${origin}/oauth/register`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ client_name: "Demo client", redirect_uris: [redirect] }) })).json()) as { client_id: string };
    const { verifier, challenge } = pkcePair();
    const url = `${origin}/oauth/authorize?${new URLSearchParams({ response_type: "code", client_id, redirect_uri: redirect, state: "d", code_challenge: challenge, code_challenge_method: "S256" })}`;
    const { haLogin, back } = await signInAsPerson(url);
    expect(haLogin.startsWith(app.simulator!.url)).toBe(true);
    const tokens = (await (
      await fetch(`${origin}/oauth/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "authorization_code", code: back.searchParams.get("code")!, client_id, redirect_uri: redirect, code_verifier: verifier }).toString(),
      })
    ).json()) as { access_token: string };

    const signedIn = await connectClient(app.mcpUrl, tokens.access_token);
    const started = await callTool(signedIn, "ha_agent_start_session", {});
    await signedIn.close();
    const withDemoToken = await connectClient(app.mcpUrl, app.demoToken!);
    const listed = await callTool(withDemoToken, "ha_agent_list_sessions", {});
    await withDemoToken.close();
    expect((listed.value.sessions as { session_id: string }[]).map((s) => s.session_id)).toContain(started.value.session_id);
  });
});
