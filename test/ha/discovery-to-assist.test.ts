import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeOpenAiServer, type FakeOpenAiServer } from "@ha-agent/model-fakes";
import { demoHouse, simAddon, startSimulator, startSupervisor, type Simulator, type SupervisorSimulator } from "@ha-agent/ha-simulator";
import { signInAsPerson } from "../support/oauth-browser.js";
import { callTool, refreshTools } from "../support/ha-core/coordinator.js";
import { McpConfigFlow } from "../support/ha-core/config-flow.js";
import { HA_MCP_PROTOCOL_VERSION, TIMEOUT_MS } from "../support/ha-core/mcp-session.js";
import { networkFetch, type Network } from "../support/ha-core/network.js";
import { AUTH_CALLBACK_PATH, MY_AUTH_CALLBACK_PATH } from "../support/ha-core/oauth2-flow.js";
import { PersonBrowser } from "../support/ha-core/person-browser.js";
import { runProgram, type Program } from "../support/program.js";

/**
 * Home Assistant Core finds the add-on by Supervisor discovery and adds it to
 * its `mcp` integration, the person signs in through their browser, and Assist
 * calls tools with the token HA got; each step replays HA's own code (see
 * test/support/ha-core/). Two networks: HA Core's (Docker's, where the
 * add-on's host name resolves) and the person's browser's (where it does not).
 */

/** The add-on's host name on HA's Docker network, as the Supervisor names it from the slug. */
const ADDON_HOST = "local-ha-agent";
const SLUG = "local_ha_agent";

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function eventually<T>(read: () => T | undefined, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

interface HomeSetup {
  name: string;
  /** HA's `internal_url` (get_config), or null as on a fresh install. */
  internalUrl(haPort: number): string | null;
  /** The names the person's browser resolves besides IP literals. */
  browserNames: Record<string, string>;
  /** The origin the person's browser opens Home Assistant at (the frontend's `HA-Frontend-Base`). */
  frontendBase(haPort: number): string;
}

const homes: HomeSetup[] = [
  { name: "a default install (internal_url null; the browser reaches HA and the add-on by IP)", internalUrl: () => null, browserNames: {}, frontendBase: (port) => `http://127.0.0.1:${port}` },
  {
    name: "a home whose internal_url names HA (homeassistant.test), the one name the browser resolves",
    internalUrl: (port) => `http://homeassistant.test:${port}`,
    browserNames: { "homeassistant.test": "127.0.0.1" },
    frontendBase: (port) => `http://homeassistant.test:${port}`,
  },
];

const redirects = [
  { name: "my.home-assistant.io (the `my` integration loaded, as default_config does)", components: ["my"], expected: () => MY_AUTH_CALLBACK_PATH },
  { name: "HA's own /auth/external/callback (no `my` integration)", components: [] as string[], expected: (frontendBase: string) => `${frontendBase}${AUTH_CALLBACK_PATH}` },
];

describe.each(homes)("Home Assistant adds the discovered add-on and Assist uses it: $name", (home) => {
  let ha: Simulator;
  let supervisor: SupervisorSimulator;
  let model: FakeOpenAiServer;
  let program: Program;
  let dataDir: string;
  let haPort: number;
  let mcpPort: number;
  let haCore: Network;
  let browserNet: Network;

  beforeAll(async () => {
    // HA's port is chosen first: internal_url names it, and a home sets it before HA starts.
    haPort = await freePort();
    const house = demoHouse();
    house.config.internal_url = home.internalUrl(haPort);
    ha = await startSimulator({ house, port: haPort });
    mcpPort = await freePort();
    // The Supervisor maps the MCP port to the same host port; /network/info reports the host at 127.0.0.1.
    const addon = simAddon({ slug: SLUG, name: "HA Agent", hostname: ADDON_HOST, discovery: ["mcp"], network: { [`${mcpPort}/tcp`]: mcpPort } });
    supervisor = await startSupervisor({ ha, addons: [addon], hostAddress: "127.0.0.1" });
    model = await startFakeOpenAiServer({ flavour: "ollama", models: ["qwen3:8b"] });
    dataDir = await mkdtemp(join(tmpdir(), "ha-agent-replay-"));
    await writeFile(join(dataDir, "options.json"), JSON.stringify({ core_url: ha.url, model_provider: "openai", openai_base_url: model.baseUrl }));
    program = runProgram({ SUPERVISOR_URL: supervisor.url, SUPERVISOR_TOKEN: supervisor.addon.token, DATA_DIR: dataDir, MCP_PORT: String(mcpPort), STATUS_PORT: "0" });
    await program.waitFor(/HA Agent is ready/, 30_000);
    await eventually(() => (supervisor.discovery.list().length ? true : undefined), "the add-on's mcp discovery");
    // HA Core's container resolves the add-on's host name (Docker's DNS) and `homeassistant`; here both are this machine.
    haCore = { who: "HA Core", names: { [ADDON_HOST]: "127.0.0.1", homeassistant: "127.0.0.1" } };
    browserNet = { who: "the person's browser", names: home.browserNames };
  }, 60_000);

  afterAll(async () => {
    if (program && program.child.exitCode === null) {
      program.child.kill("SIGTERM");
      await program.exited;
    }
    await supervisor?.close();
    await model?.close();
    await ha?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it.each(redirects)("discovery → confirm → 401 → metadata → registration → browser sign-in → token → tools → calls, redirect URI $name", async (redirect) => {
    const fetchOnHaNetwork = networkFetch(haCore);
    const frontendBase = home.frontendBase(haPort);
    const flow = new McpConfigFlow({ fetch: fetchOnHaNetwork, hass: { components: new Set(redirect.components), frontendBase } });

    // 1. Discovery: the Supervisor holds the add-on's mcp entry; async_step_hassio reads config.url and asks to confirm.
    const [entry] = supervisor.discovery.list().filter((e) => e.addon === SLUG && e.service === "mcp");
    expect(entry, "the Supervisor holds the add-on's mcp discovery").toBeDefined();
    const form = flow.hassio({ config: entry!.config, name: "HA Agent", slug: entry!.addon, uuid: entry!.uuid });
    expect(form).toEqual({ stepId: "hassio_confirm", addon: "HA Agent" });
    const mcpUrl = flow.data!.url;
    expect(new URL(mcpUrl).host, "the discovery URL names the add-on's internal host name").toBe(`${ADDON_HOST}:${mcpPort}`);

    // 2. The person confirms; validate_input connects without a token and gets a 401 whose challenge HA parses.
    const header = await flow.confirm();
    expect(header, "the 401 carries resource_metadata as AuthenticateHeader.from_header reads it").not.toBeNull();
    expect(new URL(header!.resourceMetadataUrl).host).toBe(`${ADDON_HOST}:${mcpPort}`);

    // 3. async_step_auth_discovery: the header's document, whose resource is exactly the MCP URL; then the server's metadata.
    const { resource, oauth, scope } = await flow.authDiscovery();
    expect(resource?.from, "the header's URL answered first, with resource equal to the MCP URL").toBe(header!.resourceMetadataUrl);
    expect(oauth.registrationEndpoint).toBeTruthy();
    expect(scope).toEqual(header!.scopes ?? resource!.supportedScopes);
    expect(new URL(oauth.tokenUrl).host, "HA Core posts to the token endpoint on its own network").toBe(`${ADDON_HOST}:${mcpPort}`);

    // 4. Dynamic registration with HA's redirect URI; the response must echo it and grant the scope.
    const registration = await flow.registerClient();
    const redirectUri = redirect.expected(frontendBase);
    expect(registration.request).toMatchObject({ redirect_uris: [redirectUri], grant_types: ["authorization_code", "refresh_token"], client_name: "Home Assistant", application_type: "web" });
    expect(registration.response.redirect_uris).toContain(redirectUri);
    if (typeof registration.response.scope === "string") expect(registration.response.scope.split(" ")).toEqual(expect.arrayContaining(scope ?? []));
    expect(registration.client.method).toBe("none");

    // 5. async_step_auth: the authorize URL as HA builds it.
    const step = flow.auth();
    const authorize = new URL(step.url);
    expect([...authorize.searchParams.keys()]).toEqual(["response_type", "client_id", "redirect_uri", "state", "code_challenge", "code_challenge_method", "access_type", "prompt", "scope"]);
    expect(Object.fromEntries(authorize.searchParams)).toMatchObject({ response_type: "code", client_id: registration.client.clientId, redirect_uri: redirectUri, state: step.state, code_challenge_method: "S256", access_type: "offline", prompt: "consent", scope: (scope ?? []).join(" ") });

    // 6. The person's browser opens it: consent (Allow), HA's login, the add-on's callback, and HA's redirect URI with code and state.
    const browser = new PersonBrowser(browserNet);
    const steps = await signInAsPerson(step.url, { browser }).catch((error: Error) => {
      throw new Error(
        `Step 6, the person's browser signing in: ${error.message}${error.cause instanceof Error ? ` (${error.cause.message})` : ""}\n` +
          `The authorization_endpoint the add-on advertised to HA Core is ${oauth.authorizeUrl}; HA sends the browser there, ` +
          `and the browser resolves ${Object.keys(browserNet.names).length ? `only ${Object.keys(browserNet.names).join(", ")} and IP literals` : "IP literals only"}, not the add-on's internal host name.\n` +
          `Pages opened: ${browser.visited.join(" → ")}`,
      );
    });
    const back = steps.back;
    expect(`${back.origin}${back.pathname}`, "the sign-in ends at HA's redirect URI").toBe(redirectUri);
    expect(back.searchParams.get("state"), "the state comes back as HA signed it").toBe(step.state);
    expect(back.searchParams.get("code")).toBeTruthy();

    // 7. HA Core exchanges the code as its oauth2 helper posts it, then validate_input with the token creates the entry.
    const { exchange, entry: created, wire: created_wire } = await flow.finish(back);
    expect(exchange.form.map(([key]) => key)).toEqual(["grant_type", "code", "redirect_uri", "code_verifier", "client_id"]);
    expect(exchange.headers.authorization).toBeUndefined();
    expect(created.title).toBeTruthy();
    expect(created_wire.initialize?.protocolVersion).toBe(HA_MCP_PROTOCOL_VERSION);

    // 8. The coordinator: a fresh session for tools/list, first page only, every schema through HA's converter, within 10 s.
    const token = String(created.token.access_token);
    for (const converter of ["probatio", "voluptuous-openapi-0.4"] as const) {
      const list = await refreshTools({ fetch: fetchOnHaNetwork, url: created.url, token, converter });
      expect(list.ms).toBeLessThan(TIMEOUT_MS);
      const methods = list.wire.requests.map((r) => (r.body as { method?: string } | undefined)?.method).filter(Boolean);
      expect(methods, "one session: initialize, initialized, one tools/list").toEqual(["initialize", "notifications/initialized", "tools/list"]);
      const listRequest = list.wire.requests.find((r) => (r.body as { method?: string } | undefined)?.method === "tools/list")!;
      expect((listRequest.body as { params?: { cursor?: string } }).params?.cursor, "HA never asks for a second page").toBeUndefined();
      expect(listRequest.headers["mcp-protocol-version"]).toBe(HA_MCP_PROTOCOL_VERSION);
      expect(list.tools.length).toBeGreaterThan(0);
    }
    const { tools } = await refreshTools({ fetch: fetchOnHaNetwork, url: created.url, token, converter: "probatio" });
    const offered = new Set(tools.map((t) => t.name));

    // Assist calls tools as the model asks, with string arguments the converted schemas pass unchanged.
    const calls = [
      { name: "ha_agent_state_query", args: { area: "kitchen" } },
      { name: "ha_agent_index_search", args: { query: "kitchen light" } },
      { name: "ha_agent_ask", args: { message: "Is the kitchen light on?" } },
    ];
    for (const call of calls) {
      expect(offered.has(call.name), `${call.name} is on the first page of tools HA got (${[...offered].join(", ")})`).toBe(true);
      const { result, ms, wire } = await callTool({ fetch: fetchOnHaNetwork, url: created.url, token, ...call });
      expect(ms, `${call.name} answered within HA's 10 s`).toBeLessThan(TIMEOUT_MS);
      expect(wire.requests[0]!.body).toMatchObject({ method: "initialize", params: { protocolVersion: HA_MCP_PROTOCOL_VERSION } });
      expect(result.isError ?? false, `${call.name}: ${JSON.stringify(result.content).slice(0, 300)}`).toBe(false);
      expect(result.content.length).toBeGreaterThan(0);
    }
  }, 60_000);
});
