export { createMcpServer, type ServerInfo } from "./server.js";
export { createMcpSessions, type McpSessions, type McpSessionsOptions } from "./sessions.js";
