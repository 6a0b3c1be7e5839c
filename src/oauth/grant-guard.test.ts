import { describe, expect, it } from "vitest";
import { silentLogger } from "../shared/index.js";
import { createGrantGuard, type GuardedGrant } from "./grant-guard.js";
import { HaUnreachableError } from "./ha-unreachable.js";

const grant: GuardedGrant = { id: "g1", principal: { id: "u1", name: "Robin", isAdmin: false }, haRefreshToken: "ha-refresh", haClientId: "http://addon:8808/" };

/** Home Assistant's token and API endpoints, scripted: whether the login still exists, and whether HA answers at all. */
function fakeHa() {
  const state = { loginExists: true, down: false, banned: false, userInactive: false, refreshes: 0, checks: 0 };
  const fetch = (async (input: string | URL) => {
    const url = String(input);
    if (state.down) throw new TypeError("fetch failed");
    // HA's ban middleware (http/ban.py): aiohttp's bare 403 to every request from a banned address.
    if (state.banned) return new Response("403: Forbidden", { status: 403, headers: { "content-type": "text/plain" } });
    if (url.endsWith("/auth/token") && state.userInactive) return Response.json({ error: "access_denied", error_description: "User is not active" }, { status: 403 });
    if (url.endsWith("/auth/token")) {
      state.refreshes++;
      return state.loginExists ? Response.json({ access_token: `ha-access-${state.refreshes}`, expires_in: 1800, token_type: "Bearer" }) : Response.json({ error: "invalid_grant" }, { status: 400 });
    }
    state.checks++;
    return new Response(null, { status: state.loginExists ? 200 : 401 });
  }) as typeof globalThis.fetch;
  return { state, fetch };
}

function setup(recheckMs = 30_000) {
  const ha = fakeHa();
  let now = 1_000_000;
  const removed: string[] = [];
  const guard = createGrantGuard({
    grants: { authenticate: (t) => (t === "hao_at_good" && !removed.includes(grant.id) ? grant : undefined), remove: async (id) => void removed.push(id) },
    ha: { coreUrl: "http://ha:8123", fetch: ha.fetch },
    clock: { now: () => now },
    logger: silentLogger,
    recheckMs,
  });
  return { guard, ha, removed, advance: (ms: number) => (now += ms) };
}

describe("the grant guard", () => {
  it("resolves a token to the person who signed in, asking HA once and then trusting the answer for a while", async () => {
    const { guard, ha, advance } = setup();
    expect(await guard.principalFor("hao_at_good")).toMatchObject({ id: "u1", name: "Robin", kind: "user", isAdmin: false });
    advance(10_000);
    await guard.principalFor("hao_at_good");
    expect(ha.state.refreshes).toBe(1);
    expect(ha.state.checks).toBe(1);
  });

  it("ends the grant within the recheck interval once the person removed the login in Home Assistant", async () => {
    const { guard, ha, removed, advance } = setup(30_000);
    await guard.principalFor("hao_at_good");
    ha.state.loginExists = false;
    advance(29_000);
    // Still inside the interval: HA is not asked.
    expect(await guard.principalFor("hao_at_good")).toBeDefined();
    advance(1_000);
    expect(await guard.principalFor("hao_at_good")).toBeUndefined();
    expect(removed).toEqual(["g1"]);
  });

  it("says Home Assistant is unreachable rather than revoking anything when HA is down", async () => {
    const { guard, ha, removed } = setup();
    ha.state.down = true;
    await expect(guard.principalFor("hao_at_good")).rejects.toBeInstanceOf(HaUnreachableError);
    expect(removed).toEqual([]);
  });

  it("keeps the grant while HA answers 403 (a ban of this address, or a user it refuses for now), and works again after", async () => {
    const { guard, ha, removed, advance } = setup(1_000);
    await guard.principalFor("hao_at_good");
    ha.state.banned = true;
    advance(2_000);
    await expect(guard.principalFor("hao_at_good")).rejects.toBeInstanceOf(HaUnreachableError);
    // Past the access token's life too, so the refresh itself meets the ban.
    advance(1800_000);
    await expect(guard.principalFor("hao_at_good")).rejects.toBeInstanceOf(HaUnreachableError);
    ha.state.banned = false;
    ha.state.userInactive = true;
    await expect(guard.principalFor("hao_at_good")).rejects.toBeInstanceOf(HaUnreachableError);
    expect(removed).toEqual([]);
    ha.state.userInactive = false;
    expect(await guard.principalFor("hao_at_good")).toMatchObject({ id: "u1" });
  });

  it("never names HA's internal address in what it tells a caller, only in the detail for the log", async () => {
    const { guard, ha } = setup();
    ha.state.down = true;
    const err = (await guard.principalFor("hao_at_good").catch((e: unknown) => e)) as HaUnreachableError;
    expect(err.message).not.toContain("ha:8123");
    expect(err.detail).toContain("http://ha:8123");
  });

  it("refreshes HA's access token before it lapses", async () => {
    const { guard, ha, advance } = setup(1_000);
    await guard.principalFor("hao_at_good");
    advance(1800_000 - 30_000);
    await guard.principalFor("hao_at_good");
    expect(ha.state.refreshes).toBe(2);
  });

  it("asks HA nothing on a new grant's first requests when it was handed the access token of the sign-in", async () => {
    const { guard, ha, advance } = setup();
    guard.seed("g1", { token: "ha-access-from-sign-in", expiresAt: 1_000_000 + 1_800_000 });
    expect(await guard.principalFor("hao_at_good")).toMatchObject({ id: "u1" });
    advance(10_000);
    await guard.principalFor("hao_at_good");
    expect(ha.state.refreshes + ha.state.checks).toBe(0);
    // Past the recheck interval it asks HA again, with the token it was handed: no refresh needed.
    advance(25_000);
    await guard.principalFor("hao_at_good");
    expect([ha.state.refreshes, ha.state.checks]).toEqual([0, 1]);
  });

  it("knows no token it did not issue", async () => {
    const { guard, ha } = setup();
    expect(await guard.principalFor("hao_at_other")).toBeUndefined();
    expect(ha.state.refreshes + ha.state.checks).toBe(0);
  });
});
