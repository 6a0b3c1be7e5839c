import { z } from "zod";
import { LOG_FORMATS, LOG_LEVELS } from "../shared/index.js";
import { servicePatternSchema } from "./service-pattern.js";

/** A list of service patterns: an array in options.json, comma-separated in the environment. */
function servicePatterns() {
  return z.preprocess(
    (v) => (typeof v === "string" ? v.split(",").map((s) => s.trim()).filter(Boolean) : v),
    z.array(servicePatternSchema()).max(100, { error: "at most 100 patterns" }),
  );
}

function wholeNumber(min: number, max: number) {
  const expected = `expected a whole number from ${min} to ${max}`;
  return z.coerce.number({ error: expected }).int({ error: expected }).min(min, { error: expected }).max(max, { error: expected });
}

/** A list given as an array in options.json, or comma-separated in the environment. */
function commaList<T extends z.ZodType>(item: T) {
  return z.preprocess((v) => (typeof v === "string" ? v.split(",").map((s) => s.trim()).filter(Boolean) : v), z.array(item));
}

// A DNS name: labels of letters, digits and hyphens; compared in lower case, without a trailing dot.
const HOST_NAME = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** Ollama's keep_alive: seconds (-1: always), or a Go duration such as 5m, 1h30m, 300ms. */
const KEEP_ALIVE = /^(-?\d+|-?(\d+(\.\d+)?(ms|s|m|h))+)$/;

/** 0 asks the system for any free port; the program prints the one it got. */
function port() {
  return wholeNumber(0, 65535);
}


/**
 * Every user-facing setting, once. The add-on reads them from
 * `/data/options.json` (snake_case keys); standalone and demo mode read the
 * environment variable named in `env`. `config.yaml`, `translations/en.yaml`
 * and DOCS.md are checked against this list by a test.
 */
export const OPTION_SCHEMAS = {
  log_level: z.enum(LOG_LEVELS).default("info"),
  log_format: z.enum(LOG_FORMATS).default("text"),
  tool_name_separator: z.enum(["_", "."]).default("_"),
  core_url: z.url({ protocol: /^https?$/ }).optional(),
  // The names the model-provider registry holds; loadConfig checks the name against them.
  model_provider: z.string().regex(/^[a-z][a-z0-9_-]{0,31}$/, { error: "expected a provider name such as gemini or openai" }).default("gemini"),
  // No default here: it is the provider's own (its registry entry's defaultModel).
  model: z.string().min(1).max(200).optional(),
  model_context_tokens: wholeNumber(2_048, 10_000_000).optional(),
  /** Models besides `model` that a call may name; the configured model is always allowed, and nothing else is set up. */
  allowed_models: commaList(z.string({ error: "expected model names such as qwen3:8b" }).regex(/^[^\s,]{1,200}$/, { error: "expected model names such as qwen3:8b, without spaces or commas, at most 200 characters each" }))
    .pipe(z.array(z.string()).max(50, { error: "at most 50 models" }))
    .default([]),
  /** Lets people who are not Home Assistant administrators choose among allowed_models. */
  model_choice_for_everyone: z.preprocess((v) => (v === "true" ? true : v === "false" ? false : v), z.boolean({ error: "expected true or false" })).default(false),
  gemini_api_key: z.string().min(1).optional(),
  gemini_base_url: z.url({ protocol: /^https?$/ }).optional(),
  openai_base_url: z.url({ protocol: /^https?$/ }).optional(),
  openai_api_key: z.string().min(1).optional(),
  /** Ollama's root (not /v1): HA Agent speaks Ollama's own API there, which can set the context window. */
  ollama_url: z.url({ protocol: /^https?$/, error: "expected your Ollama server's address, e.g. http://192.168.1.20:11434" }).optional(),
  /** Unset: the model's own settings (its Modelfile on Ollama) apply. */
  model_temperature: z.coerce.number({ error: "expected a number from 0 to 2, e.g. 0.7" }).min(0, { error: "expected a number from 0 to 2, e.g. 0.7" }).max(2, { error: "expected a number from 0 to 2, e.g. 0.7" }).optional(),
  /** Off asks the server for whole answers: for servers whose streamed tool calls arrive broken (some LM Studio versions). */
  model_stream: z.preprocess((v) => (v === "true" ? true : v === "false" ? false : v), z.boolean({ error: "expected true or false" })).default(true),
  /** Ollama's keep_alive: how long the model stays loaded after a call (5m, 1h, -1 for always, 0 to unload at once). */
  // A number in options.json (YAML's -1) counts as its text.
  keep_alive: z.preprocess((v) => (typeof v === "number" ? String(v) : v), z.string().regex(KEEP_ALIVE, { error: "expected a duration such as 5m, 1h or 30s, a number of seconds, or -1 to keep the model loaded" })).optional(),
  allow_actuation: z.preprocess((v) => (v === "true" ? true : v === "false" ? false : v), z.boolean({ error: "expected true or false" })).default(false),
  actuation_allowlist: servicePatterns().default([]),
  /** Services that always need a person's yes, even when a session allows them beforehand. */
  approval_required: servicePatterns().default(["lock.*", "alarm_control_panel.*"]),
  approval_timeout_s: wholeNumber(30, 86_400).default(600),
  /** Lets automation_save write automations; the agent still saves only after a person's yes. */
  allow_automation_edits: z.preprocess((v) => (v === "true" ? true : v === "false" ? false : v), z.boolean({ error: "expected true or false" })).default(false),
  max_concurrent_model_calls: wholeNumber(1, 32).default(4),
  session_idle_days: wholeNumber(1, 365).default(7),
  continuation_retention_hours: wholeNumber(1, 24 * 90).default(24),
  max_sessions_per_principal: wholeNumber(1, 1000).default(50),
  /** Add-on mode: tell Home Assistant this MCP server exists (Supervisor discovery); off removes the announcement. */
  announce_to_home_assistant: z.preprocess((v) => (v === "true" ? true : v === "false" ? false : v), z.boolean({ error: "expected true or false" })).default(true),
  /** The address MCP clients use for HA Agent behind a reverse proxy (https); sign-in tokens are bound to it. */
  public_url: z.url({ protocol: /^https?$/, error: "expected the address clients use for HA Agent, e.g. https://agent.example.com (no path)" }).regex(/^https?:\/\/[^/]+\/?$/, { error: "expected an origin without a path, e.g. https://agent.example.com" }).optional(),
  /** Home Assistant's address as people's browsers know it: the sign-in sends the browser there to log in. */
  home_assistant_url: z.url({ protocol: /^https?$/, error: "expected Home Assistant's address as your browser opens it, e.g. http://homeassistant.local:8123" }).optional(),
  /** Where the MCP listener binds; unset keeps every interface (loopback in demo mode). */
  mcp_bind: z.union([z.ipv4(), z.ipv6()], { error: "expected an IP address to bind the MCP server to, e.g. 127.0.0.1 behind a reverse proxy on the same machine" }).optional(),
  /** Host names besides HA Agent's own that requests may name in Host (and browsers in Origin). */
  allowed_hosts: commaList(
    z
      .string()
      .transform((name) => name.trim().toLowerCase().replace(/\.$/, ""))
      .refine((name) => HOST_NAME.test(name), { error: "expected host names without scheme or port, e.g. agent.example.com" }),
  )
    .pipe(z.array(z.string()).max(100, { error: "at most 100 host names" }))
    .default([]),
} as const;

export type OptionName = keyof typeof OPTION_SCHEMAS;

/** The environment variable for each option outside add-on mode. */
export const OPTION_ENV: Record<OptionName, string> = {
  log_level: "LOG_LEVEL",
  log_format: "LOG_FORMAT",
  tool_name_separator: "TOOL_NAME_SEPARATOR",
  core_url: "CORE_URL",
  model_provider: "MODEL_PROVIDER",
  model: "MODEL",
  model_context_tokens: "MODEL_CONTEXT_TOKENS",
  allowed_models: "ALLOWED_MODELS",
  model_choice_for_everyone: "MODEL_CHOICE_FOR_EVERYONE",
  gemini_api_key: "GEMINI_API_KEY",
  gemini_base_url: "GEMINI_BASE_URL",
  openai_base_url: "OPENAI_BASE_URL",
  openai_api_key: "OPENAI_API_KEY",
  ollama_url: "OLLAMA_URL",
  model_temperature: "MODEL_TEMPERATURE",
  model_stream: "MODEL_STREAM",
  keep_alive: "KEEP_ALIVE",
  allow_actuation: "ALLOW_ACTUATION",
  actuation_allowlist: "ACTUATION_ALLOWLIST",
  approval_required: "APPROVAL_REQUIRED",
  approval_timeout_s: "APPROVAL_TIMEOUT_S",
  allow_automation_edits: "ALLOW_AUTOMATION_EDITS",
  max_concurrent_model_calls: "MAX_CONCURRENT_MODEL_CALLS",
  session_idle_days: "SESSION_IDLE_DAYS",
  continuation_retention_hours: "CONTINUATION_RETENTION_HOURS",
  max_sessions_per_principal: "MAX_SESSIONS_PER_PRINCIPAL",
  announce_to_home_assistant: "ANNOUNCE_TO_HOME_ASSISTANT",
  public_url: "PUBLIC_URL",
  home_assistant_url: "HOME_ASSISTANT_URL",
  mcp_bind: "MCP_BIND",
  allowed_hosts: "ALLOWED_HOSTS",
};

/** Options that hold secrets: never logged, shown as `password` in the add-on UI. */
export const SECRET_OPTIONS: ReadonlySet<OptionName> = new Set(["gemini_api_key", "openai_api_key"]);

export const OptionsSchema = z.object(OPTION_SCHEMAS);
export type Options = z.infer<typeof OptionsSchema>;

/** Settings that only exist as environment variables (ports are fixed by the add-on's config.yaml). */
export const ENV_SCHEMAS = {
  HA_URL: z.url({ protocol: /^(https?|wss?)$/, error: "expected Home Assistant's address, e.g. http://192.168.1.10:8123 (http, https, ws or wss)" }).optional(),
  HA_TOKEN: z.string().min(1).optional(),
  /** Demo mode: a fixed token for the simulated home, instead of a random one. */
  DEMO_TOKEN: z.string().min(8, { error: "expected at least 8 characters" }).optional(),
  SUPERVISOR_TOKEN: z.string().min(1).optional(),
  /** Add-on mode: where the Supervisor's API is. Only tests and the simulator change it. */
  SUPERVISOR_URL: z.url({ protocol: /^https?$/, error: "expected the Supervisor's http address, e.g. http://supervisor" }).default("http://supervisor"),
  DATA_DIR: z.string().min(1).optional(),
  /** A folder of persona YAML files; in add-on mode /config/personas unless set. */
  PERSONAS_DIR: z.string().min(1).optional(),
  MCP_PORT: port().default(8808),
  STATUS_PORT: port().default(8099),
  /** Outside add-on mode: where the status listener binds. Loopback unless a person opens it to the network on purpose. */
  STATUS_BIND: z.union([z.ipv4(), z.ipv6()], { error: "expected an IP address to bind the status page to, e.g. 0.0.0.0 for every interface" }).default("127.0.0.1"),
  /** Needed when STATUS_BIND is not loopback: other hosts open the console with it. */
  STATUS_TOKEN: z.string().min(16, { error: "expected at least 16 characters (a long random string, e.g. from `openssl rand -hex 24`)" }).optional(),
  /** Reverse proxies whose X-Remote-User-* headers name the person using the console (comma-separated addresses). */
  STATUS_TRUSTED_PROXIES: z.preprocess(
    (v) => (typeof v === "string" ? v.split(",").map((s) => s.trim()).filter(Boolean) : v),
    z.array(z.union([z.ipv4(), z.ipv6()], { error: "expected IP addresses separated by commas, e.g. 192.168.1.5,10.0.0.2" })).default([]),
  ),
  /** Tests only: lets a client metadata document be fetched over plain http and from loopback or private addresses. */
  OAUTH_CIMD_ALLOW_LOCAL: z.enum(["true", "false"], { error: "expected true or false" }).default("false"),
} as const;

/** Settings that are secrets: a problem with one never echoes its value. */
export const SECRET_ENV: ReadonlySet<string> = new Set(["HA_TOKEN", "DEMO_TOKEN", "SUPERVISOR_TOKEN", "STATUS_TOKEN"]);
