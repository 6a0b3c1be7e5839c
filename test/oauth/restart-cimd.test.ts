import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoHouse, startSimulator, type Simulator } from "@ha-agent/ha-simulator";
import { signInAsPerson } from "../support/oauth-browser.js";
import { startStack } from "../support/stack.js";
import { pkcePair } from "./pkce.js";

const form = (fields: Record<string, string>): RequestInit => ({ method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields).toString() });
const mcpCall = (url: string, token: string) =>
  fetch(url, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" }, body: "{}" });

describe("sign-in with a client metadata document, and grants across a restart", () => {
  let sim: Simulator;
  let dataDir: string;
  let docServer: Server;
  let docUrl: string;
  // The client names its redirect without a port, as Claude Code does, and then uses one.
  const redirectWithoutPort = "http://localhost/callback";

  beforeAll(async () => {
    sim = await startSimulator({ house: demoHouse() });
    dataDir = await mkdtemp(join(tmpdir(), "ha-agent-oauth-cimd-"));
    docServer = createServer((req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ client_id: docUrl, client_name: "Document Client", redirect_uris: [redirectWithoutPort], token_endpoint_auth_method: "none" }));
    });
    await new Promise<void>((r) => docServer.listen(0, "127.0.0.1", r));
    docUrl = `http://127.0.0.1:${(docServer.address() as AddressInfo).port}/client.json`;
  });
  afterAll(async () => {
    docServer?.close();
    await sim?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("signs in a client known by its metadata document on a loopback redirect with a port, and its tokens work after a restart", async () => {
    const first = await startStack({ sim, dataDir, env: { OAUTH_CIMD_ALLOW_LOCAL: "true" } });
    const origin = first.baseUrl;
    const { verifier, challenge } = pkcePair();
    const redirect = "http://localhost:3118/callback";
    const url = new URL(`${origin}/oauth/authorize`);
    for (const [k, v] of Object.entries({ response_type: "code", client_id: docUrl, redirect_uri: redirect, state: "st", code_challenge: challenge, code_challenge_method: "S256" })) url.searchParams.set(k, v);
    const { consent, back } = await signInAsPerson(url.toString());
    expect(consent.body).toContain("Document Client");
    expect(back.origin + back.pathname).toBe(redirect);
    const token = await fetch(`${origin}/oauth/token`, form({ grant_type: "authorization_code", code: back.searchParams.get("code")!, client_id: docUrl, redirect_uri: redirect, code_verifier: verifier }));
    expect(token.status).toBe(200);
    const tokens = (await token.json()) as { access_token: string; refresh_token: string };
    expect((await mcpCall(first.mcpUrl, tokens.access_token)).status).not.toBe(401);
    const port = new URL(first.mcpUrl).port;
    await first.close();

    const second = await startStack({ sim, dataDir, env: { OAUTH_CIMD_ALLOW_LOCAL: "true", MCP_PORT: port } });
    try {
      expect((await mcpCall(second.mcpUrl, tokens.access_token)).status).not.toBe(401);
      const refreshed = await fetch(`${second.baseUrl}/oauth/token`, form({ grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: docUrl }));
      expect(refreshed.status).toBe(200);
    } finally {
      await second.close();
    }
  });

  it("refuses a metadata document over plain http when the test setting is off", async () => {
    const stack = await startStack({ sim });
    try {
      const { challenge } = pkcePair();
      const res = await fetch(`${stack.baseUrl}/oauth/authorize?response_type=code&client_id=${encodeURIComponent(docUrl)}&redirect_uri=${encodeURIComponent("http://localhost:3118/callback")}&state=s&code_challenge=${challenge}&code_challenge_method=S256`, { redirect: "manual" });
      expect(res.status).toBe(400);
      const page = await res.text();
      expect(page).toMatch(/could not use the document this app identifies itself with/);
      // Without signing in, a name that does not resolve and one on a private address get the very same page.
      const answer = async (clientId: string) => {
        const r = await fetch(`${stack.baseUrl}/oauth/authorize?response_type=code&client_id=${encodeURIComponent(clientId)}&redirect_uri=${encodeURIComponent("http://localhost:3118/callback")}&state=s&code_challenge=${challenge}&code_challenge_method=S256`, { redirect: "manual" });
        return `${r.status} ${await r.text()}`;
      };
      const unresolved = await answer("https://no-such-host.invalid/client.json");
      const inside = await answer("https://127.0.0.1:1/client.json");
      expect(unresolved).toBe(inside);
      expect(unresolved).toBe(`400 ${page}`);
      expect(unresolved).not.toMatch(/ENOTFOUND|not allowed|resolve/);
    } finally {
      await stack.close();
    }
  });
});
