import type { AppConfig } from "./config/index.js";
import { createHaClient, type BackoffOptions, type CreateWebSocket, type HaClient } from "./ha/index.js";
import { statfs } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import {
  createConsole,
  createOwnNames,
  createRequestGuard,
  createStatusChecks,
  createTurnRecords,
  createUserDirectory,
  fixedOwnNames,
  loadAssets,
  namesFromHaConfig,
  startMcpListener,
  startStatusListener,
  createTokenVerifier,
  fetchCurrentUser,
  healthReport,
  withIssuedTokens,
  TOKEN_HINTS,
} from "./http/index.js";
import { startOAuth } from "./oauth/index.js";
import { createHomeIndex, type HomeIndex } from "./indexer/index.js";
import { createMcpEndpoint } from "./mcp/index.js";
import { builtInPersonas, describeProblem, PersonaRegistry, watchPersonaDir } from "./personas/index.js";
import type { Clock, Logger } from "./shared/index.js";
import { MCP_PATHS, describeError, homeLocale, homeTimeZone, loggedClockJumps, systemMonotonic, watchClockJumps } from "./shared/index.js";
import { ingressRefusal, isLocalSupervisor } from "./banner.js";
import { startDemoHome, type DemoSimulator } from "./demo-home.js";
import { loadSecret, openStore, type Store, type StoreFs } from "./store/index.js";
import { announcementStore, createDiscoveryAnnouncer, createHostAddresses, createSupervisorClient } from "./supervisor/index.js";
import { createAgentTasks, createAgentTools, createAssistTools, createCallServiceTool, createLogicTools, createGroundingTools, createSessionTools, createTimeTools, ToolRegistry } from "./tools/index.js";
import { createAgent, readJournal, storeJournal } from "./agent/index.js";
import { builtInModelProviders, checkModel, createModelSource, DEMO_LABEL, modelSettingsFrom, windowProblem, type ModelProviderRegistry, type ModelSource } from "./models/index.js";

export const VERSION = "0.1.0";

/** How long a stop waits for running turns to reach a step boundary; the whole stop stays under the add-on's 10 s. */
const AGENT_DRAIN_MS = 4_000;

/**
 * Tries the configured model once, in the background: a wrong key or model
 * name is one clear log line at start instead of a surprise at the first
 * question. Never fatal: a network outage at boot must not stop the add-on.
 */
async function checkModelAtStart(models: ModelSource, logger: Logger): Promise<void> {
  const described = models.describe();
  if (described.status === "not configured") {
    logger.info(`no model is configured, so the agent tools are off until it is: ${models.missing()}`);
    return;
  }
  const client = await models.get().catch(() => undefined);
  if (!client) return;
  const check = await checkModel(client);
  if (check.ok) logger.info({ provider: client.provider, model: client.model, latencyMs: check.latencyMs }, `model ${client.label} answered`);
  else logger.warn({ provider: client.provider, model: client.model, code: check.code }, `the model check failed: ${check.message}`);
  // After the call, the client knows its server's window (a server that was down at start has answered by now).
  const tooSmall = windowProblem(client.facts);
  if (tooSmall) logger.warn({ provider: client.provider, model: client.model, contextWindow: client.facts.contextWindow }, tooSmall);
}

export interface AppDeps {
  config: AppConfig;
  logger: Logger;
  clock: Clock;
  /** Interface to bind the listeners on unless `mcp_bind` or STATUS_BIND say otherwise; the add-on needs all interfaces. */
  host: string;
  createWebSocket?: CreateWebSocket;
  fetch?: typeof fetch;
  /** The store's file system; tests inject faults through it. */
  storeFs?: StoreFs;
  /** The model providers; the built-in ones by default. */
  modelProviders?: ModelProviderRegistry;
  /** Heartbeat and reconnect timing towards HA; the defaults suit real homes, tests shorten them. */
  haTiming?: { pingIntervalMs?: number; pongTimeoutMs?: number; backoff?: BackoffOptions };
  /** How long an accepted caller token is trusted before HA is asked again (default 60 s). */
  authCacheMs?: number;
  /** How long HA's yes to a sign-in is trusted before HA is asked again (default 30 s). */
  oauthRecheckMs?: number;
  /** Demo mode: the house the simulator serves, in `@ha-agent/ha-simulator`'s House shape (default: its demo house). */
  demoHouse?: object;
  /** The models the agent uses; tests pass scripted ones. Default: from the options. */
  models?: ModelSource;
  /** Called once the MCP endpoint is listening, before anything else is logged. */
  onListening?: (info: { mcpUrl: string; statusUrl: string; demoToken: string | undefined; modelLabel: string; demoLogin: { username: string; password: string } | undefined }) => void;
}

export interface App {
  mcpUrl: string;
  statusUrl: string;
  demoToken: string | undefined;
  ha: HaClient;
  index: HomeIndex;
  store: Store;
  registry: ToolRegistry;
  /** The personas served as prompts and used by sessions. */
  personas: PersonaRegistry;
  /** The model clients, by model name; tests count what is held. */
  models: ModelSource;
  /** Demo mode's simulated Home Assistant. */
  simulator: DemoSimulator | undefined;
  /** Resolves when Home Assistant is connected and the index is searchable. */
  ready: Promise<void>;
  stop(): Promise<void>;
}

/**
 * Builds and starts every part, in the order that lets each one rely on the
 * last, and returns a handle that stops them in reverse.
 */
export async function startApp(deps: AppDeps): Promise<App> {
  const { config, logger, clock } = deps;
  const startedAt = clock.now();
  // Parts stop in the reverse of the order they started in.
  const stops: { part: string; stop: () => Promise<void> }[] = [];
  const onStop = (part: string, stop: () => Promise<void>) => stops.push({ part, stop });
  const stopAll = async () => {
    // splice: a second call (stop after a failed start, say) finds nothing left to stop.
    for (const { part, stop } of stops.splice(0).reverse()) {
      await stop().then(
        () => logger.debug(`${part} stopped`),
        (err: unknown) => logger.warn({ err: describeError(err) }, `${part} did not stop cleanly`),
      );
    }
  };

  try {
    // Opened first: it takes the data directory, where demo mode keeps its token.
    const store = await openStore({
      dataDir: config.dataDir,
      appVersion: VERSION,
      ...(deps.storeFs ? { fs: deps.storeFs } : {}),
      clock,
      monotonic: systemMonotonic,
      logger: logger.child({ part: "store" }),
      sessionIdleMs: config.options.session_idle_days * 86_400_000,
      continuationRetentionMs: config.options.continuation_retention_hours * 3_600_000,
      maxSessionsPerOwner: config.options.max_sessions_per_principal,
      settingNames: {
        dataDir: config.mode === "addon" ? "the add-on's /data folder" : "DATA_DIR",
        maxSessions: config.mode === "addon" ? "the add-on option max_sessions_per_principal" : "MAX_SESSIONS_PER_PRINCIPAL",
      },
    });
    onStop("store", () => store.close());
    let simulator: DemoSimulator | undefined;
    let demoUser: { id: string; name: string } | undefined;
    let demoLogin: { username: string; password: string } | undefined;
    let ha = config.ha;
    let coreApiUrl = config.coreApiUrl;
    if (config.mode === "demo") {
      // Loaded here, not at the top: a standalone or Supervisor process never holds the simulator.
      const demo = await startDemoHome({ dataDir: config.dataDir, token: config.demoToken, house: deps.demoHouse, logger, clock });
      simulator = demo.simulator;
      onStop("simulator", () => demo.simulator.close());
      ({ ha, user: demoUser, login: demoLogin } = demo);
      coreApiUrl = demo.ha.apiUrl;
    }
    if (!ha || !coreApiUrl) throw new Error("No Home Assistant endpoint is configured.");

    const stopSweeper = store.startSweeper();
    onStop("sweeper", async () => stopSweeper());
    // What the data last saw of the clock, for the next start after a reboot with the clock behind.
    const stopClockMark = store.keepClockMark();
    onStop("clock mark", async () => stopClockMark());
    // A jump of the wall clock is logged when it happens, whether or not a deadline is waiting.
    const jumps = loggedClockJumps({ clock, monotonic: systemMonotonic, logger: logger.child({ part: "clock" }) });
    const stopClockWatch = watchClockJumps(jumps);
    onStop("clock watch", async () => stopClockWatch());

    const client = createHaClient({ wsUrl: ha.wsUrl, apiUrl: ha.apiUrl, token: ha.token, logger: logger.child({ part: "ha" }), clock, createWebSocket: deps.createWebSocket, fetch: deps.fetch, retryInitial: config.mode !== "demo", ...deps.haTiming });
    const index = createHomeIndex({ ha: client, logger: logger.child({ part: "index" }), clock, dataDir: config.dataDir });
    onStop("index", () => index.stop());
    // Closed before the index stops, so nothing waits on a slow HA to answer unsubscribe calls.
    onStop("home assistant connection", () => client.close());
    // Every time a person reads (priming, diagnoses, the console) is in the home's own time zone.
    const timeZone = homeTimeZone({ read: () => client.getConfig(), clock });
    const locale = homeLocale({ read: () => client.getConfig(), clock });

    const options = config.options;
    const models =
      deps.models ??
      createModelSource({
        registry: deps.modelProviders ?? builtInModelProviders(),
        settings: modelSettingsFrom(config),
        clock,
        logger: logger.child({ part: "model" }),
        ...(deps.fetch ? { fetch: deps.fetch } : {}),
      });
    onStop("models", () => models.close());
    // An OpenAI-compatible server without a model name is asked for its one model; several or none stop the start.
    await models.init();
    // Built-ins and user files register alike; personas read the home as the agent does.
    const personas = new PersonaRegistry();
    for (const persona of builtInPersonas()) personas.register(persona);
    const personaDir = config.personasDir ? watchPersonaDir({ dir: config.personasDir, registry: personas, logger: logger.child({ part: "personas" }) }) : undefined;
    if (personaDir) onStop("personas folder watch", async () => personaDir.close());
    await personaDir?.ready;
    const ceiling = { allow: options.allow_actuation, allowlist: options.actuation_allowlist, approvalRequired: options.approval_required, defaultApproval: config.sessionApproval };
    const agent = createAgent({
      store,
      index,
      ha: client,
      models,
      clock,
      logger: logger.child({ part: "agent" }),
      ceiling,
      automationEdits: options.allow_automation_edits,
      maxConcurrentModelCalls: options.max_concurrent_model_calls,
      approvalTimeoutMs: options.approval_timeout_s * 1_000,
      jumps,
      personas,
      timeZone,
    });
    // Stopped before the store closes: running turns reach a step boundary and are journaled.
    onStop("agent", () => agent.runtime.drain(AGENT_DRAIN_MS));
    // Turns that waited for a person when the program stopped wait again, with the same deadline.
    await agent.runtime.takeUpWaiting(store.recovery.awaitingApproval);

    const registry = new ToolRegistry(options.tool_name_separator);
    for (const tool of [
      ...createGroundingTools({ index, ha: client, clock, timeZone }),
      ...createTimeTools({ index, ha: client, clock, timeZone }),
      createCallServiceTool({ ha: client, index, ceiling }),
      ...createLogicTools({ index, ha: client, clock, timeZone, automationEdits: options.allow_automation_edits }),
      ...createSessionTools({
        store,
        modelLabel: () => models.describe().label ?? `${models.describe().provider} ${models.describe().model}`,
        configuredModel: () => ({ provider: models.describe().provider, model: models.describe().model }),
        checkModel: (name, caller) => models.check(name, caller),
        traces: (owner, continuationId) => agent.runtime.traces(owner, continuationId),
        checkPersona: (choice) => void personas.check(choice),
        ceiling,
      }),
      ...createAgentTools({ agent: agent.runtime }),
    ])
      registry.register(tool);

    const supervisor = config.supervisor ? createSupervisorClient({ ...config.supervisor, ...(deps.fetch ? { fetch: deps.fetch } : {}) }) : undefined;
    // Add-on mode: Home Assistant is told where the MCP server is once HA is ready (below).
    const discovery = supervisor
      ? createDiscoveryAnnouncer({
          supervisor,
          store: announcementStore(config.dataDir),
          enabled: options.announce_to_home_assistant,
          logger: logger.child({ part: "discovery" }),
          clock,
        })
      : undefined;
    if (discovery) onStop("discovery", () => discovery.stop());
    // Known once the MCP listener listens (MCP_PORT may be 0); until then, the port asked for.
    let mcpListenPort = config.mcpPort;
    // Add-on mode: where a person's browser reaches the add-on, for sign-ins Home Assistant starts from discovery.
    const hostAddresses = supervisor
      ? createHostAddresses({ supervisor, haUrls: () => client.getConfig(), mcpPort: () => mcpListenPort, clock, logger: logger.child({ part: "oauth" }) })
      : undefined;
    const health = () =>
      healthReport(
        createStatusChecks({ ha: client, index, store, model: models, ...(personaDir ? { personas: { problems: () => personaDir.problems().map(describeProblem) } } : {}), ...(discovery ? { discovery } : {}) }),
        startedAt,
        clock.now(),
      );
    // Signs the state of approvals asked by elicitation; kept in /data, so a person can still answer after a restart.
    const requestStateKey = await loadSecret({ dataDir: config.dataDir, name: "request-state" }).then(
      ({ key }) => key,
      (err: unknown) => {
        logger.warn({ err: describeError(err) }, "Could not keep the approval signing key in the data directory; approvals asked before a restart must be asked again");
        return undefined;
      },
    );
    const mcpEndpoint = createMcpEndpoint({
      registry,
      info: { name: "ha-agent", version: VERSION },
      logger: logger.child({ part: "mcp" }),
      // A task is a continuation: it lives as long as the store keeps the turn.
      tasks: { agent: createAgentTasks({ agent: agent.runtime }), ttlMs: config.options.continuation_retention_hours * 3_600_000 },
      ...(requestStateKey ? { requestStateKey } : {}),
      ...(agent.personas ? { prompts: agent.personas } : {}),
    });
    // Ends open MCP streams and running calls, so the stop never waits on a caller.
    onStop("mcp endpoint", () => mcpEndpoint.close());
    // Home Assistant's conversation agents get the few tools Assist needs, always named with "_" (model APIs refuse dots).
    const assistRegistry = new ToolRegistry("_");
    for (const tool of createAssistTools(registry)) assistRegistry.register(tool);
    // HA titles the entry it makes after the server's name.
    const assistEndpoint = createMcpEndpoint({ registry: assistRegistry, info: { name: "HA Agent", version: VERSION }, logger: logger.child({ part: "mcp" }) });
    onStop("assist endpoint", () => assistEndpoint.close());
    const haVerifier = createTokenVerifier({
      coreApiUrl,
      supervisorApiUrl: config.supervisorApiUrl,
      supervisorUrl: config.supervisor?.url,
      clock,
      logger: logger.child({ part: "auth" }),
      fetch: deps.fetch,
      createWebSocket: deps.createWebSocket,
      acceptedTtlMs: deps.authCacheMs,
      checkShape: config.mode !== "demo",
    });
    // Every route of both listeners answers only to HA Agent's own names, HA's, and IP addresses (DNS rebinding).
    const ownNames = createOwnNames({
      fixed: fixedOwnNames({ addon: config.mode === "addon", publicUrl: options.public_url, allowedHosts: options.allowed_hosts }),
      discover: async () => {
        const [ha, self] = await Promise.allSettled([client.getConfig(), supervisor?.selfInfo()]);
        if (ha.status === "rejected") throw ha.reason;
        return [...namesFromHaConfig(ha.value), ...(self.status === "fulfilled" && self.value ? [self.value.hostname] : [])];
      },
      clock,
    });
    const oauth = await startOAuth({
      dataDir: config.dataDir,
      coreUrl: coreApiUrl.replace(/\/api$/, ""),
      // In demo mode the person signs in on the simulated Home Assistant's own login page.
      haLoginUrl: config.haLoginUrl ?? simulator?.url,
      ...(config.mode === "addon" ? { haAddresses: () => client.getConfig() } : {}),
      ...(hostAddresses ? { signInAddresses: hostAddresses, corePort: () => hostAddresses.corePort() } : {}),
      publicUrl: options.public_url,
      homeHosts: () => ownNames.list(),
      cimdAllowLocal: config.oauthCimdAllowLocal,
      // HA issued this token to the add-on a moment ago: ask who it is directly, outside the budget for unknown tokens.
      userOf: async (haAccessToken) => {
        const user = await fetchCurrentUser({ wsUrl: `${coreApiUrl.replace(/^http/, "ws")}/websocket`, token: haAccessToken, timeoutMs: 10_000, createWebSocket: deps.createWebSocket });
        return { id: user.id, name: user.name, kind: "user", isAdmin: user.is_admin };
      },
      clock,
      logger: logger.child({ part: "oauth" }),
      ...(deps.fetch ? { fetch: deps.fetch } : {}),
      ...(deps.oauthRecheckMs !== undefined ? { recheckMs: deps.oauthRecheckMs } : {}),
    });
    onStop("sign-in grants", () => oauth.close());
    const verifier = withIssuedTokens(haVerifier, oauth.issued);
    // Each listener is closed as soon as the stop begins (it was started last), so no
    // new work arrives while the rest shuts down; registered at once, so a failed
    // start of the second one still closes the first.
    const guardFor = (ingressProxies?: string[], forwardingProxies?: string[]) =>
      createRequestGuard({ names: ownNames, publicUrl: options.public_url, ...(forwardingProxies ? { forwardingProxies } : {}), settingName: config.mode === "addon" ? "the allowed_hosts option" : "ALLOWED_HOSTS", logger: logger.child({ part: "http" }), ...(ingressProxies ? { ingressProxies } : {}) });
    const mcpHost = options.mcp_bind ?? deps.host;
    // Behind public_url, a reverse proxy on this machine forwards every client: its X-Forwarded-For names them apart.
    const trustedProxies = options.public_url ? ["127.0.0.1", "::1"] : [];
    const mcp = await startMcpListener({ host: mcpHost, guard: guardFor(), trustedProxies, port: config.mcpPort, verifier, mcp: mcpEndpoint, assist: assistEndpoint, health, logger: logger.child({ part: "http" }), tokenHint: config.mode === "demo" ? TOKEN_HINTS.demo : TOKEN_HINTS.homeAssistant, events: { source: agent.runtime }, oauth: oauth.front });
    onStop("MCP listener", () => mcp.close());
    mcpListenPort = mcp.port;
    const shownHost = mcpHost === "0.0.0.0" || mcpHost === "::" ? "127.0.0.1" : mcpHost.includes(":") ? `[${mcpHost}]` : mcpHost;
    const mcpUrl = `http://${shownHost}:${mcp.port}/mcp`;
    const demoToken = simulator ? ha.token : undefined;
    const turns = createTurnRecords({ store, now: () => clock.now() });
    // The simulated Supervisor's ingress proxy runs on this machine, so it reaches the status page from loopback.
    const trialProxy = isLocalSupervisor(config) ? ["127.0.0.1", "::1"] : [];
    const consoleRoutes = createConsole({
      version: VERSION,
      mode: config.mode,
      health,
      store,
      turns,
      users: createUserDirectory({ command: (message) => client.sendCommand(message), clock }),
      actuation: ceiling,
      entityState: (entityId) => index.states().get(entityId)?.state ?? null,
      diskSpace: () => statfs(config.dataDir).then((s) => ({ freeBytes: s.bavail * s.bsize, totalBytes: s.blocks * s.bsize }), () => undefined),
      // Under the Supervisor, clients reach the add-on through Home Assistant's host name.
      connect: { mcpUrl: config.mode === "addon" ? `http://homeassistant.local:${mcp.port}/mcp` : mcpUrl, demoToken },
      now: () => clock.now(),
      timeZone,
      locale,
      trustedProxies: [...config.statusTrustedProxies, ...trialProxy],
      ...(demoUser ? { demoUser } : {}),
      agent: { approve: (p, a) => agent.runtime.approve(p, a), cancel: (p, id, reason) => agent.runtime.cancel(p, id, reason), watch: (p, a) => agent.runtime.watch(p, a), journal: (owner, id) => readJournal(storeJournal(store, owner, id)) },
      assets: await loadAssets(fileURLToPath(new URL("./web/", import.meta.url))),
      remoteToken: config.statusToken,
      logger: logger.child({ part: "console" }),
    });
    const status = await startStatusListener({
      host: config.statusBind ?? deps.host,
      port: config.statusPort,
      ...(config.statusAllowedAddresses ? { allowedAddresses: [...config.statusAllowedAddresses, ...trialProxy], refusal: ingressRefusal(config) } : {}),
      guard: guardFor(config.statusAllowedAddresses && [...config.statusAllowedAddresses, ...trialProxy], config.statusTrustedProxies),
      console: consoleRoutes,
      logger: logger.child({ part: "status" }),
    });
    onStop("status listener", () => status.close());

    const statusHost = config.statusBind ?? deps.host;
    const statusUrl = `http://${statusHost === "0.0.0.0" || statusHost === "::" ? "127.0.0.1" : statusHost}:${status.port}/`;
    const described = models.describe();
    const modelLabel = described.provider === "demo" ? DEMO_LABEL : described.status === "configured" ? `${described.provider} ${described.model}` : "not configured";
    deps.onListening?.({ mcpUrl, statusUrl, demoToken, modelLabel, demoLogin });
    // The store logged its recovery already, with the findings.
    logger.info({ mode: config.mode, mcpUrl, statusUrl }, `HA Agent ${VERSION} listening in ${config.mode} mode`);

    void checkModelAtStart(models, logger.child({ part: "model" }));
    const ready = (async () => {
      await client.connect();
      await index.start();
      const { entities, devices, areas, floors, labels } = index.stats();
      logger.info({ entities, devices, areas, floors, labels }, "HA Agent is ready");
      // In the background: a Supervisor that is slow or failing never holds up the add-on.
      void discovery?.start({ port: mcp.port, path: MCP_PATHS.assist });
    })();
    return { mcpUrl, statusUrl, demoToken, ha: client, index, store, registry, personas, models, simulator, ready, stop: stopAll };
  } catch (err) {
    await stopAll();
    throw err;
  }
}
