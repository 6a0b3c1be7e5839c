import type { z } from "zod";
import { ConfigError, type ConfigProblem } from "./errors.js";
import { ENV_SCHEMAS, OPTION_ENV, OPTION_SCHEMAS, SECRET_ENV, SECRET_OPTIONS, type OptionName, type Options } from "./options.js";

export type Mode = "addon" | "standalone" | "demo";

export interface HaEndpoint {
  /** WebSocket API, e.g. `ws://supervisor/core/websocket`. */
  wsUrl: string;
  /** REST base including `/api`. */
  apiUrl: string;
  token: string;
}

export interface AppConfig {
  mode: Mode;
  options: Options;
  /** How this program reaches HA. Undefined in demo mode, where the embedded simulator provides it. */
  ha: HaEndpoint | undefined;
  /** Demo mode: the token the simulator accepts (DEMO_TOKEN), or undefined for a random one. */
  demoToken: string | undefined;
  /** Where callers' user tokens are checked (`GET {coreApiUrl}/`). Undefined in demo mode. */
  coreApiUrl: string | undefined;
  /** Add-on mode: other add-ons' Supervisor tokens are checked through this proxy. */
  supervisorApiUrl: string | undefined;
  /** Add-on mode: the Supervisor's API (`SUPERVISOR_URL`, `http://supervisor` unless a test moves it) and this add-on's token for it. */
  supervisor: { url: string; token: string } | undefined;
  dataDir: string;
  /** The add-on's own user folder (`addon_config` map), for user-defined extensions. */
  userConfigDir: string | undefined;
  /** Where user personas live (`PERSONAS_DIR`; `/config/personas` in add-on mode); none means built-ins only. */
  personasDir: string | undefined;
  mcpPort: number;
  statusPort: number;
  /** Add-on mode: the status page answers only the ingress proxy. */
  statusAllowedAddresses: string[] | undefined;
  /** Where the status listener binds; undefined in add-on mode, where ingress reaches it on every interface. */
  statusBind: string | undefined;
  /** Addresses whose X-Remote-User-* headers are believed: the ingress proxy, loopback outside add-on mode, and STATUS_TRUSTED_PROXIES. */
  statusTrustedProxies: string[];
  /** Outside add-on mode with a non-loopback STATUS_BIND: the token other hosts open the console with. */
  statusToken: string | undefined;
  /** Where the sign-in sends browsers to log in to Home Assistant: `home_assistant_url`, else HA_URL in standalone mode; undefined asks HA (add-on) or the simulator (demo). */
  haLoginUrl: string | undefined;
  /** Tests only (OAUTH_CIMD_ALLOW_LOCAL): client metadata documents may be fetched over http and from local addresses. */
  oauthCimdAllowLocal: boolean;
  /** What a session that names no approval policy does with an action: ask a person in the demo, refuse elsewhere. */
  sessionApproval: "refuse" | "ask";
}

export interface ConfigSources {
  env: Record<string, string | undefined>;
  /** Reads a file as text, or returns undefined when it does not exist. */
  readFile(path: string): Promise<string | undefined>;
  /** The model providers `model_provider` may name: the registry's selectable entries. */
  modelProviders?: readonly string[];
}

const ADDON_DATA_DIR = "/data";
const INGRESS_PROXY = "172.30.32.2";

/** Picks the mode from the environment, reads options and validates all of it. */
export async function loadConfig({ env, readFile, modelProviders }: ConfigSources): Promise<AppConfig> {
  const mode: Mode = env.SUPERVISOR_TOKEN ? "addon" : env.HA_URL ? "standalone" : "demo";
  const problems: ConfigProblem[] = [];

  // The Supervisor writes options.json into /data; a test gives its own data directory, and its options there.
  const optionsPath = `${stripSlash(env.DATA_DIR || ADDON_DATA_DIR)}/options.json`;
  const rawOptions = mode === "addon" ? await readAddonOptions(readFile, optionsPath) : optionsFromEnv(env);
  const options = parseEach(OPTION_SCHEMAS, rawOptions, (name) => (mode === "addon" ? name : `${OPTION_ENV[name as OptionName]}`), problems) as Options;
  const environment = parseEach(ENV_SCHEMAS, env, (name) => name, problems);
  if (modelProviders && options.model_provider !== undefined && !modelProviders.includes(options.model_provider)) {
    const name = mode === "addon" ? "model_provider" : OPTION_ENV.model_provider;
    problems.push({ setting: name, problem: `is "${options.model_provider}", which is not a model provider: expected one of ${modelProviders.join(", ")}.` });
  }

  if (mode === "demo" && environment.HA_TOKEN) {
    // It may be a real token: never start a demo that prints it in the banner.
    problems.push({ setting: "HA_TOKEN", problem: "is set but HA_URL is not. Set HA_URL to your Home Assistant's address (e.g. http://192.168.1.10:8123) to connect to it, or unset HA_TOKEN to try the demo (DEMO_TOKEN sets a fixed demo token)." });
  }
  if (mode === "standalone" && !environment.HA_TOKEN) {
    problems.push({ setting: "HA_TOKEN", problem: "is required when HA_URL is set: create a long-lived access token in your Home Assistant profile (Security tab) and set HA_TOKEN to it." });
  }
  const statusBind = environment.STATUS_BIND as string;
  if (mode !== "addon" && !isLoopback(statusBind) && !environment.STATUS_TOKEN) {
    problems.push({ setting: "STATUS_TOKEN", problem: `is required when STATUS_BIND (${statusBind}) lets other hosts reach the status page: set it to a long random string (e.g. from \`openssl rand -hex 24\`) and open the page once as http://<host>:<STATUS_PORT>/?token=<STATUS_TOKEN>.` });
  }
  if (problems.length) throw new ConfigError(problems, mode === "addon" ? `the add-on options (${optionsPath})` : "the environment");

  const haUrl = environment.HA_URL ? baseUrlOf(environment.HA_URL as string) : undefined;
  const base = {
    mode,
    options,
    mcpPort: environment.MCP_PORT as number,
    statusPort: environment.STATUS_PORT as number,
    demoToken: undefined as string | undefined,
    supervisorApiUrl: undefined as string | undefined,
    supervisor: undefined as AppConfig["supervisor"],
    userConfigDir: undefined as string | undefined,
    personasDir: environment.PERSONAS_DIR as string | undefined,
    statusAllowedAddresses: undefined as string[] | undefined,
    statusBind: mode === "addon" ? undefined : statusBind,
    // Loopback is where a local reverse proxy or an ingress stand-in sits; under the Supervisor, only its ingress proxy.
    statusTrustedProxies: [...(mode === "addon" ? [INGRESS_PROXY] : ["127.0.0.1", "::1"]), ...(environment.STATUS_TRUSTED_PROXIES as string[])],
    statusToken: mode === "addon" ? undefined : (environment.STATUS_TOKEN as string | undefined),
    haLoginUrl: options.home_assistant_url ? stripSlash(options.home_assistant_url) : mode === "standalone" && haUrl ? haUrl : undefined,
    oauthCimdAllowLocal: environment.OAUTH_CIMD_ALLOW_LOCAL === "true",
    // The demo's home is simulated: its first "turn on the kitchen light" shows the approval rather than a refusal.
    sessionApproval: mode === "demo" ? ("ask" as const) : ("refuse" as const),
  };
  if (mode === "demo" && env.ALLOW_ACTUATION === undefined) options.allow_actuation = true;
  switch (mode) {
    case "addon": {
      const supervisorUrl = stripSlash(environment.SUPERVISOR_URL as string);
      return {
        ...base,
        ha: { wsUrl: `${supervisorUrl.replace(/^http/, "ws")}/core/websocket`, apiUrl: `${supervisorUrl}/core/api`, token: env.SUPERVISOR_TOKEN as string },
        coreApiUrl: `${stripSlash(options.core_url ?? "http://homeassistant:8123")}/api`,
        supervisorApiUrl: `${supervisorUrl}/core/api`,
        supervisor: { url: supervisorUrl, token: env.SUPERVISOR_TOKEN as string },
        dataDir: (environment.DATA_DIR as string | undefined) ?? ADDON_DATA_DIR,
        userConfigDir: "/config",
        personasDir: (environment.PERSONAS_DIR as string | undefined) ?? "/config/personas",
        statusAllowedAddresses: [INGRESS_PROXY],
      };
    }
    case "standalone":
      return {
        ...base,
        ha: { ...endpointsFor(haUrl as string), token: environment.HA_TOKEN as string },
        coreApiUrl: `${stripSlash(options.core_url ?? (haUrl as string))}/api`,
        dataDir: (environment.DATA_DIR as string | undefined) ?? "./data",
      };
    case "demo":
      return {
        ...base,
        ha: undefined,
        demoToken: environment.DEMO_TOKEN as string | undefined,
        coreApiUrl: undefined,
        dataDir: (environment.DATA_DIR as string | undefined) ?? "./data",
      };
  }
}

/**
 * `http://host:8123` → its WebSocket and REST endpoints. People also paste
 * the WebSocket address (`ws://host:8123/api/websocket`) or the API's; all
 * of them name the same Home Assistant.
 */
function endpointsFor(haUrl: string): { wsUrl: string; apiUrl: string } {
  const base = baseUrlOf(haUrl);
  return { wsUrl: `${base.replace(/^http/, "ws")}/api/websocket`, apiUrl: `${base}/api` };
}

/** Home Assistant's http(s) base URL, whatever form of its address was given. */
function baseUrlOf(haUrl: string): string {
  return stripSlash(haUrl)
    .replace(/^ws(s?):/, "http$1:")
    .replace(/\/api(\/websocket)?$/, "");
}

async function readAddonOptions(readFile: ConfigSources["readFile"], path: string): Promise<Record<string, unknown>> {
  const text = await readFile(path);
  if (text === undefined) return {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // reported below
  }
  throw new ConfigError([{ setting: path, problem: "is not a JSON object. Save the options again on the add-on's Configuration tab." }], "the add-on options");
}

function optionsFromEnv(env: ConfigSources["env"]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, variable] of Object.entries(OPTION_ENV)) {
    const value = env[variable];
    // An empty variable means "not set", as in most shells and compose files.
    if (value !== undefined && value !== "") out[name] = value;
  }
  return out;
}

function parseEach(
  schemas: Record<string, z.ZodType>,
  raw: Record<string, unknown>,
  label: (name: string) => string,
  problems: ConfigProblem[],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(schemas)) {
    const value = raw[name] === "" || raw[name] === null ? undefined : raw[name];
    const result = schema.safeParse(value);
    if (result.success) {
      out[name] = result.data;
    } else {
      const shown = SECRET_OPTIONS.has(name as OptionName) || SECRET_ENV.has(name) ? "" : `, got ${JSON.stringify(value)}`;
      problems.push({ setting: label(name), problem: `${result.error.issues.map((i) => i.message).join("; ")}${shown}` });
    }
  }
  return out;
}

function isLoopback(address: string): boolean {
  return address === "::1" || address.startsWith("127.");
}

function stripSlash(url: string): string {
  return url.replace(/\/+$/, "");
}
