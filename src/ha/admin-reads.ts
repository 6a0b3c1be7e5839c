/**
 * Which Home Assistant reads a person may make, as Home Assistant itself
 * decides. HA Agent reads Home Assistant with its own token, which is an
 * administrator's (the Supervisor's, or the owner's long-lived token), so it
 * must apply HA's rule for the person it answers: what HA shows only to
 * administrators, a non-admin does not get through HA Agent either.
 *
 * This is the one list. `CallerHa` (caller-view.ts) checks every request a
 * tool or a persona makes against it; a request it does not name is treated
 * as admin-only, so a new read is refused to non-admins until it is added
 * here with the HA source that says who may make it.
 */

/** A request to Home Assistant, as the check sees it: a WebSocket command type, or a REST method and path under `/api`. */
export type HaRequest = { websocket: string } | { rest: { method: "GET" | "POST" | "DELETE"; path: string } };

export interface HaReadRule {
  /** What a person would be reading, in words for a refusal ("its system log"). */
  what: string;
  /** WebSocket command types. */
  websocket?: readonly string[];
  /** REST methods and paths; `*` in a path is one path segment (an automation's id, say). */
  rest?: { methods: readonly ("GET" | "POST" | "DELETE")[]; paths: readonly string[] };
  adminOnly: boolean;
  /** Where Home Assistant Core decides it. */
  source: string;
}

export const HA_READ_RULES: readonly HaReadRule[] = [
  // Administrators only.
  {
    what: "its system log",
    websocket: ["system_log/list"],
    adminOnly: true,
    source: "homeassistant/components/system_log/__init__.py: list_errors is @websocket_api.require_admin",
  },
  {
    what: "its error log",
    rest: { methods: ["GET"], paths: ["/api/error_log"] },
    adminOnly: true,
    source: "homeassistant/components/api/__init__.py: APIErrorLog.get is @require_admin",
  },
  {
    what: "template rendering over REST",
    rest: { methods: ["POST"], paths: ["/api/template"] },
    adminOnly: true,
    source: "homeassistant/components/api/__init__.py: APITemplateView.post is @require_admin",
  },
  {
    what: "automation configurations",
    rest: { methods: ["GET", "POST", "DELETE"], paths: ["/api/config/automation/config/*"] },
    adminOnly: true,
    source: "homeassistant/components/config/view.py: BaseEditConfigView get, post and delete are @require_admin",
  },
  {
    what: "script configurations",
    rest: { methods: ["GET", "POST", "DELETE"], paths: ["/api/config/script/config/*"] },
    adminOnly: true,
    source: "homeassistant/components/config/view.py: BaseEditConfigView get, post and delete are @require_admin",
  },
  {
    what: "an automation's configuration",
    websocket: ["automation/config"],
    adminOnly: true,
    source: "homeassistant/components/automation/__init__.py: websocket_config is @websocket_api.require_admin",
  },
  {
    what: "automation and script traces",
    websocket: ["trace/list", "trace/get", "trace/contexts"],
    adminOnly: true,
    source: "homeassistant/components/trace/websocket_api.py: every trace command is @websocket_api.require_admin",
  },
  // Every user: Home Assistant's WebSocket API opens these to anyone signed in (dashboards use them).
  {
    what: "template rendering",
    websocket: ["render_template"],
    adminOnly: false,
    source: "homeassistant/components/websocket_api/commands.py: handle_render_template has no require_admin",
  },
  {
    what: "checking triggers, conditions and actions",
    websocket: ["validate_config"],
    adminOnly: false,
    source: "homeassistant/components/websocket_api/commands.py: handle_validate_config has no require_admin",
  },
  {
    what: "history",
    websocket: ["history/history_during_period"],
    adminOnly: false,
    source: "homeassistant/components/history/websocket_api.py: no require_admin",
  },
  {
    what: "the logbook",
    websocket: ["logbook/get_events"],
    adminOnly: false,
    source: "homeassistant/components/logbook/websocket_api.py: no require_admin",
  },
  {
    what: "statistics",
    websocket: ["recorder/statistics_during_period"],
    adminOnly: false,
    source: "homeassistant/components/recorder/websocket_api.py: no require_admin",
  },
  {
    what: "statistics metadata",
    websocket: ["recorder/get_statistics_metadata", "recorder/list_statistic_ids"],
    adminOnly: false,
    source: "homeassistant/components/recorder/websocket_api.py: ws_get_statistics_metadata and ws_list_statistic_ids have no require_admin",
  },
  {
    what: "the Energy dashboard's preferences",
    websocket: ["energy/get_prefs"],
    adminOnly: false,
    source: "homeassistant/components/energy/websocket_api.py: ws_get_prefs has no require_admin (ws_save_prefs has)",
  },
  {
    what: "states, configuration and services",
    websocket: ["get_states", "get_config", "get_services"],
    adminOnly: false,
    source: "homeassistant/components/websocket_api/commands.py: no require_admin",
  },
  {
    what: "service calls",
    websocket: ["call_service"],
    adminOnly: false,
    source: "homeassistant/components/websocket_api/commands.py: handle_call_service has no require_admin",
  },
];

/** `system_log/list`: what analyze_errors and diagnose_entity read. */
export const SYSTEM_LOG = { websocket: "system_log/list" } as const satisfies HaRequest;
/** `GET /api/error_log`: the text log behind the system log. */
export const ERROR_LOG = { rest: { method: "GET", path: "error_log" } } as const satisfies HaRequest;

/**
 * The path HA routes a REST request to, from a path relative to the client's
 * `/api` base as the client sends it: `..` resolved, slashes merged and
 * percent-escapes decoded, as HA's router would see them. Undefined for a
 * path that cannot be decoded, which no rule then allows.
 */
function routedPath(relative: string): string | undefined {
  const url = new URL(relative.replace(/^\/+/, ""), "http://home-assistant/api/");
  try {
    return decodeURIComponent(url.pathname).replace(/\/{2,}/g, "/");
  } catch {
    return undefined;
  }
}

function matchesPath(pattern: string, path: string): boolean {
  const want = pattern.split("/");
  const got = path.replace(/\/$/, "").split("/");
  return want.length === got.length && want.every((part, i) => (part === "*" ? got[i] !== "" : part === got[i]));
}

/** The rule HA applies to `request`; undefined when this list does not know it. */
export function readRule(request: HaRequest): HaReadRule | undefined {
  if ("websocket" in request) return HA_READ_RULES.find((r) => r.websocket?.includes(request.websocket));
  const path = routedPath(request.rest.path);
  if (path === undefined) return undefined;
  return HA_READ_RULES.find((r) => r.rest?.methods.includes(request.rest.method) && r.rest.paths.some((p) => matchesPath(p, path)));
}

/** Whether Home Assistant lets `caller` make `request`. Reads the list does not know are for administrators only. */
export function mayRead(caller: { isAdmin: boolean }, request: HaRequest): boolean {
  if (caller.isAdmin) return true;
  return readRule(request)?.adminOnly === false;
}

/** What a refused request would have read, in words. */
export function describeRead(request: HaRequest): { what: string; known: boolean } {
  const rule = readRule(request);
  if (rule) return { what: rule.what, known: true };
  return { what: "websocket" in request ? `the WebSocket command ${request.websocket}` : `${request.rest.method} /api/${request.rest.path.replace(/^\/+/, "")}`, known: false };
}
