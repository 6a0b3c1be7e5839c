export { createHaClient, type HaClientOptions } from "./client.js";
export { HaAdminOnlyError, HaAuthError, HaCommandError, HaConnectionError, HaNotConnectedError, HaRestError } from "./errors.js";
export { callerView } from "./caller-view.js";
export { HA_READ_RULES, SYSTEM_LOG, ERROR_LOG, mayRead, readRule, describeRead, type HaRequest, type HaReadRule } from "./admin-reads.js";
export { backoffDelay, DEFAULT_BACKOFF, type BackoffOptions } from "./backoff.js";
export type { CreateWebSocket } from "./socket.js";
export type * from "./types.js";
