import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { manualClock, silentLogger } from "../../../src/shared/index.js";
import { demoHouse, haStyleToken, startSimulator, type Simulator } from "@ha-agent/ha-simulator";
import { TooManyTokenChecksError } from "../../../src/http/auth/errors.js";
import { createTokenVerifier } from "../../../src/http/auth/token-verifier.js";

/** A random token with the shape of HA's, which only HA itself can tell is wrong. */
const randomJwt = () => haStyleToken(randomBytes(16).toString("hex"));

describe("a flood of unknown tokens", () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator({ house: demoHouse(), users: [{ id: "u-owner", name: "Owner", isAdmin: true, tokens: [haStyleToken("owner")] }] });
  });
  afterAll(async () => {
    await sim?.close();
  });

  function setup() {
    const clock = manualClock();
    const asked: string[] = [];
    const fetchSpy: typeof fetch = (input, init) => {
      asked.push(String(input));
      return fetch(input, init);
    };
    const verifier = createTokenVerifier({ coreApiUrl: sim.apiUrl, clock, logger: silentLogger, fetch: fetchSpy });
    const flood = async (n: number, from: (i: number) => string, token: () => string) => {
      let refused = 0;
      for (let i = 0; i < n; i++) {
        try {
          expect(await verifier.verify(token(), from(i))).toBeUndefined();
        } catch (err) {
          expect(err).toBeInstanceOf(TooManyTokenChecksError);
          refused++;
        }
      }
      return refused;
    };
    return { clock, asked, verifier, flood };
  }

  it("never asks HA about strings that cannot be HA tokens", async () => {
    const { asked, flood } = setup();
    await flood(2_000, () => "10.0.0.1", () => randomBytes(20).toString("base64"));
    await flood(100, () => "10.0.0.1", () => "x".repeat(5_000));
    expect(asked).toEqual([]);
  });

  it("reaches HA at most 10 times for 2,000 well-formed random tokens from one address", async () => {
    const { asked, flood } = setup();
    const refused = await flood(2_000, () => "203.0.113.7", randomJwt);
    expect(asked.length).toBeLessThanOrEqual(10);
    expect(refused).toBe(2_000 - asked.length);
  });

  it("reaches HA at most 30 times for 2,000 such tokens spread over 500 addresses", async () => {
    const { asked, flood } = setup();
    await flood(2_000, (i) => `198.51.100.${i % 250}:${i % 2}`, randomJwt);
    expect(asked.length).toBeLessThanOrEqual(30);
  });

  it("keeps a known user working during and after a flood, even once their cached answer expired", async () => {
    const { clock, verifier, flood } = setup();
    expect(await verifier.verify(haStyleToken("owner"), "192.0.2.10")).toMatchObject({ id: "u-owner" });
    await flood(500, (i) => `198.51.100.${i % 250}`, randomJwt);
    clock.advance(61_000);
    await flood(500, (i) => `198.51.100.${i % 250}`, randomJwt);
    expect(await verifier.verify(haStyleToken("owner"), "192.0.2.10")).toMatchObject({ id: "u-owner" });
  });

  it("gives an address its budget back as time passes", async () => {
    const { clock, asked, flood } = setup();
    await flood(50, () => "203.0.113.9", randomJwt);
    expect(asked.length).toBe(10);
    clock.advance(60_000);
    await flood(50, () => "203.0.113.9", randomJwt);
    expect(asked.length).toBe(20);
  });
});
