import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "../support/stack.js";
import { pkcePair } from "./pkce.js";

describe("the sign-in routes' budget", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.close();
  });

  async function authorizeUrl(name: string): Promise<string> {
    const redirect = `http://127.0.0.1:43600/${name}`;
    const res = await fetch(`${stack.baseUrl}/oauth/register`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ client_name: name, redirect_uris: [redirect] }) });
    const { client_id } = (await res.json()) as { client_id: string };
    return `${stack.baseUrl}/oauth/authorize?${new URLSearchParams({ response_type: "code", client_id, redirect_uri: redirect, state: "s", code_challenge: pkcePair().challenge, code_challenge_method: "S256" })}`;
  }

  it("is kept per client, so one busy client from an address (or behind one proxy) cannot use it up for the others", async () => {
    const busy = await authorizeUrl("Busy");
    const other = await authorizeUrl("Other");
    // The busy client runs until it is told to slow down (a little past 120: the budget refills as time passes).
    let over: Response | undefined;
    for (let i = 0; i < 400 && !over; i++) {
      const res = await fetch(busy);
      await res.text();
      if (res.status === 429) over = res;
      else expect(res.status).toBe(200);
    }
    expect(over, "the busy client was never told to slow down").toBeDefined();
    expect(Number(over!.headers.get("retry-after"))).toBeGreaterThan(0);
    // The other client, from the same address, still has all of its own.
    for (let i = 0; i < 10; i++) {
      const res = await fetch(other);
      await res.text();
      expect(res.status, `the other client's request ${i + 1}`).toBe(200);
    }
  });
});
