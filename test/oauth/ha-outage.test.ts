import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoHouse, startSimulator, type Simulator } from "@ha-agent/ha-simulator";
import { answerConsent, Browser, logInAtHa, signInAsPerson } from "../support/oauth-browser.js";
import { startStack, type Stack } from "../support/stack.js";
import { pkcePair } from "./pkce.js";

const SAM = { id: "sam-user-id", name: "Sam", isAdmin: false, tokens: ["sam-long-lived-token-00000000000"], username: "sam", password: "sam-pass-1" };

const form = (fields: Record<string, string>): RequestInit => ({ method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields).toString() });
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("a sign-in while Home Assistant is unavailable", () => {
  let sim: Simulator;
  let stack: Stack;
  // Home Assistant's clock runs ahead when told to, so the HA access token a grant holds expires and must be refreshed.
  let haAhead = 0;

  beforeAll(async () => {
    sim = await startSimulator({ house: demoHouse(), clock: { now: () => Date.now() + haAhead } });
    sim.users.add(SAM);
    stack = await startStack({ sim, oauthRecheckMs: 100 });
  });
  afterAll(async () => {
    await stack?.close();
    await sim?.close();
  });

  async function authorizeUrl(redirect: string, clientId: string, challenge: string): Promise<string> {
    return `${stack.baseUrl}/oauth/authorize?${new URLSearchParams({ response_type: "code", client_id: clientId, redirect_uri: redirect, state: "s", code_challenge: challenge, code_challenge_method: "S256" })}`;
  }

  async function register(redirect: string): Promise<string> {
    const res = await fetch(`${stack.baseUrl}/oauth/register`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ client_name: "Outage client", redirect_uris: [redirect] }) });
    return ((await res.json()) as { client_id: string }).client_id;
  }

  /** Sam signs in; the front's access token. */
  async function signedIn(): Promise<string> {
    const redirect = "http://127.0.0.1:43500/cb";
    const clientId = await register(redirect);
    const { verifier, challenge } = pkcePair();
    const { back } = await signInAsPerson(await authorizeUrl(redirect, clientId, challenge), { login: SAM });
    const res = await fetch(`${stack.baseUrl}/oauth/token`, form({ grant_type: "authorization_code", code: back.searchParams.get("code")!, client_id: clientId, redirect_uri: redirect, code_verifier: verifier }));
    return ((await res.json()) as { access_token: string }).access_token;
  }

  const call = (token: string) =>
    fetch(stack.mcpUrl, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" }, body: "{}" });

  it.each([
    ["bans HA Agent's address (403 to everything)", () => sim.auth.ban(true), () => sim.auth.ban(false)],
    ["answers 500 on its token endpoint", () => sim.auth.failTokenEndpoint("error"), () => sim.auth.failTokenEndpoint(undefined)],
    ["closes its token endpoint's connections unanswered", () => sim.auth.failTokenEndpoint("close"), () => sim.auth.failTokenEndpoint(undefined)],
  ])("keeps the sign-in while HA %s: 503 with Retry-After meanwhile, and it works again once HA does", async (_what, fail, recover) => {
    const token = await signedIn();
    expect([401, 503]).not.toContain((await call(token)).status);
    const logins = sim.auth.refreshTokens(SAM.id).length;
    // HA's access token of the grant has expired: the next check must refresh it, and meets the failure.
    haAhead += 31 * 60_000;
    fail();
    try {
      await pause(150);
      for (let i = 0; i < 2; i++) {
        const res = await call(token);
        expect(res.status).toBe(503);
        expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
        expect(await res.text()).not.toContain(`:${sim.port}`);
      }
    } finally {
      recover();
    }
    await pause(150);
    expect([401, 503]).not.toContain((await call(token)).status);
    // Nothing was revoked, here or in Home Assistant.
    expect(sim.auth.refreshTokens(SAM.id)).toHaveLength(logins);
  });

  it("shows a page that does not name Home Assistant's internal address when HA cannot take the login's code, and the sign-in can be done again", async () => {
    const redirect = "http://127.0.0.1:43501/cb";
    const clientId = await register(redirect);
    const browser = new Browser();
    const { location } = await answerConsent(browser, await authorizeUrl(redirect, clientId, pkcePair().challenge));
    const callback = await logInAtHa(browser, location, SAM);
    sim.auth.failTokenEndpoint("close");
    let page: Awaited<ReturnType<Browser["hop"]>>;
    try {
      page = await browser.hop(callback);
    } finally {
      sim.auth.failTokenEndpoint(undefined);
    }
    expect(page.status).toBe(503);
    expect(page.body).not.toContain(`:${sim.port}`);
    expect(page.body).not.toContain("/auth/token");
    expect(page.body).toContain("cannot reach Home Assistant");
    const { back } = await signInAsPerson(await authorizeUrl(redirect, clientId, pkcePair().challenge), { browser, login: SAM });
    expect(back.searchParams.get("code")).toBeTruthy();
  });
});
