import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";
import type { Logger } from "../shared/index.js";
import type { ToolRegistry } from "../tools/index.js";
import { bridgeTools } from "./tool-bridge.js";

export interface ServerInfo {
  name: string;
  version: string;
}

const INSTRUCTIONS = [
  "HA Agent knows this Home Assistant home: its entities, devices, areas, floors, labels and live states.",
  "Use index_search to find entities from the user's own words, then state_query for current states.",
  "Tool names start with ha_agent.",
].join(" ");

/**
 * The SDK's server checks a client's answer to an elicitation (a server's
 * request for user input) with this. HA Agent never asks a client for input;
 * left unset, every session would build its own Ajv instance (about 30 KB).
 */
const NO_ELICITATION: jsonSchemaValidator = {
  getValidator: () => () => ({ valid: false, data: undefined, errorMessage: "HA Agent does not ask MCP clients for input." }),
};

/** One MCP server per client session, serving the shared tool registry. */
export function createMcpServer(options: { registry: ToolRegistry; info: ServerInfo; logger: Logger }): Server {
  const server = new Server(
    { name: options.info.name, version: options.info.version, title: "HA Agent" },
    { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS, jsonSchemaValidator: NO_ELICITATION },
  );
  bridgeTools(server, options.registry, options.logger);
  return server;
}
