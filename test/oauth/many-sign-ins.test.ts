import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInAsPerson } from "../support/oauth-browser.js";
import { startStack, type Stack } from "../support/stack.js";
import { pkcePair } from "./pkce.js";

describe("many sign-ins in a row", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.close();
  });

  it("all succeed: who signed in is asked of Home Assistant outside the budget for unknown tokens", async () => {
    // More than the 10 unknown tokens a minute one address may have checked, all from this one.
    const origin = stack.baseUrl;
    const redirect = "http://127.0.0.1:43400/cb";
    const { client_id } = (await (await fetch(`${origin}/oauth/register`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ redirect_uris: [redirect] }) })).json()) as { client_id: string };
    for (let i = 0; i < 14; i++) {
      const { challenge } = pkcePair();
      const url = `${origin}/oauth/authorize?${new URLSearchParams({ response_type: "code", client_id, redirect_uri: redirect, state: `s${i}`, code_challenge: challenge, code_challenge_method: "S256" })}`;
      const { back } = await signInAsPerson(url);
      expect(back.searchParams.get("code"), `sign-in ${i + 1}: ${back}`).toBeTruthy();
    }
  });
});
