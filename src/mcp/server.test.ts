import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { silentLogger } from "../shared/index.js";
import { ToolRegistry } from "../tools/index.js";
import { createMcpServer } from "./server.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

function heapUsed(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

describe("createMcpServer", () => {
  // Up to 256 sessions stay open at once, each with its own server.
  it("builds a small server per session, with no JSON Schema validator of its own", () => {
    const make = () => createMcpServer({ registry: new ToolRegistry(), info: { name: "ha-agent", version: "0" }, logger: silentLogger });
    make();
    const before = heapUsed();
    const servers = Array.from({ length: 100 }, make);
    const perServer = (heapUsed() - before) / servers.length;
    // With the SDK's default validator each server held an Ajv instance of about 30 KB.
    expect(perServer).toBeLessThan(12_000);
  });
});
