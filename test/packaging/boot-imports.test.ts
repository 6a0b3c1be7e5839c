import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadedAtBoot, shown } from "../lint/import-graph.js";

const root = join(import.meta.dirname, "..", "..");

/** What Node loads at boot: the files and packages reached from src/main.ts through static, non-type imports. */
const boot = () => loadedAtBoot(join(root, "src", "main.ts"));

describe("what the program loads at boot", () => {
  it("serves MCP with the v2 server SDK alone, and leaves the Gemini SDK until a Gemini client is created", () => {
    const { packages } = boot();
    expect(packages).toContain("@modelcontextprotocol/server");
    // The 1.x SDK is a devDependency, for tests that play a 2025 client: the image does not hold it.
    expect([...packages].filter((p) => p.startsWith("@modelcontextprotocol/sdk"))).toEqual([]);
    expect([...packages].filter((p) => p.startsWith("@google/genai"))).toEqual([]);
    // The Ollama client likewise waits for the first Ollama client.
    expect([...packages].filter((p) => p === "ollama")).toEqual([]);
  });

  it("leaves the simulator to demo mode: no static import chain from src/main.ts reaches the package", () => {
    const { files, packages } = boot();
    const shownFiles = [...files].map((file) => shown(root, file));
    expect(shownFiles).toContain("src/demo-home.ts");
    expect(shownFiles.filter((file) => file.startsWith("packages/"))).toEqual([]);
    expect([...packages].filter((p) => p.startsWith("@ha-agent/"))).toEqual([]);
  });

  it("holds no fake model server: the demo model loads the model-fakes package when it starts", () => {
    const { files, packages } = boot();
    expect([...files].map((file) => shown(root, file))).toContain("src/models/demo/provider.ts");
    expect([...packages].filter((p) => p.startsWith("@ha-agent/model-fakes"))).toEqual([]);
  });
});
