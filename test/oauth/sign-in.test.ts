import { Client, StreamableHTTPClientTransport, UnauthorizedError } from "@modelcontextprotocol/client";
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoHouse, startSimulator, type Simulator } from "@ha-agent/ha-simulator";
import { callTool, waitUntil } from "../support/mcp.js";
import { MemoryOAuthProvider, signInAsPerson } from "../support/oauth-browser.js";
import { MODERN_PROTOCOL, startStack, type Stack } from "../support/stack.js";
import { pkcePair } from "./pkce.js";

const ROBIN = { id: "robin-user-id", name: "Robin", isAdmin: false, tokens: ["robin-long-lived-token-0000000000"], username: "robin", password: "robin-pass-1" };

const form = (fields: Record<string, string>): RequestInit => ({ method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields).toString() });

/** A client that knows only the MCP URL: it signs in through the SDK's OAuth support, a person playing the browser. */
async function signedInClient(mcpUrl: string, provider: MemoryOAuthProvider, login?: { username: string; password: string }): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider });
  const first = new Client({ name: "oauth-test", version: "1.0.0" }, { versionNegotiation: { mode: { pin: MODERN_PROTOCOL } } });
  await expect(first.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
  const { back } = await signInAsPerson(provider.authorizationUrl!.toString(), login ? { login } : {});
  if (!back.searchParams.get("code")) throw new Error(`the sign-in came back without a code: ${back}`);
  // The SDK checks `iss` against the issuer it discovered (RFC 9207) before it redeems the code.
  await transport.finishAuth(back.searchParams);
  const client = new Client({ name: "oauth-test", version: "1.0.0" }, { versionNegotiation: { mode: { pin: MODERN_PROTOCOL } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider }));
  return client;
}

describe("sign in with Home Assistant", () => {
  let sim: Simulator;
  let stack: Stack;
  let dataDir: string;
  let origin: string;
  const opened: Client[] = [];

  beforeAll(async () => {
    sim = await startSimulator({ house: demoHouse() });
    sim.users.add(ROBIN);
    dataDir = await mkdtemp(join(tmpdir(), "ha-agent-oauth-"));
    stack = await startStack({ sim, dataDir, oauthRecheckMs: 200 });
    origin = stack.baseUrl;
  });
  afterAll(async () => {
    await Promise.all(opened.map((c) => c.close().catch(() => {})));
    await stack?.close();
    await sim?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** Registers a client by hand and walks a person through the sign-in; returns the code and what redeems it. */
  async function manualCode(o: { redirect?: string; login?: { username: string; password: string } } = {}) {
    const redirect = o.redirect ?? "http://127.0.0.1:43200/cb";
    const registered = await fetch(`${origin}/oauth/register`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ client_name: "Manual", redirect_uris: [redirect] }) });
    expect(registered.status).toBe(201);
    const { client_id: clientId } = (await registered.json()) as { client_id: string };
    const { verifier, challenge } = pkcePair();
    const url = new URL(`${origin}/oauth/authorize`);
    for (const [k, v] of Object.entries({ response_type: "code", client_id: clientId, redirect_uri: redirect, state: "s-1", code_challenge: challenge, code_challenge_method: "S256", resource: stack.mcpUrl })) url.searchParams.set(k, v);
    const { back } = await signInAsPerson(url.toString(), o.login ? { login: o.login } : {});
    expect(back.searchParams.get("state")).toBe("s-1");
    expect(back.searchParams.get("iss")).toBe(origin);
    const code = back.searchParams.get("code")!;
    const redeem = (extra: Record<string, string> = {}) =>
      fetch(`${origin}/oauth/token`, form({ grant_type: "authorization_code", code, client_id: clientId, redirect_uri: redirect, code_verifier: verifier, resource: stack.mcpUrl, ...extra }));
    return { clientId, code, verifier, redirect, redeem };
  }

  it("answers 401 with a challenge naming the metadata, in quotes, and serves both metadata documents", async () => {
    const res = await fetch(stack.mcpUrl, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: "{}" });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp", scope="mcp"`);
    for (const path of ["/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"]) {
      const prm = (await (await fetch(`${origin}${path}`)).json()) as { resource: string; authorization_servers: string[] };
      expect(prm.resource).toBe(stack.mcpUrl);
      expect(prm.authorization_servers).toEqual([origin]);
    }
    const as = (await (await fetch(`${origin}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(as).toMatchObject({
      issuer: origin,
      code_challenge_methods_supported: ["S256"],
      token_endpoint_auth_methods_supported: ["none"],
      grant_types_supported: ["authorization_code", "refresh_token"],
      client_id_metadata_document_supported: true,
      authorization_response_iss_parameter_supported: true,
      registration_endpoint: `${origin}/oauth/register`,
      revocation_endpoint: `${origin}/oauth/revoke`,
    });
  });

  it("lets a client that knows only the MCP URL sign in (registration, PKCE, consent, HA's login) and act as the person who signed in", async () => {
    const provider = new MemoryOAuthProvider();
    const client = await signedInClient(stack.mcpUrl, provider, { username: ROBIN.username, password: ROBIN.password });
    opened.push(client);
    const result = await callTool(client, "ha_agent_state_query", { entity_ids: ["light.kitchen_ceiling"] });
    expect(result.isError).toBeFalsy();
    // The session belongs to Robin: the admin's pasted token does not see it, Robin's signed-in client does.
    const started = await callTool(client, "ha_agent_start_session", {});
    const sessionId = (started.value as { session_id: string }).session_id;
    const mine = await callTool(client, "ha_agent_list_sessions", {});
    expect(JSON.stringify(mine.value)).toContain(sessionId);
    const admins = await callTool(stack.client, "ha_agent_list_sessions", {});
    expect(JSON.stringify(admins.value)).not.toContain(sessionId);
    // HA's tokens stay in the add-on: the client holds only the front's own.
    expect(provider.tokens()?.access_token).toMatch(/^hao_at_/);
  });

  it("keeps grants in a file only the add-on can read, without the tokens it issued", async () => {
    const file = join(dataDir, "oauth", "grants.json");
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const text = await readFile(file, "utf8");
    expect(text).toContain("Robin");
    expect(text).not.toMatch(/hao_(at|rt)_/);
    // Nor HA's short-lived access tokens (JWTs): only HA's refresh token is kept.
    expect(text).not.toMatch(/eyJ[\w-]+\.eyJ/);
  });

  it("registers Home Assistant's own MCP integration as it registers itself (public client, web, its scope)", async () => {
    // The body HA's `mcp` integration sends when it finds a registration endpoint and `none` among the auth methods.
    const body = { redirect_uris: ["https://my.home-assistant.io/redirect/oauth"], token_endpoint_auth_method: "none", grant_types: ["authorization_code", "refresh_token"], response_types: ["code"], client_name: "Home Assistant", scope: "mcp", application_type: "web" };
    const res = await fetch(`${origin}/oauth/register`, { method: "POST", headers: { "content-type": "application/json", accept: "application/json" }, body: JSON.stringify(body) });
    expect(res.status).toBe(201);
    const answer = (await res.json()) as Record<string, unknown>;
    // HA refuses an answer that leaves out its callback, names another auth method, or grants less scope than asked.
    expect(answer.redirect_uris).toContain("https://my.home-assistant.io/redirect/oauth");
    expect(answer.token_endpoint_auth_method).toBe("none");
    expect(answer.scope === undefined || String(answer.scope).split(" ").includes("mcp")).toBe(true);
  });

  it("answers every malformed request with an OAuth error that says what to do, never a stack trace", async () => {
    const cases: [RequestInit & { path: string }, number, string][] = [
      [{ path: "/oauth/token", method: "POST", headers: { "content-type": "application/json" }, body: "{}" }, 400, "invalid_request"],
      [{ path: "/oauth/token", ...form({ grant_type: "password", client_id: "x" }) }, 400, "unsupported_grant_type"],
      [{ path: "/oauth/token", ...form({ grant_type: "authorization_code" }) }, 400, "invalid_request"],
      [{ path: "/oauth/token", method: "GET" }, 405, "invalid_request"],
      [{ path: "/oauth/register", method: "POST", headers: { "content-type": "application/json" }, body: "not json" }, 400, "invalid_client_metadata"],
      [{ path: "/oauth/register", method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ redirect_uris: ["http://evil.example/cb"] }) }, 400, "invalid_redirect_uri"],
      [{ path: "/oauth/revoke", ...form({}) }, 400, "invalid_request"],
    ];
    for (const [{ path, ...init }, status, error] of cases) {
      const res = await fetch(`${origin}${path}`, init);
      const body = (await res.json()) as { error: string; error_description: string };
      expect([res.status, body.error], `${init.method} ${path}`).toEqual([status, error]);
      expect(body.error_description.length).toBeGreaterThan(10);
      expect(body.error_description).not.toMatch(/\bat .*\(|node:internal/);
    }
  });

  it("refuses a wrong code_verifier, and the code cannot be used after it", async () => {
    const { redeem } = await manualCode();
    const wrong = await redeem({ code_verifier: pkcePair().verifier });
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { error: string }).error).toBe("invalid_grant");
  });

  it("refuses a reused code, and revokes what its first use granted", async () => {
    const { redeem } = await manualCode();
    const first = await redeem();
    expect(first.status).toBe(200);
    const tokens = (await first.json()) as { access_token: string };
    const again = await redeem();
    expect(again.status).toBe(400);
    expect(((await again.json()) as { error: string }).error).toBe("invalid_grant");
    const use = await fetch(stack.mcpUrl, { method: "POST", headers: { authorization: `Bearer ${tokens.access_token}`, "content-type": "application/json", accept: "application/json, text/event-stream" }, body: "{}" });
    expect(use.status).toBe(401);
  });

  it("refuses a redirect the client did not register, before any login", async () => {
    const registered = (await (await fetch(`${origin}/oauth/register`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ redirect_uris: ["https://app.example/cb"] }) })).json()) as { client_id: string };
    const { challenge } = pkcePair();
    const url = `${origin}/oauth/authorize?response_type=code&client_id=${encodeURIComponent(registered.client_id)}&redirect_uri=${encodeURIComponent("https://evil.example/cb")}&state=x&code_challenge=${challenge}&code_challenge_method=S256`;
    const res = await fetch(url, { redirect: "manual" });
    expect(res.status).toBe(400);
    expect(res.headers.get("location")).toBeNull();
    expect(await res.text()).toContain("did not register");
  });

  it("refuses a token request for another resource with invalid_target", async () => {
    const { redeem } = await manualCode();
    const res = await redeem({ resource: "https://other.example/mcp" });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe("invalid_target");
  });

  it("rotates refresh tokens, and a reused one ends the whole family", async () => {
    const { redeem, clientId } = await manualCode();
    const first = (await (await redeem()).json()) as { refresh_token: string; access_token: string };
    const refresh = (token: string) => fetch(`${origin}/oauth/token`, form({ grant_type: "refresh_token", refresh_token: token, client_id: clientId }));
    const second = await refresh(first.refresh_token);
    expect(second.status).toBe(200);
    const rotated = (await second.json()) as { refresh_token: string; access_token: string };
    expect(rotated.refresh_token).not.toBe(first.refresh_token);
    const reuse = await refresh(first.refresh_token);
    expect(((await reuse.json()) as { error: string }).error).toBe("invalid_grant");
    expect((await refresh(rotated.refresh_token)).status).toBe(400);
    const client = new Client({ name: "t", version: "1" }, { versionNegotiation: { mode: { pin: MODERN_PROTOCOL } } });
    await expect(client.connect(new StreamableHTTPClientTransport(new URL(stack.mcpUrl), { requestInit: { headers: { authorization: `Bearer ${rotated.access_token}` } } }))).rejects.toThrow();
  });

  it("stops accepting a token soon after the person removes the login in their Home Assistant profile", async () => {
    const { redeem } = await manualCode();
    const { access_token } = (await (await redeem()).json()) as { access_token: string };
    const call = () => fetch(stack.mcpUrl, { method: "POST", headers: { authorization: `Bearer ${access_token}`, "content-type": "application/json", accept: "application/json, text/event-stream" }, body: "{}" });
    expect((await call()).status).not.toBe(401);
    const logins = sim.auth.refreshTokens();
    expect(sim.auth.removeRefreshToken(logins.at(-1)!.id)).toBe(true);
    await new Promise((r) => setTimeout(r, 300));
    expect((await call()).status).toBe(401);
  });

  it("revokes a refresh token (RFC 7009), which ends its grant and its login in Home Assistant", async () => {
    const { redeem, clientId } = await manualCode();
    const tokens = (await (await redeem()).json()) as { refresh_token: string; access_token: string };
    const loginsBefore = sim.auth.refreshTokens().length;
    const revoked = await fetch(`${origin}/oauth/revoke`, form({ token: tokens.refresh_token, client_id: clientId }));
    expect(revoked.status).toBe(200);
    const refresh = await fetch(`${origin}/oauth/token`, form({ grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: clientId }));
    expect(refresh.status).toBe(400);
    // The login the sign-in made in Home Assistant goes too, so it does not linger in the person's profile.
    await waitUntil(async () => sim.auth.refreshTokens().length, (n) => n === loginsBefore - 1, 2_000);
  });
});
