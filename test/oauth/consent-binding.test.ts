import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoHouse, startSimulator, type Simulator } from "@ha-agent/ha-simulator";
import { answerConsent, Browser, logInAtHa, signInAsPerson } from "../support/oauth-browser.js";
import { startStack, type Stack } from "../support/stack.js";
import { pkcePair } from "./pkce.js";

const VICTIM = { id: "victim-user-id", name: "Victim", isAdmin: false, tokens: ["victim-long-lived-token-000000000"], username: "victim", password: "victim-pass-1" };

const form = (fields: Record<string, string>): RequestInit => ({ method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields).toString() });

describe("a sign-in belongs to the browser that allowed it", () => {
  let sim: Simulator;
  let stack: Stack;

  beforeAll(async () => {
    sim = await startSimulator({ house: demoHouse() });
    sim.users.add(VICTIM);
    stack = await startStack({ sim });
  });
  afterAll(async () => {
    await stack?.close();
    await sim?.close();
  });

  /** A client the attacker registers under a trusted name, returning to his own address. */
  async function attackersAuthorizeUrl(): Promise<string> {
    const redirect = "https://attacker.example/cb";
    const registered = await fetch(`${stack.baseUrl}/oauth/register`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ client_name: "Claude Code", redirect_uris: [redirect] }) });
    const { client_id } = (await registered.json()) as { client_id: string };
    return `${stack.baseUrl}/oauth/authorize?${new URLSearchParams({ response_type: "code", client_id, redirect_uri: redirect, state: "s", code_challenge: pkcePair().challenge, code_challenge_method: "S256" })}`;
  }

  it("refuses, with a page that says why, a login link forwarded from the browser that allowed it to another, and issues no code", async () => {
    const attacker = new Browser();
    const victim = new Browser();
    // The attacker allows his own client and sends the victim Home Assistant's genuine login page.
    const { location: haLogin } = await answerConsent(attacker, await attackersAuthorizeUrl());
    expect(haLogin.startsWith(sim.url)).toBe(true);
    const logins = sim.auth.refreshTokens(VICTIM.id).length;
    const callback = await logInAtHa(victim, haLogin, VICTIM);
    const answer = await victim.hop(callback);
    expect(answer.status).toBe(403);
    expect(answer.location).toBeUndefined();
    expect(answer.body).toContain("allowed in another browser");
    expect(answer.body).toContain("Nothing was granted");
    // HA's code was never redeemed: no login for the victim appeared in Home Assistant.
    expect(sim.auth.refreshTokens(VICTIM.id)).toHaveLength(logins);
    // The sign-in is spent: the attacker, who holds the right cookie, cannot finish it with the victim's code either.
    const replay = await attacker.hop(callback);
    expect(replay.status).toBe(400);
    expect(replay.location).toBeUndefined();
  });

  it("finishes the sign-in in the browser that allowed it, across Home Assistant's login page", async () => {
    const browser = new Browser();
    const { back } = await signInAsPerson(await attackersAuthorizeUrl(), { browser, login: VICTIM });
    expect(back.origin).toBe("https://attacker.example");
    expect(back.searchParams.get("code")).toMatch(/^hao_code_/);
    expect(browser.cookie("ha_agent_login")).toBeDefined();
  });

  it("lets one browser run two sign-ins at once, each finishing in turn", async () => {
    const browser = new Browser();
    const first = await answerConsent(browser, await attackersAuthorizeUrl());
    const second = await answerConsent(browser, await attackersAuthorizeUrl());
    for (const { location } of [second, first]) {
      const answer = await browser.hop(await logInAtHa(browser, location, VICTIM));
      expect(answer.status).toBe(302);
      expect(new URL(answer.location!).searchParams.get("code")).toBeTruthy();
    }
  });

  it("takes one answer per consent form: a replayed Allow is refused and starts no second sign-in", async () => {
    const browser = new Browser();
    const url = await attackersAuthorizeUrl();
    const page = await browser.hop(url);
    const sealed = /name="request" value="([^"]+)"/.exec(page.body)![1]!.replace(/&#(\d+);/g, (_, c: string) => String.fromCharCode(Number(c)));
    const cookie = `ha_agent_consent=${browser.cookie("ha_agent_consent")}`;
    const allow = () => fetch(`${stack.baseUrl}/oauth/authorize`, { ...form({ request: sealed, decision: "allow" }), redirect: "manual", headers: { "content-type": "application/x-www-form-urlencoded", cookie } });
    const first = await allow();
    expect(first.status).toBe(302);
    expect(first.headers.get("location")!.startsWith(sim.url)).toBe(true);
    for (let i = 0; i < 3; i++) {
      const again = await allow();
      expect(again.status).toBe(400);
      expect(again.headers.get("location")).toBeNull();
      expect(await again.text()).toContain("already answered");
    }
  });
});
