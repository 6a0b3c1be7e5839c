export { createHaClient, type HaClientOptions } from "./client.js";
export { HaAuthError, HaCommandError, HaConnectionError, HaNotConnectedError, HaRestError } from "./errors.js";
export { backoffDelay, DEFAULT_BACKOFF, type BackoffOptions } from "./backoff.js";
export type { CreateWebSocket } from "./socket.js";
export type * from "./types.js";
