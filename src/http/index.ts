export { startMcpListener, type Listener, type McpListenerOptions } from "./mcp-listener.js";
export { startStatusListener, type StatusListenerOptions } from "./status-listener.js";
export { renderStatusPage, type StatusInfo } from "./status-page.js";
export { healthReport, type HealthCheck, type HealthReport } from "./health.js";
export { createStatusChecks, type StatusSources } from "./status-checks.js";
export { createTokenVerifier, authenticate, AuthUnavailableError, fetchCurrentUser, type TokenVerifier, type TokenVerifierOptions } from "./auth/index.js";
export { readJsonBody, BodyError } from "./body.js";
