import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultAdmin, demoHouse, simAddon, startSimulator, startSupervisor, type Simulator, type SupervisorSimulator } from "@ha-agent/ha-simulator";
import { runProgram, type Program } from "../support/program.js";

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });

/** Add-on mode tried on one machine, as `npm run sim -- --supervisor` prints it: the simulated Supervisor's ingress plays the sidebar. */
describe("add-on mode tried against the simulated Supervisor", () => {
  let ha: Simulator;
  let supervisor: SupervisorSimulator;
  let dataDir: string;
  let program: Program;
  let statusPort: number;

  beforeAll(async () => {
    ha = await startSimulator({ house: demoHouse() });
    statusPort = await freePort();
    const admin = defaultAdmin();
    supervisor = await startSupervisor({
      ha,
      addons: [simAddon({ slug: "local_ha_agent", name: "HA Agent", hostname: "127.0.0.1", discovery: ["mcp"], ingressPort: statusPort })],
      ingressUser: { id: admin.id, username: "alex", name: admin.name },
    });
    dataDir = await mkdtemp(join(tmpdir(), "ha-agent-trial-"));
    await writeFile(join(dataDir, "options.json"), JSON.stringify({ core_url: ha.url }));
    program = runProgram({ SUPERVISOR_URL: supervisor.url, SUPERVISOR_TOKEN: supervisor.addon.token, DATA_DIR: dataDir, MCP_PORT: "0", STATUS_PORT: String(statusPort) });
    await program.waitFor(/HA Agent is ready/, 30_000);
  }, 40_000);
  afterAll(async () => {
    program.child.kill("SIGTERM");
    await program.exited;
    await supervisor.close();
    await ha.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("answers a direct visit with a 403 that says where the page is and how to open it in this trial", async () => {
    const res = await fetch(`http://127.0.0.1:${statusPort}/`);
    expect(res.status).toBe(403);
    const text = await res.text();
    expect(text).toMatch(/open HA Agent in the Home Assistant sidebar/);
    expect(text).toContain("npm run sim -- --supervisor");
    expect(text).toContain(`${supervisor.url}/api/hassio_ingress/`);
  });

  it("serves the console through the simulated Supervisor's ingress, to the person who opened it", async () => {
    const page = await fetch(supervisor.ingressUrl);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(`<base href="${new URL(supervisor.ingressUrl).pathname}">`);
    const overview = (await (await fetch(`${supervisor.ingressUrl}api/console`)).json()) as { viewer: { name: string; via: string } | null; mode: string };
    expect(overview).toMatchObject({ mode: "addon", viewer: { name: "Alex (demo)", via: "ingress" } });
  });

  it("prints this machine's address, the simulated home, and how to get a model, instead of a host placeholder", () => {
    const out = program.stdout();
    expect(out).toMatch(/^MCP endpoint: http:\/\/127\.0\.0\.1:\d+\/mcp$/m);
    expect(out).toContain(`Clients send 'Authorization: Bearer <a token of the Home Assistant at ${ha.url}>'`);
    expect(out).toMatch(/^Status page: +through the simulated Supervisor's ingress/m);
    expect(out).toMatch(/^Model: +not configured; for a stand-in, run npm run fake:gemini/m);
  });
});
