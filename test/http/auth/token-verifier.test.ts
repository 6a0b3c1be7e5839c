import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { manualClock, silentLogger } from "../../../src/shared/index.js";
import { demoHouse, startSimulator, type Simulator, haStyleToken } from "@ha-agent/ha-simulator";
import { AuthUnavailableError } from "../../../src/http/auth/errors.js";
import { createTokenVerifier } from "../../../src/http/auth/token-verifier.js";

/** Supervisor and add-on tokens are hex strings. */
const ADDON_TOKEN = "ab".repeat(56);

describe("token verifier", () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator({ house: demoHouse(), users: [{ id: "u-owner", name: "Owner", isAdmin: true, tokens: [haStyleToken("owner")] }, { id: "u-guest", name: "Guest", isAdmin: false, tokens: [haStyleToken("guest")] }] });
  });
  afterAll(async () => {
    await sim?.close();
  });

  /** Counts the REST checks the verifier makes. */
  function countingFetch() {
    const calls: string[] = [];
    const wrapped: typeof fetch = (input, init) => {
      calls.push(String(input));
      return fetch(input, init);
    };
    return { calls, fetch: wrapped };
  }

  it("maps an accepted token to its Home Assistant user", async () => {
    const verifier = createTokenVerifier({ coreApiUrl: sim.apiUrl, clock: manualClock(), logger: silentLogger });
    expect(await verifier.verify(haStyleToken("guest"))).toEqual({ id: "u-guest", name: "Guest", kind: "user", isAdmin: false });
    expect(await verifier.verify(haStyleToken("owner"))).toMatchObject({ id: "u-owner", isAdmin: true });
  });

  it("rejects a token HA does not accept", async () => {
    const verifier = createTokenVerifier({ coreApiUrl: sim.apiUrl, clock: manualClock(), logger: silentLogger });
    expect(await verifier.verify("nobody")).toBeUndefined();
  });

  it("asks HA once per token while the answer is fresh, and again after it expires", async () => {
    const clock = manualClock();
    const { calls, fetch } = countingFetch();
    const verifier = createTokenVerifier({ coreApiUrl: sim.apiUrl, clock, logger: silentLogger, fetch, acceptedTtlMs: 1_000 });
    await Promise.all([verifier.verify(haStyleToken("owner")), verifier.verify(haStyleToken("owner")), verifier.verify(haStyleToken("owner"))]);
    await verifier.verify(haStyleToken("owner"));
    expect(calls).toHaveLength(1);
    clock.advance(1_001);
    await verifier.verify(haStyleToken("owner"));
    expect(calls).toHaveLength(2);
  });

  it("notices a revoked token once the cached answer expires", async () => {
    sim.users.add({ id: "u-temp", name: "Temp", isAdmin: false, tokens: [haStyleToken("temp")] });
    const clock = manualClock();
    const verifier = createTokenVerifier({ coreApiUrl: sim.apiUrl, clock, logger: silentLogger, acceptedTtlMs: 1_000 });
    expect(await verifier.verify(haStyleToken("temp"))).toBeDefined();
    sim.users.revokeToken(haStyleToken("temp"));
    expect(await verifier.verify(haStyleToken("temp"))).toBeDefined();
    clock.advance(1_001);
    expect(await verifier.verify(haStyleToken("temp"))).toBeUndefined();
  });

  it("says HA is unavailable, rather than rejecting, when HA cannot be reached", async () => {
    const verifier = createTokenVerifier({ coreApiUrl: "http://127.0.0.1:9/api", clock: manualClock(), logger: silentLogger, timeoutMs: 500 });
    await expect(verifier.verify(haStyleToken("owner"))).rejects.toBeInstanceOf(AuthUnavailableError);
  });

  it("accepts another add-on's Supervisor token as an add-on principal", async () => {
    const supervisor: typeof fetch = async (input, init) => {
      const url = String(input);
      const auth = new Headers(init?.headers).get("authorization");
      if (url === "http://supervisor/core/api/") return new Response("{}", { status: auth === `Bearer ${ADDON_TOKEN}` ? 200 : 401 });
      if (url === "http://supervisor/addons/self/info") return Response.json({ result: "ok", data: { slug: "local_voice" } });
      return fetch(input, init);
    };
    const verifier = createTokenVerifier({ coreApiUrl: sim.apiUrl, supervisorApiUrl: "http://supervisor/core/api", supervisorUrl: "http://supervisor", clock: manualClock(), logger: silentLogger, fetch: supervisor });
    expect(await verifier.verify(ADDON_TOKEN)).toEqual({ id: "addon:local_voice", name: "local_voice", kind: "addon", isAdmin: false });
    expect(await verifier.verify(haStyleToken("owner"))).toMatchObject({ id: "u-owner", kind: "user" });
    expect(await verifier.verify("neither")).toBeUndefined();
  });
});
