import { estimateTokens } from "../../src/models/index.js";

/**
 * The most tokens `/mcp`'s tool definitions may take (issue 38, "What a
 * client carries"): every MCP client carries them in every conversation.
 */
export const DEFINITIONS_TARGET = 5_000;

/** What a model reads of one tool: what the project estimates for its name, description and input schema as compact JSON. */
export const definitionTokens = (tool: { name: string; description?: string | undefined; inputSchema: unknown }): number =>
  estimateTokens(JSON.stringify({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema }));

/** The output schema, which tools/list also carries but no client we know of hands its model. */
export const outputSchemaTokens = (tool: { outputSchema?: unknown }): number => (tool.outputSchema === undefined ? 0 : estimateTokens(JSON.stringify(tool.outputSchema)));
