import { afterEach, describe, expect, it } from "vitest";
import { RawClient } from "../../test/support/raw-client.js";
import { manualClock } from "../common/index.js";
import { demoHouse } from "../demo/index.js";
import { startSimulator, type Simulator } from "../index.js";
import { DEMO_LOGIN } from "../users.js";

const CLIENT_ID = "http://addon.local:8099/";
const REDIRECT = "http://addon.local:8099/oauth/ha-callback";

let sim: Simulator;
const clients: RawClient[] = [];

afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await sim.close();
});

async function start(clock = manualClock()): Promise<typeof clock> {
  sim = await startSimulator({ house: demoHouse(), clock });
  return clock;
}

function form(fields: Record<string, string>): RequestInit {
  return { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields).toString(), redirect: "manual" };
}

/** Posts the login form as a browser would; the answer is not followed. */
function login(o: { clientId?: string; redirectUri?: string; state?: string; password?: string } = {}): Promise<Response> {
  return fetch(`${sim.url}/auth/authorize`, form({
    client_id: o.clientId ?? CLIENT_ID,
    redirect_uri: o.redirectUri ?? REDIRECT,
    state: o.state ?? "st-1",
    response_type: "code",
    username: DEMO_LOGIN.username,
    password: o.password ?? DEMO_LOGIN.password,
  }));
}

async function codeFromLogin(clientId = CLIENT_ID): Promise<string> {
  const res = await login({ clientId, redirectUri: new URL("/cb", clientId).href });
  return new URL(res.headers.get("location")!).searchParams.get("code")!;
}

function token(fields: Record<string, string>): Promise<Response> {
  return fetch(`${sim.url}/auth/token`, form(fields));
}

async function wsAuth(accessToken: string): Promise<{ type: string }> {
  const c = await RawClient.connect(sim.wsUrl);
  clients.push(c);
  await c.next();
  c.send({ type: "auth", access_token: accessToken });
  return c.next();
}

function rest(accessToken: string): Promise<Response> {
  return fetch(`${sim.url}/api/`, { headers: { Authorization: `Bearer ${accessToken}` } });
}

describe("signing in as on HA's login page", () => {
  it("runs the whole code flow: login page, redirect with code and state, tokens, WebSocket and REST, refresh, then revocation ends it all", async () => {
    await start();
    const page = await fetch(`${sim.url}/auth/authorize?${new URLSearchParams({ response_type: "code", client_id: CLIENT_ID, redirect_uri: REDIRECT, state: "st-1" })}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('name="username"');
    expect(html).toContain(`value="${REDIRECT}"`);
    expect(html).not.toContain("<script");

    const redirected = await login();
    expect(redirected.status).toBe(302);
    const location = new URL(redirected.headers.get("location")!);
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
    expect([...location.searchParams.keys()]).toEqual(["code", "state"]);
    expect(location.searchParams.get("state")).toBe("st-1");

    const granted = await token({ grant_type: "authorization_code", code: location.searchParams.get("code")!, client_id: CLIENT_ID });
    expect(granted.status).toBe(200);
    expect(granted.headers.get("cache-control")).toBe("no-store");
    const tokens = (await granted.json()) as Record<string, unknown>;
    expect(Object.keys(tokens).sort()).toEqual(["access_token", "expires_in", "ha_auth_provider", "refresh_token", "token_type"]);
    expect(tokens).toMatchObject({ token_type: "Bearer", expires_in: 1800, ha_auth_provider: "homeassistant" });
    const access = tokens.access_token as string;

    const ws = clients.length;
    expect(await wsAuth(access)).toMatchObject({ type: "auth_ok" });
    const socket = clients[ws]!;
    expect((await socket.command({ id: 1, type: "auth/current_user" })).result.name).toBe("Alex (demo)");
    expect((await rest(access)).status).toBe(200);

    const refreshed = await token({ grant_type: "refresh_token", refresh_token: tokens.refresh_token as string, client_id: CLIENT_ID });
    const again = (await refreshed.json()) as Record<string, unknown>;
    expect(Object.keys(again).sort()).toEqual(["access_token", "expires_in", "token_type"]);
    expect((await rest(again.access_token as string)).status).toBe(200);

    const revoked = await fetch(`${sim.url}/auth/revoke`, form({ token: tokens.refresh_token as string }));
    expect(revoked.status).toBe(200);
    expect(await revoked.text()).toBe("");
    await socket.closed;
    expect((await rest(access)).status).toBe(401);
    expect((await rest(again.access_token as string)).status).toBe(401);
    expect(await wsAuth(access)).toMatchObject({ type: "auth_invalid" });
    expect(await (await token({ grant_type: "refresh_token", refresh_token: tokens.refresh_token as string, client_id: CLIENT_ID })).json()).toEqual({ error: "invalid_grant" });
  });

  it("uses a code once", async () => {
    await start();
    const code = await codeFromLogin();
    expect((await token({ grant_type: "authorization_code", code, client_id: CLIENT_ID })).status).toBe(200);
    const second = await token({ grant_type: "authorization_code", code, client_id: CLIENT_ID });
    expect(second.status).toBe(400);
    expect(await second.json()).toEqual({ error: "invalid_request", error_description: "Invalid code" });
  });

  it("refuses a code for another client id, which leaves it for its own client, as HA keys codes by client id", async () => {
    await start();
    const code = await codeFromLogin();
    const other = await token({ grant_type: "authorization_code", code, client_id: "http://other.local:8099/" });
    expect(other.status).toBe(400);
    expect(await other.json()).toEqual({ error: "invalid_request", error_description: "Invalid code" });
    // HA's client_id is compared as the exact string: the same origin without the slash is another client.
    expect((await token({ grant_type: "authorization_code", code, client_id: "http://addon.local:8099" })).status).toBe(400);
    expect((await token({ grant_type: "authorization_code", code, client_id: CLIENT_ID })).status).toBe(200);
  });

  it("lets a code expire after 10 minutes and an access token after 30 minutes and HA's 10 s of leeway", async () => {
    const clock = await start();
    const late = await codeFromLogin();
    clock.advance(10 * 60_000);
    expect((await token({ grant_type: "authorization_code", code: late, client_id: CLIENT_ID })).status).toBe(400);

    const tokens = (await (await token({ grant_type: "authorization_code", code: await codeFromLogin(), client_id: CLIENT_ID })).json()) as { access_token: string };
    clock.advance(1800_000 + 9_000);
    expect((await rest(tokens.access_token)).status).toBe(200);
    clock.advance(1_000);
    expect((await rest(tokens.access_token)).status).toBe(401);
  });

  it("refuses a redirect URI off the client's origin with an error page and no redirect, before and after the password", async () => {
    await start();
    const query = new URLSearchParams({ client_id: CLIENT_ID, redirect_uri: "http://evil.example/cb", state: "s" });
    const page = await fetch(`${sim.url}/auth/authorize?${query}`, { redirect: "manual" });
    expect(page.status).toBe(400);
    expect(page.headers.get("location")).toBeNull();
    expect(await page.text()).toContain("Invalid redirect URI");

    const posted = await login({ redirectUri: "http://evil.example/cb" });
    expect(posted.status).toBe(400);
    expect(posted.headers.get("location")).toBeNull();
    expect(sim.auth.refreshTokens()).toEqual([]);
  });

  it("shows the form again after a wrong password, with HA's words and no code", async () => {
    await start();
    const res = await login({ password: "wrong" });
    expect(res.status).toBe(200);
    expect(res.headers.get("location")).toBeNull();
    expect(await res.text()).toContain("Invalid username or password");
  });
});

describe("HA's token endpoint errors", () => {
  it.each([
    ["a JSON body (HA reads only form fields)", { json: { grant_type: "authorization_code" } }, { error: "unsupported_grant_type" }],
    ["an unknown grant", { grant_type: "password" }, { error: "unsupported_grant_type" }],
    ["a code without client_id", { grant_type: "authorization_code", code: "x" }, { error: "invalid_request", error_description: "Invalid client id" }],
    ["a code with a client_id that is no URL", { grant_type: "authorization_code", code: "x", client_id: "my-app" }, { error: "invalid_request", error_description: "Invalid client id" }],
    ["no code", { grant_type: "authorization_code", client_id: CLIENT_ID }, { error: "invalid_request", error_description: "Invalid code" }],
    ["a refresh without the token", { grant_type: "refresh_token", client_id: CLIENT_ID }, { error: "invalid_request" }],
    ["an unknown refresh token", { grant_type: "refresh_token", client_id: CLIENT_ID, refresh_token: "nope" }, { error: "invalid_grant" }],
  ])("answers %s with 400 and HA's body", async (_, body, expected) => {
    await start();
    const res =
      "json" in body
        ? await fetch(`${sim.url}/auth/token`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body.json) })
        : await token(body as Record<string, string>);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual(expected);
  });

  it("refuses a refresh from another client id, or with none, with invalid_request", async () => {
    await start();
    const tokens = (await (await token({ grant_type: "authorization_code", code: await codeFromLogin(), client_id: CLIENT_ID })).json()) as { refresh_token: string };
    for (const fields of [{ client_id: "http://other.local/" }, {}] as Record<string, string>[]) {
      const res = await token({ grant_type: "refresh_token", refresh_token: tokens.refresh_token, ...fields });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: "invalid_request" });
    }
  });

  it("still revokes through /auth/token with action=revoke, answering 200 even for an unknown token", async () => {
    await start();
    const tokens = (await (await token({ grant_type: "authorization_code", code: await codeFromLogin(), client_id: CLIENT_ID })).json()) as { access_token: string; refresh_token: string };
    expect((await token({ action: "revoke", token: "unknown" })).status).toBe(200);
    expect((await rest(tokens.access_token)).status).toBe(200);
    expect((await token({ action: "revoke", token: tokens.refresh_token })).status).toBe(200);
    expect((await rest(tokens.access_token)).status).toBe(401);
  });
});

describe("removing a login as on the profile page", () => {
  it("lists the user's logins and removes one with auth/delete_refresh_token, closing its socket and failing its tokens", async () => {
    await start();
    const tokens = (await (await token({ grant_type: "authorization_code", code: await codeFromLogin(), client_id: CLIENT_ID })).json()) as { access_token: string };
    expect(await wsAuth(tokens.access_token)).toMatchObject({ type: "auth_ok" });
    const socket = clients.at(-1)!;
    const listed = await socket.command({ id: 1, type: "auth/refresh_tokens" });
    expect(listed.result).toEqual([expect.objectContaining({ client_id: CLIENT_ID, type: "normal", is_current: true, auth_provider_type: "homeassistant" })]);

    expect(await socket.command({ id: 2, type: "auth/delete_refresh_token", refresh_token_id: "not-mine" })).toMatchObject({
      success: false,
      error: { code: "invalid_token_id", message: "Received invalid token" },
    });
    expect(await socket.command({ id: 3, type: "auth/delete_refresh_token", refresh_token_id: listed.result[0].id })).toMatchObject({ success: true, result: {} });
    await socket.closed;
    expect((await rest(tokens.access_token)).status).toBe(401);
    expect(sim.auth.refreshTokens()).toEqual([]);
  });

  it("gives tests the same removal through sim.auth, leaving long-lived tokens alone", async () => {
    await start();
    const tokens = (await (await token({ grant_type: "authorization_code", code: await codeFromLogin(), client_id: CLIENT_ID })).json()) as { access_token: string };
    const [login] = sim.auth.refreshTokens();
    expect(login).toMatchObject({ clientId: CLIENT_ID, userId: expect.any(String) });
    expect(sim.auth.removeRefreshToken(login!.id)).toBe(true);
    expect(sim.auth.removeRefreshToken(login!.id)).toBe(false);
    expect((await rest(tokens.access_token)).status).toBe(401);
    expect((await rest(sim.users.tokenFor())).status).toBe(200);
  });
});
