import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEMO_LABEL } from "../src/models/index.js";
import { DEMO_LOGIN } from "@ha-agent/ha-simulator";
import { banner, inspectorCommand, INSPECTOR_FOR_NODE_20 } from "../src/banner.js";

const info = { version: "0.2.0", mcpUrl: "http://127.0.0.1:8808/mcp", mcpPort: 8808, statusUrl: "http://127.0.0.1:8099/", nodeVersion: "20.20.2" };

describe("banner", () => {
  it("suggests an MCP Inspector that runs on the user's Node", () => {
    expect(inspectorCommand({ mcpUrl: info.mcpUrl, token: "T", nodeVersion: "20.20.2" })).toContain(`npx -y @modelcontextprotocol/inspector-cli@${INSPECTOR_FOR_NODE_20} --cli`);
    expect(inspectorCommand({ mcpUrl: info.mcpUrl, token: "T", nodeVersion: "22.18.0" })).toContain(`inspector-cli@${INSPECTOR_FOR_NODE_20}`);
    expect(inspectorCommand({ mcpUrl: info.mcpUrl, token: "T", nodeVersion: "22.19.0" })).toMatch(/npx -y @modelcontextprotocol\/inspector --cli/);
    expect(inspectorCommand({ mcpUrl: info.mcpUrl, token: "T", nodeVersion: "24.1.0" })).toContain('--header "Authorization: Bearer T"');
  });

  it("shows the demo token and the command in demo mode", () => {
    const text = banner({ mode: "demo" }, { ...info, demoToken: "demo-token-123" });
    expect(text.split("\n").slice(0, 3)).toEqual(["HA Agent 0.2.0 (demo mode)", "MCP endpoint: http://127.0.0.1:8808/mcp", "Token:        demo-token-123"]);
    expect(text).toContain("inspector-cli@");
  });

  it("tells demo users the simulated home's login for clients that sign in", () => {
    const text = banner({ mode: "demo" }, { ...info, demoToken: "demo-token-123", demoLogin: { username: "alex", password: "linden-house" } });
    expect(text).toContain("log in as alex / linden-house");
  });

  it("names the address clients really use in add-on mode, not the container's loopback", () => {
    const text = banner({ mode: "addon" }, { ...info, demoToken: undefined });
    expect(text).not.toContain("127.0.0.1");
    expect(text).toContain("MCP endpoint: http://<your-home-assistant-host>:8808/mcp\n");
    expect(text).toContain("Network tab");
  });

  it("is what the README shows for the demo, line for line", async () => {
    const readme = await readFile(join(import.meta.dirname, "..", "README.md"), "utf8");
    const sample = /```\n(HA Agent [^\n]+ \(demo mode\)\n[\s\S]*?)\n```/.exec(readme)![1]!;
    const printed = banner({ mode: "demo" }, { ...info, version: "0.1.0", demoToken: "TOKEN", demoLogin: DEMO_LOGIN, modelLabel: DEMO_LABEL }).trimEnd();
    // The README shortens the token: "eyJ…" on its own line, "…" in the command.
    expect(sample.replace(/eyJ\S*…/, "TOKEN").replace("Bearer …", "Bearer TOKEN")).toBe(printed);
  });
});
