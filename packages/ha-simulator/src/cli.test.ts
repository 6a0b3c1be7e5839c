import { spawn } from "node:child_process";
import { createServer as createNetServer } from "node:net";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parseCliArgs } from "./cli-args.js";

// npm test (HA Agent's, or this package's) builds before vitest, so the compiled entry point exists.
const CLI = fileURLToPath(new URL("../dist/cli.js", import.meta.url));

describe("parseCliArgs", () => {
  it("reads every option and defaults the rest", () => {
    expect(parseCliArgs([])).toEqual({ port: 8123, host: "127.0.0.1", house: { kind: "demo" }, seed: 1, token: undefined, supervisor: undefined });
    expect(parseCliArgs(["--supervisor"]).supervisor).toEqual({ port: 8124 });
    expect(parseCliArgs(["--supervisor", "--supervisor-port", "0"]).supervisor).toEqual({ port: 0 });
    expect(parseCliArgs(["--port", "0", "--house", "generated:12000", "--seed", "9", "--token", "T"])).toMatchObject({
      port: 0, house: { kind: "generated", entities: 12000 }, seed: 9, token: "T",
    });
    expect(parseCliArgs(["--house", "./h.json"]).house).toEqual({ kind: "file", path: "./h.json" });
  });

  it("rejects bad values with a message naming the option", () => {
    expect(() => parseCliArgs(["--port", "http"])).toThrow(/--port must be a whole number/);
    expect(() => parseCliArgs(["--house", "generated:lots"])).toThrow(/generated:N/);
    expect(() => parseCliArgs(["--colour", "red"])).toThrow(/Unknown option '--colour'/);
    expect(() => parseCliArgs(["--supervisor-port", "9000"])).toThrow(/--supervisor-port needs --supervisor/);
  });
});

function run(args: string[], onLine?: (line: string, child: ReturnType<typeof spawn>) => void) {
  return new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      for (const line of d.toString().split("\n")) if (line) onLine?.(line, child);
    });
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("exit", (code) => resolve({ code, out, err }));
  });
}

describe("npm run sim", () => {
  it("prints the URL and token, serves the house, and exits 0 on SIGTERM", async () => {
    let url = "";
    let token = "";
    const result = await run(["--port", "0", "--token", "cli-test-token"], (line, child) => {
      if (line.startsWith("URL:")) url = line.split(/\s+/)[1]!;
      if (line.startsWith("Token:")) {
        token = line.split(/\s+/)[1]!;
        void fetch(`${url}/api/`, { headers: { Authorization: `Bearer ${token}` } }).then((res) => {
          expect(res.status).toBe(200);
          child.kill("SIGTERM");
        });
      }
    });
    expect(token).toBe("cli-test-token");
    expect(result.code).toBe(0);
  });

  it("with --supervisor, also serves a Supervisor and prints how to start the add-on against it, on ports a running demo does not hold", async () => {
    // 8808 is taken, as by a demo still running (or by whatever holds it on this machine already).
    const demo = createNetServer().on("error", () => undefined);
    await new Promise<void>((resolve) => demo.listen(8808, "0.0.0.0", () => resolve()).once("error", () => resolve()));
    let supervisorUrl = "";
    let status = 0;
    let command = "";
    try {
      const result = await run(["--port", "0", "--supervisor", "--supervisor-port", "0"], (line, child) => {
        if (line.startsWith("Supervisor:")) supervisorUrl = line.split(/\s+/)[1]!;
        if (/SUPERVISOR_URL=/.test(line)) command = line;
        if (line.includes("A model:")) {
          const token = /SUPERVISOR_TOKEN=(\S+)/.exec(command)![1]!;
          void fetch(`${supervisorUrl}/addons/self/info`, { headers: { Authorization: `Bearer ${token}` } }).then((res) => {
            status = res.status;
            child.kill("SIGTERM");
          });
        }
      });
      expect(status).toBe(200);
      expect(result.code).toBe(0);
      expect(command).toMatch(new RegExp(`SUPERVISOR_URL=${supervisorUrl} SUPERVISOR_TOKEN=\\S+ DATA_DIR=\\./data-addon MCP_PORT=(\\d+) STATUS_PORT=(\\d+) npm start`));
      const [, mcpPort, statusPort] = /MCP_PORT=(\d+) STATUS_PORT=(\d+)/.exec(command)!;
      expect(mcpPort).not.toBe("8808");
      expect(mcpPort).not.toBe(statusPort);
      expect(result.out).toMatch(/8808 or 8099 is in use, by a demo still running perhaps, so the command takes \d+ and \d+; stop the demo first/);
      expect(result.out).toMatch(new RegExp(`Status page: +${supervisorUrl}/api/hassio_ingress/[\\w-]+/`));
      expect(result.out).toMatch(new RegExp(`MCP endpoint: http://127\\.0\\.0\\.1:${mcpPort}/mcp`));
      expect(result.out).toContain("npm run fake:gemini");
    } finally {
      await new Promise((resolve) => demo.close(resolve));
    }
  });

  it("prints a real --help on stdout and exits 0", async () => {
    const result = await run(["--help"]);
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/^Usage: npm run sim --/);
    expect(result.out).toContain("generated:N");
    expect(result.out).toContain("--token T");
  });

  it("exits 2 with a clear message and no stack trace on bad arguments", async () => {
    const result = await run(["--port", "nope"]);
    expect(result.code).toBe(2);
    expect(result.err).toContain("--port must be a whole number");
    expect(result.err).not.toMatch(/\n\s+at /);
    const missing = await run(["--house", "/nonexistent/house.json"]);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain("Cannot read house file /nonexistent/house.json");
  });
});
