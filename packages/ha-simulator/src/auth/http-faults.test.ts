import { afterEach, describe, expect, it } from "vitest";
import { demoHouse } from "../demo/index.js";
import { startSimulator, type Simulator } from "../index.js";

let sim: Simulator;
afterEach(async () => {
  await sim.close();
});

const tokenRequest = () => fetch(`${sim.url}/auth/token`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "grant_type=refresh_token&refresh_token=x&client_id=http://a/" });

describe("HA's HTTP faults that sign-ins meet", () => {
  it("a ban answers every path with aiohttp's bare 403, until it is lifted", async () => {
    sim = await startSimulator({ house: demoHouse() });
    sim.auth.ban(true);
    for (const res of [await fetch(`${sim.url}/api/`, { headers: { authorization: `Bearer ${sim.users.tokenFor()}` } }), await tokenRequest(), await fetch(`${sim.url}/auth/authorize?client_id=x`)]) {
      expect(res.status).toBe(403);
      expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
      expect(await res.text()).toBe("403: Forbidden");
    }
    sim.auth.ban(false);
    expect((await fetch(`${sim.url}/api/`, { headers: { authorization: `Bearer ${sim.users.tokenFor()}` } })).status).toBe(200);
  });

  it("the token endpoint answers 500, or closes without an answer, and serves again after", async () => {
    sim = await startSimulator({ house: demoHouse() });
    sim.auth.failTokenEndpoint("error");
    const failed = await tokenRequest();
    expect(failed.status).toBe(500);
    expect(await failed.text()).toMatch(/^500 Internal Server Error/);
    sim.auth.failTokenEndpoint("close");
    await expect(tokenRequest()).rejects.toThrow();
    sim.auth.failTokenEndpoint(undefined);
    expect((await tokenRequest()).status).toBe(400);
  });
});
