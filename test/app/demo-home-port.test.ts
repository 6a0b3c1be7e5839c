import * as simulatorPackage from "@ha-agent/ha-simulator";
import { afterEach, describe, expect, it } from "vitest";
import { DemoUnavailableError, loadSimulator, startDemoHome, type SimulatorPort } from "../../src/demo-home.js";
import { silentLogger, systemClock } from "../../src/shared/index.js";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

// Compile-time: the package offers what demo mode declares it needs.
const port: SimulatorPort = simulatorPackage;

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((c) => c()));
});

describe("demo mode's run-time load of @ha-agent/ha-simulator", () => {
  it("starts the demo house from the package found by name, with a token that stays the same across starts", async () => {
    // What the load finds by name is the package itself.
    expect((await loadSimulator()).startSimulator).toBe(port.startSimulator);
    const dataDir = await mkdtemp(join(tmpdir(), "demo-home-"));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const start = async () => {
      const demo = await startDemoHome({ dataDir, token: undefined, logger: silentLogger, clock: systemClock });
      cleanups.push(() => demo.simulator.close());
      return demo;
    };
    const first = await start();
    const res = await fetch(`${first.ha.apiUrl}/states/light.kitchen_ceiling`, { headers: { authorization: `Bearer ${first.ha.token}` } });
    expect(res.status).toBe(200);
    expect(first.login).toEqual({ username: "alex", password: "linden-house" });
    expect(first.user.name).toBeTruthy();
    const second = await start();
    expect(second.ha.token).toBe(first.ha.token);
  });

  it("says what to do when the package is absent, as in the add-on image", async () => {
    const failure = await loadSimulator("@ha-agent/no-such-simulator").catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(DemoUnavailableError);
    expect((failure as Error).message).toMatch(/add-on image does not hold it\. Set HA_URL and HA_TOKEN.*npm ci && npm start/);
  });
});
