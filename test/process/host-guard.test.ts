import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { demoHouse, simAddon, startSimulator, startSupervisor, type Simulator, type SupervisorSimulator } from "@ha-agent/ha-simulator";
import { runProgram, type Program } from "../support/program.js";
import { rawRequest, type RawAnswer } from "../support/raw-http.js";

/** Every kind of route each listener serves: MCP, events, sign-in pages and metadata, health; the console's page, API, assets and stream. */
const MCP_ROUTES = [
  { method: "POST", path: "/mcp", body: "{}" },
  { method: "GET", path: "/events/01JABCDEFGHJKMNPQRSTVWXYZ0" },
  { method: "GET", path: "/oauth/authorize?client_id=x" },
  { method: "GET", path: "/oauth/callback?state=x&code=y" },
  { method: "GET", path: "/.well-known/oauth-protected-resource/mcp" },
  { method: "GET", path: "/.well-known/oauth-authorization-server" },
  { method: "GET", path: "/healthz" },
];
const STATUS_ROUTES = [
  { method: "GET", path: "/" },
  { method: "GET", path: "/api/console" },
  { method: "GET", path: "/api/health" },
  { method: "GET", path: "/assets/app.js" },
  { method: "GET", path: "/api/stream" },
];

type Route = { method: string; path: string; body?: string };

/** Whether the Host and Origin check refused the request (a route's own 400 for a bad query is no refusal). */
function guardRefused(answer: RawAnswer): boolean {
  try {
    return ["bad_host", "unknown_host", "origin_not_allowed"].includes((JSON.parse(answer.body) as { error?: string }).error ?? "");
  } catch {
    return false;
  }
}
const call = (port: number, route: Route, host: string, headers: Record<string, string> = {}) =>
  rawRequest({ port, path: route.path, method: route.method, host, headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers }, ...(route.body ? { body: route.body } : {}) });

/** The checks every listener passes in every mode; `own` are names this mode must answer to. */
async function expectGuarded(o: { port: number; routes: Route[]; own: string[]; setting: RegExp }) {
  for (const route of o.routes) {
    const what = `${route.method} ${route.path}`;
    const rebound = await call(o.port, route, `rebind.attacker.example:${o.port}`);
    expect(rebound.status, what).toBe(421);
    expect(JSON.parse(rebound.body), what).toMatchObject({ error: "unknown_host", message: expect.stringMatching(o.setting) });
    const foreignPage = await call(o.port, route, `localhost:${o.port}`, { origin: "http://rebind.attacker.example" });
    expect(foreignPage.status, what).toBe(403);
    expect(JSON.parse(foreignPage.body).error, what).toBe("origin_not_allowed");
    const malformed = await call(o.port, route, "127.0.0.1:99999");
    expect(malformed.status, what).toBe(400);
    expect(malformed.body, what).not.toContain("99999");
    for (const host of ["localhost", "127.0.0.1", "[::1]", ...o.own]) {
      const served = await call(o.port, route, `${host}:${o.port}`);
      expect(guardRefused(served), `${what} as ${host}: ${served.status} ${served.body.slice(0, 200)}`).toBe(false);
      expect(served.status, `${what} as ${host}`).not.toBe(500);
    }
    // A page on an own name may call, as the console does from its own origin, on any loopback name for another.
    expect(guardRefused(await call(o.port, route, `localhost:${o.port}`, { origin: `http://localhost:${o.port}` })), what).toBe(false);
    expect(guardRefused(await call(o.port, route, `127.0.0.1:${o.port}`, { origin: `http://[::1]:${o.port}` })), what).toBe(false);
    // Another port is another site: another add-on's page on the same host, or Home Assistant's.
    for (const origin of [`http://127.0.0.1:1`, `http://localhost:8123`, `https://127.0.0.1:${o.port}`]) {
      const otherPort = await call(o.port, route, `127.0.0.1:${o.port}`, { origin });
      expect([otherPort.status, JSON.parse(otherPort.body).error], `${what} from ${origin}`).toEqual([403, "origin_not_allowed"]);
    }
  }
}

/** The refusals above never show as a 500 or an ERROR line. */
function expectNoErrors(program: Program) {
  expect(program.stdout()).not.toMatch(/^\S+ \S+ ERROR/m);
}

const running: Program[] = [];
afterEach(async () => {
  for (const p of running.splice(0)) {
    if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill("SIGKILL");
    await p.exited;
  }
});

describe("DNS rebinding and other sites' pages, refused on every route of both listeners", () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "ha-agent-host-guard-"));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it("in demo mode: a rebound page cannot read the console and its demo token, or use /mcp", async () => {
    const program = runProgram({ DATA_DIR: join(dataDir, "demo"), MCP_PORT: "0", STATUS_PORT: "0" });
    running.push(program);
    const [, mcpPort] = (await program.waitFor(/^MCP endpoint: http:\/\/127\.0\.0\.1:(\d+)\/mcp$/m)) as RegExpMatchArray;
    const [, token] = (await program.waitFor(/^Token: +(\S+)$/m)) as RegExpMatchArray;
    const [, statusPort] = (await program.waitFor(/^Status page: +http:\/\/127\.0\.0\.1:(\d+)\/$/m)) as RegExpMatchArray;
    await program.waitFor(/HA Agent is ready/, 30_000);
    const rebound = await rawRequest({ port: Number(statusPort), path: "/api/console", host: `rebind.attacker.example:${statusPort}` });
    expect(rebound.status).toBe(421);
    expect(rebound.body).not.toContain(token!);
    expect(JSON.parse(rebound.body).message).toMatch(/add it to ALLOWED_HOSTS/);
    // By its own name, the console is what it was.
    expect((await rawRequest({ port: Number(statusPort), path: "/api/console", host: `localhost:${statusPort}` })).body).toContain(token!);
    await expectGuarded({ port: Number(mcpPort), routes: MCP_ROUTES, own: [hostname()], setting: /ALLOWED_HOSTS/ });
    await expectGuarded({ port: Number(statusPort), routes: STATUS_ROUTES, own: [hostname()], setting: /ALLOWED_HOSTS/ });
    expectNoErrors(program);
  });

  it("in standalone mode: the machine's names, public_url's host and ALLOWED_HOSTS pass; MCP_BIND moves the MCP listener", async () => {
    const sim = await startSimulator({ house: demoHouse() });
    try {
      const program = runProgram({
        HA_URL: sim.url,
        HA_TOKEN: sim.users.tokenFor(),
        DATA_DIR: join(dataDir, "standalone"),
        MCP_PORT: "0",
        STATUS_PORT: "0",
        MCP_BIND: "::1",
        ALLOWED_HOSTS: "agent.lan, Console.Home.Arpa",
        PUBLIC_URL: "https://agent.example.com",
      });
      running.push(program);
      const [, mcpPort] = (await program.waitFor(/^MCP endpoint: http:\/\/\[::1\]:(\d+)\/mcp$/m)) as RegExpMatchArray;
      const [, statusPort] = (await program.waitFor(/^Status page: +http:\/\/127\.0\.0\.1:(\d+)\/$/m)) as RegExpMatchArray;
      await program.waitFor(/HA Agent is ready/, 30_000);
      // Bound to IPv6 loopback only: nothing answers on 127.0.0.1.
      await expect(rawRequest({ port: Number(mcpPort), path: "/healthz", host: "localhost" })).rejects.toThrow(/ECONNREFUSED/);
      const own = [hostname(), "agent.lan", "console.home.arpa", "agent.example.com"];
      const mcp = (route: Route, host: string, headers: Record<string, string> = {}) =>
        rawRequest({ address: "::1", port: Number(mcpPort), path: route.path, method: route.method, host, headers: { "content-type": "application/json", ...headers }, ...(route.body ? { body: route.body } : {}) });
      for (const route of MCP_ROUTES) {
        expect((await mcp(route, `rebind.attacker.example:${mcpPort}`)).status, route.path).toBe(421);
        expect((await mcp(route, `agent.example.com`, { origin: "https://evil.example" })).status, route.path).toBe(403);
        for (const host of own) expect(guardRefused(await mcp(route, host)), `${route.path} as ${host}`).toBe(false);
      }
      await expectGuarded({ port: Number(statusPort), routes: STATUS_ROUTES, own, setting: /ALLOWED_HOSTS/ });
      expectNoErrors(program);
    } finally {
      await sim.close();
    }
  });

  describe("in add-on mode, under a simulated Supervisor", () => {
    let ha: Simulator;
    let supervisor: SupervisorSimulator;
    beforeAll(async () => {
      ha = await startSimulator({ house: demoHouse() });
      supervisor = await startSupervisor({ ha, addons: [simAddon({ slug: "local_ha_agent", name: "HA Agent", hostname: "127.0.0.1", discovery: ["mcp"] })] });
    });
    afterAll(async () => {
      await supervisor.close();
      await ha.close();
    });

    it("answers to homeassistant, homeassistant.local and the allowed_hosts option, and refuses rebound names and other sites' pages", async () => {
      const addonData = join(dataDir, "addon");
      await rm(addonData, { recursive: true, force: true });
      await import("node:fs/promises").then((fs) => fs.mkdir(addonData, { recursive: true }));
      await writeFile(join(addonData, "options.json"), JSON.stringify({ core_url: ha.url, allowed_hosts: ["agent.lan"], announce_to_home_assistant: false }));
      const program = runProgram({ SUPERVISOR_URL: supervisor.url, SUPERVISOR_TOKEN: supervisor.addon.token, DATA_DIR: addonData, MCP_PORT: "0", STATUS_PORT: "0" });
      running.push(program);
      const [, mcpPort] = (await program.waitFor(/http:\/\/127\.0\.0\.1:(\d+)\/mcp/, 30_000)) as RegExpMatchArray;
      await program.waitFor(/HA Agent is ready/, 30_000);
      await expectGuarded({ port: Number(mcpPort), routes: MCP_ROUTES, own: ["homeassistant", "homeassistant.local", "agent.lan", hostname()], setting: /add it to the allowed_hosts option/ });
      expectNoErrors(program);
    });
  });
});
