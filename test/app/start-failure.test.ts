import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp } from "../../src/app.js";
import { loadConfig } from "../../src/config/index.js";
import { silentLogger, systemClock } from "../../src/shared/index.js";
import { demoHouse, startSimulator, type Simulator } from "@ha-agent/ha-simulator";

const listenOn = (port: number) =>
  new Promise<Server>((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve(server));
  });
const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

describe("a start that fails half way", () => {
  let sim: Simulator;
  let dataDir: string;
  beforeAll(async () => {
    sim = await startSimulator({ house: demoHouse() });
    dataDir = await mkdtemp(join(tmpdir(), "ha-agent-start-failure-"));
  });
  afterAll(async () => {
    await sim?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("says which port is taken and releases what it had already opened", async () => {
    const taken = await listenOn(0);
    const takenPort = (taken.address() as { port: number }).port;
    const probe = await listenOn(0);
    const mcpPort = (probe.address() as { port: number }).port;
    await close(probe);

    const config = await loadConfig({
      env: { HA_URL: sim.url, HA_TOKEN: sim.users.tokenFor(), DATA_DIR: dataDir, MCP_PORT: String(mcpPort), STATUS_PORT: String(takenPort) },
      readFile: async () => undefined,
    });
    const failure = startApp({ config, logger: silentLogger, clock: systemClock, host: "127.0.0.1" });
    await expect(failure).rejects.toThrow(`The status page cannot listen on 127.0.0.1:${takenPort}: the port is already in use`);
    await expect(failure).rejects.toThrow(/set STATUS_PORT to another port/);
    // The MCP listener that did start was closed again: its port is free.
    await close(await listenOn(mcpPort));
    await close(taken);
  });

  it("names MCP_PORT when the MCP port is taken, as by a demo still running", async () => {
    const taken = await listenOn(0);
    const takenPort = (taken.address() as { port: number }).port;
    const config = await loadConfig({
      env: { HA_URL: sim.url, HA_TOKEN: sim.users.tokenFor(), DATA_DIR: dataDir, MCP_PORT: String(takenPort), STATUS_PORT: "0" },
      readFile: async () => undefined,
    });
    await expect(startApp({ config, logger: silentLogger, clock: systemClock, host: "127.0.0.1" })).rejects.toThrow(/already in use \(by another HA Agent, such as a demo still running\?\)\. Stop the other program, or set MCP_PORT to another port/);
    await close(taken);
  });
});
