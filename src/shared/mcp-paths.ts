/**
 * Where the MCP listener serves MCP. `/mcp` offers every tool; `/mcp/assist`
 * the few that Home Assistant's conversation agents need, which is what
 * Supervisor discovery announces (docs/home-assistant.md says why).
 */
export const MCP_PATHS = { all: "/mcp", assist: "/mcp/assist" } as const;

export type McpPath = (typeof MCP_PATHS)[keyof typeof MCP_PATHS];

const KNOWN: readonly string[] = Object.values(MCP_PATHS);

/** The MCP path a request path names (a trailing slash allowed), or undefined. */
export function mcpPathOf(path: string): McpPath | undefined {
  const bare = path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
  return KNOWN.includes(bare) ? (bare as McpPath) : undefined;
}
