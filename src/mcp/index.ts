export { createMcpServer, TOOLS_LIST_TTL_MS, type ServerInfo } from "./server.js";
export { createMcpEndpoint, type McpEndpoint, type McpEndpointOptions } from "./endpoint.js";
