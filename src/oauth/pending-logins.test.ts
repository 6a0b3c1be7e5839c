import { describe, expect, it } from "vitest";
import type { ConsentRequest } from "./consent-request.js";
import { createPendingLogins } from "./pending-logins.js";
import { createUsedForms } from "./used-forms.js";

const request = (clientId: string): ConsentRequest => ({
  clientId,
  clientName: clientId,
  redirectUri: "http://127.0.0.1:9/cb",
  state: "s",
  codeChallenge: "c".repeat(43),
  resource: "http://a:8808/mcp",
  scope: "mcp",
  origin: "http://a:8808",
  nonce: "n",
  expiresAt: 0,
});

describe("pending sign-ins", () => {
  it("refuse a newcomer past the share of its address or client, and never drop anybody's sign-in in progress", () => {
    let now = 0;
    const pending = createPendingLogins(() => now, { total: 50, perClient: 20, perAddress: 5 });
    const someone = pending.add({ request: request("claude"), browser: "b0", address: "192.168.1.20" });
    expect("id" in someone).toBe(true);
    const flood = Array.from({ length: 8 }, (_, i) => pending.add({ request: request(`hac_${i}`), browser: "x", address: "10.6.6.6" }));
    expect(flood.filter((r) => "id" in r)).toHaveLength(5);
    expect(flood.at(-1)).toEqual({ full: "address" });
    const manyAddresses = Array.from({ length: 25 }, (_, i) => pending.add({ request: request("claude"), browser: "x", address: `10.7.0.${i}` }));
    expect(manyAddresses.at(-1)).toEqual({ full: "client" });
    // Another client from another address still gets in, and the first person's sign-in is still there.
    expect("id" in pending.add({ request: request("vscode"), browser: "b1", address: "192.168.1.21" })).toBe(true);
    expect(pending.take((someone as { id: string }).id)?.browser).toBe("b0");
    // Each expires in time, which is what frees the room.
    now += 10 * 60_000;
    expect("id" in pending.add({ request: request("hac_0"), browser: "x", address: "10.6.6.6" })).toBe(true);
  });

  it("finish at most once", () => {
    const pending = createPendingLogins(() => 0);
    const added = pending.add({ request: request("c"), browser: "b", address: "a" }) as { id: string };
    expect(pending.peek(added.id)).toBeDefined();
    expect(pending.take(added.id)).toBeDefined();
    expect(pending.take(added.id)).toBeUndefined();
  });
});

describe("answered consent forms", () => {
  it("are each good for one answer until their seal expires, and refuse more than they can remember", () => {
    let now = 0;
    const forms = createUsedForms(() => now, 2);
    expect(forms.claim("f1", 100)).toBe("claimed");
    expect(forms.claim("f1", 100)).toBe("used");
    expect(forms.claim("f2", 200)).toBe("claimed");
    expect(forms.claim("f3", 200)).toBe("full");
    now = 150;
    expect(forms.claim("f3", 300)).toBe("claimed");
  });
});
