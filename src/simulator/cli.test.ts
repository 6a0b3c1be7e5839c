import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parseCliArgs } from "./cli-args.js";

// npm test builds before vitest, so the compiled entry point exists.
const CLI = fileURLToPath(new URL("../../dist/simulator/cli.js", import.meta.url));

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

  it("with --supervisor, also serves a Supervisor and prints how to start the add-on against it", async () => {
    let supervisorUrl = "";
    let status = 0;
    const result = await run(["--port", "0", "--supervisor", "--supervisor-port", "0"], (line, child) => {
      if (line.startsWith("Supervisor:")) supervisorUrl = line.split(/\s+/)[1]!;
      const start = /SUPERVISOR_URL=(\S+) SUPERVISOR_TOKEN=(\S+) DATA_DIR=/.exec(line);
      if (start) {
        expect(start[1]).toBe(supervisorUrl);
        void fetch(`${supervisorUrl}/addons/self/info`, { headers: { Authorization: `Bearer ${start[2]}` } }).then((res) => {
          status = res.status;
          child.kill("SIGTERM");
        });
      }
    });
    expect(status).toBe(200);
    expect(result.code).toBe(0);
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
