export { startMcpListener, type Listener, type McpListenerOptions } from "./mcp-listener.js";
export { createOwnNames, createRequestGuard, fixedOwnNames, namesFromHaConfig, type OwnNames, type RequestGuard } from "./guard/index.js";
export { startStatusListener, type StatusListenerOptions } from "./status-listener.js";
export { createConsole, createTurnRecords, createUserDirectory, loadAssets, type Console, type ConsoleOptions } from "./console/index.js";
export { healthReport, type HealthCheck, type HealthReport } from "./health.js";
export { createStatusChecks, type StatusSources } from "./status-checks.js";
export { createTokenVerifier, fetchCurrentUser, withIssuedTokens, TOKEN_HINTS, type TokenVerifier, type TokenVerifierOptions } from "./auth/index.js";
