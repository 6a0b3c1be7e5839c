import type { Snippet } from "./wire.js";

/** The MCP Inspector's command-line part that runs on Node.js 20 without an engine warning; the whole Inspector declares Node 22. */
export const INSPECTOR_VERSION = "0.16.8";

/**
 * Ready-to-paste configuration for each client, in the format its own
 * documentation uses today: the sign-in form first where the client signs
 * in with Home Assistant (only the URL), then the form with a token. The
 * README and docs/clients.md show the same text (a test holds them equal), so what a person
 * copies from either place is the same.
 */
export function connectSnippets({ mcpUrl, token }: { mcpUrl: string; token: string }): Snippet[] {
  return [
    {
      client: "Claude Code",
      where: "in a terminal",
      language: "sh",
      text: `claude mcp add --transport http ha-agent ${mcpUrl} \\\n  --header "Authorization: Bearer ${token}"`,
      signIn: { where: "in a terminal, then /mcp in Claude Code, pick ha-agent and choose Authenticate", text: `claude mcp add --transport http ha-agent ${mcpUrl}` },
    },
    {
      client: "Claude Desktop",
      where: "claude_desktop_config.json, through the mcp-remote bridge",
      language: "json",
      // Written out, not stringified: the argument list reads best on one line, as in the README.
      text: `{
  "mcpServers": {
    "ha-agent": {
      "command": "npx",
      "args": ["-y", "mcp-remote", "${mcpUrl}", "--allow-http", "--header", "Authorization:\${HA_AUTH}"],
      "env": { "HA_AUTH": "Bearer ${token}" }
    }
  }
}`,
    },
    {
      client: "Cursor",
      where: "~/.cursor/mcp.json",
      language: "json",
      text: `{
  "mcpServers": {
    "ha-agent": {
      "url": "${mcpUrl}",
      "headers": { "Authorization": "Bearer ${token}" }
    }
  }
}`,
    },
    {
      client: "VS Code",
      where: ".vscode/mcp.json (VS Code asks for the token once and keeps it)",
      signIn: { where: ".vscode/mcp.json, then choose Auth above the server", text: `{ "servers": { "ha-agent": { "type": "http", "url": "${mcpUrl}" } } }` },
      language: "json",
      text: `{
  "inputs": [{ "type": "promptString", "id": "ha-token", "description": "Home Assistant access token", "password": true }],
  "servers": {
    "ha-agent": {
      "type": "http",
      "url": "${mcpUrl}",
      "headers": { "Authorization": "Bearer \${input:ha-token}" }
    }
  }
}`,
    },
    {
      client: "MCP Inspector",
      where: `in a terminal, on Node.js 20 (pin @modelcontextprotocol/inspector-cli@${INSPECTOR_VERSION})`,
      language: "sh",
      text: [
        `npx -y @modelcontextprotocol/inspector-cli@${INSPECTOR_VERSION} --cli ${mcpUrl} --transport http \\`,
        `  --header "Authorization: Bearer ${token}" --method tools/list`,
        `npx -y @modelcontextprotocol/inspector-cli@${INSPECTOR_VERSION} --cli ${mcpUrl} --transport http \\`,
        `  --header "Authorization: Bearer ${token}" --method tools/call \\`,
        `  --tool-name ha_agent_state_query --tool-arg area=kitchen`,
      ].join("\n"),
    },
  ].map((s) => ({ ...s, language: s.language as Snippet["language"] }));
}
