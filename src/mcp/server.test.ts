import { describe, expect, it } from "vitest";
import { heapUsed } from "../../test/support/heap.js";
import { silentLogger } from "../shared/index.js";
import { ToolRegistry } from "../tools/index.js";
import { createMcpServer } from "./server.js";


describe("createMcpServer", () => {
  // Every MCP request gets its own server, up to 32 at once per caller.
  it("builds a small server per request, with no JSON Schema validator of its own", () => {
    const make = () => createMcpServer({ registry: new ToolRegistry(), info: { name: "ha-agent", version: "0" }, logger: silentLogger });
    make();
    const before = heapUsed();
    const servers = Array.from({ length: 100 }, make);
    const perServer = (heapUsed() - before) / servers.length;
    // An Ajv instance per server would cost about 30 KB.
    expect(perServer).toBeLessThan(12_000);
  });
});
