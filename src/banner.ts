import type { AppConfig } from "./config/index.js";

/**
 * The MCP Inspector's command-line part that runs on Node 20 and has
 * `--header`. The whole `@modelcontextprotocol/inspector` of the same
 * version declares Node 22.7.5 (npm prints EBADENGINE), and 2.x needs 22.19.
 */
export const INSPECTOR_FOR_NODE_20 = "0.16.8";
export const INSPECTOR_CLI_FOR_NODE_20 = `@modelcontextprotocol/inspector-cli@${INSPECTOR_FOR_NODE_20}`;

/** An MCP Inspector command line that works on the Node the user runs. */
export function inspectorCommand(args: { mcpUrl: string; token: string; nodeVersion: string }): string {
  const [major = 0, minor = 0] = args.nodeVersion.split(".").map(Number);
  const modern = major > 22 || (major === 22 && minor >= 19);
  const pkg = modern ? "@modelcontextprotocol/inspector" : INSPECTOR_CLI_FOR_NODE_20;
  return `npx -y ${pkg} --cli ${args.mcpUrl} --transport http --header "Authorization: Bearer ${args.token}" --method tools/list`;
}

export interface BannerInfo {
  version: string;
  mcpUrl: string;
  mcpPort: number;
  statusUrl: string;
  demoToken: string | undefined;
  nodeVersion: string;
  /** What answers the agent's questions, e.g. "Demo model (scripted rules, not an AI)". */
  modelLabel?: string;
  /** Demo mode: the simulated home's login, for clients that sign in. */
  demoLogin?: { username: string; password: string } | undefined;
}

/** What the banner reads of the configuration. */
export type BannerConfig = Pick<AppConfig, "mode"> & Partial<Pick<AppConfig, "supervisor" | "coreApiUrl">>;

const LOOPBACK_HOST = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

/**
 * Add-on mode against a Supervisor on this machine: the simulated one of
 * `npm run sim -- --supervisor` (the real one is `http://supervisor`). Its
 * ingress proxy reaches the status page from loopback, and its person reads
 * this banner on the same machine.
 */
export function isLocalSupervisor(config: BannerConfig): boolean {
  return config.mode === "addon" && !!config.supervisor && LOOPBACK_HOST.test(new URL(config.supervisor.url).hostname);
}

/** What the status page tells a request that did not come through ingress, in add-on mode. */
export function ingressRefusal(config: BannerConfig): string {
  const where =
    "This is HA Agent's status page. In add-on mode Home Assistant serves it through ingress: open HA Agent in the Home Assistant sidebar, or Open web UI on its add-on page. This address answers only the ingress proxy.";
  if (!isLocalSupervisor(config)) return where;
  return `${where}\nAgainst the simulated Supervisor (npm run sim -- --supervisor), its ingress plays the sidebar: open the "Status page" address it printed, ${config.supervisor!.url}/api/hassio_ingress/…/`;
}

/**
 * The first lines the program prints: where clients connect and how. In
 * add-on mode the listener's own address means nothing to a client on
 * another machine, so the banner names the host they should use; against a
 * simulated Supervisor on this machine it names this machine and the
 * simulated home instead.
 */
export function banner(config: BannerConfig, info: BannerInfo): string {
  const lines = [`HA Agent ${info.version} (${config.mode} mode)`];
  if (config.mode === "demo" && info.demoToken) {
    lines.push(
      `MCP endpoint: ${info.mcpUrl}`,
      `Token:        ${info.demoToken}`,
      `Status page:  ${info.statusUrl}`,
      ...(info.demoLogin ? [`Sign-in:      clients that sign in (Claude Code, VS Code) need only the URL; log in as ${info.demoLogin.username} / ${info.demoLogin.password}.`] : []),
      "This is a simulated demo home. Try it with the MCP Inspector:",
      `  ${inspectorCommand({ mcpUrl: info.mcpUrl, token: info.demoToken, nodeVersion: info.nodeVersion })}`,
    );
  } else if (isLocalSupervisor(config)) {
    const home = config.coreApiUrl?.replace(/\/api$/, "") ?? "core_url";
    lines.push(
      `MCP endpoint: http://127.0.0.1:${info.mcpPort}/mcp`,
      `              (a simulated Supervisor on this machine; under Home Assistant: http://<your-home-assistant-host>:${info.mcpPort}/mcp)`,
      `Clients send 'Authorization: Bearer <a token of the Home Assistant at ${home}>': npm run sim printed one as Token.`,
      `Status page:  through the simulated Supervisor's ingress: the "Status page" address npm run sim -- --supervisor printed (${config.supervisor!.url}/api/hassio_ingress/…/).`,
    );
  } else if (config.mode === "addon") {
    lines.push(
      `MCP endpoint: http://<your-home-assistant-host>:${info.mcpPort}/mcp`,
      `              e.g. http://homeassistant.local:${info.mcpPort}/mcp; the port can be changed on the add-on's Network tab.`,
      "Clients sign in with Home Assistant (give them only the URL), or send 'Authorization: Bearer <Home Assistant long-lived access token>'.",
      "Status page:  open HA Agent in the Home Assistant sidebar.",
    );
  } else {
    lines.push(
      `MCP endpoint: ${info.mcpUrl}`,
      `              from other machines: http://<this-machine's-address>:${info.mcpPort}/mcp`,
      "Clients sign in with Home Assistant (give them only the URL), or send 'Authorization: Bearer <Home Assistant long-lived access token>'.",
      `Status page:  ${info.statusUrl}`,
    );
  }
  if (info.modelLabel) {
    const standIn = isLocalSupervisor(config) && info.modelLabel === "not configured" ? "; for a stand-in, run npm run fake:gemini and put its Base URL in options.json as gemini_base_url" : "";
    lines.push(`Model:        ${info.modelLabel}${standIn}`);
  }
  return `${lines.join("\n")}\n\n`;
}
