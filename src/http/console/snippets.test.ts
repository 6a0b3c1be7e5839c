import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { connectSnippets } from "./snippets.js";

const root = join(import.meta.dirname, "..", "..", "..");
/** The README shows Claude Code, Cursor and the sign-ins; docs/clients.md the other clients. */
const readme = async () => (await Promise.all(["README.md", "docs/clients.md"].map((f) => readFile(join(root, f), "utf8")))).join("\n");

/** The first code block after the documents' bold label for a client. */
function readmeBlock(text: string, client: string): string {
  const at = text.indexOf(`**${client}**`);
  expect(at, `README or docs/clients.md names ${client}`).toBeGreaterThan(-1);
  const match = /```\w*\n([\s\S]*?)\n```/.exec(text.slice(at));
  return match![1]!;
}

describe("the console's connect snippets", () => {
  it("are the README's, word for word, for every client", async () => {
    const text = await readme();
    for (const snippet of connectSnippets({ mcpUrl: "http://homeassistant.local:8808/mcp", token: "<token>" })) {
      if (snippet.client === "MCP Inspector") continue;
      expect(snippet.text, snippet.client).toBe(readmeBlock(text, snippet.client));
    }
    const signIns = connectSnippets({ mcpUrl: "http://homeassistant.local:8808/mcp", token: "<token>" }).filter((s) => s.signIn);
    expect(signIns.map((s) => s.client)).toEqual(["Claude Code", "VS Code"]);
    for (const snippet of signIns) expect(snippet.signIn!.text, snippet.client).toBe(readmeBlock(text, `${snippet.client}, signing in`));
    const inspector = connectSnippets({ mcpUrl: "http://127.0.0.1:8808/mcp", token: "<token>" }).find((s) => s.client === "MCP Inspector")!;
    expect(inspector.text).toBe(readmeBlock(text, "MCP Inspector"));
  });

  it("are valid JSON where the client reads JSON", () => {
    for (const s of connectSnippets({ mcpUrl: "http://h:8808/mcp", token: "t" }).filter((s) => s.language === "json")) expect(() => JSON.parse(s.text), s.client).not.toThrow();
  });
});
