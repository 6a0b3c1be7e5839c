import { execFileSync } from "node:child_process";
import { cp, mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildStageCopies, contextFiles, isIgnored, parseDockerignore } from "../support/docker-context.js";
import { runProgram, type Program } from "../support/program.js";

const root = join(import.meta.dirname, "..", "..");

describe("the add-on image's build, on exactly its Docker build context", () => {
  let work: string | undefined;
  let program: Program | undefined;
  afterAll(async () => {
    if (program && program.child.exitCode === null) {
      program.child.kill("SIGKILL");
      await program.exited;
    }
    if (work) await rm(work, { recursive: true, force: true });
  });

  it("reads .dockerignore as Docker does", () => {
    const rules = parseDockerignore("*\n!src\n!package.json\nsrc/**/*.test.ts\n");
    expect(isIgnored(rules, "src/app.ts")).toBe(false);
    expect(isIgnored(rules, "src/http/auth/bearer.ts")).toBe(false);
    expect(isIgnored(rules, "src/http/auth/bearer.test.ts")).toBe(true);
    expect(isIgnored(rules, "bench/index/run.ts")).toBe(true);
    expect(isIgnored(rules, "package.json")).toBe(false);
    expect(isIgnored(rules, "README.md")).toBe(true);
  });

  it("sends no benchmark, test or test support into the image", async () => {
    const files = await contextFiles(root, parseDockerignore(await readFile(join(root, ".dockerignore"), "utf8")));
    expect(files).toContain("src/main.ts");
    expect(files.filter((f) => /(^|\/)(bench|test|test-support|crash)\//.test(f) || f.endsWith(".test.ts"))).toEqual([]);
  });

  it("runs npm ci, the build and npm prune from the context alone, and the pruned program serves /healthz", async () => {
    const dockerfile = await readFile(join(root, "Dockerfile"), "utf8");
    const files = await contextFiles(root, parseDockerignore(await readFile(join(root, ".dockerignore"), "utf8")));
    work = await mkdtemp(join(tmpdir(), "ha-agent-image-"));
    // The build stage's COPY lines, taking only what the context holds.
    for (const { sources } of buildStageCopies(dockerfile)) {
      for (const source of sources) {
        for (const file of files.filter((f) => f === source || f.startsWith(`${source}/`))) {
          await mkdir(dirname(join(work, file)), { recursive: true });
          await cp(join(root, file), join(work, file));
        }
      }
    }
    const sh = (cmd: string, args: string[]) => execFileSync(cmd, args, { cwd: work, stdio: "pipe", encoding: "utf8", env: { ...process.env, npm_config_update_notifier: "false" } });
    sh("npm", ["ci", "--ignore-scripts", "--no-audit", "--no-fund", "--prefer-offline"]);
    sh("npm", ["run", "build:product"]);
    sh("npm", ["prune", "--omit=dev", "--no-audit", "--no-fund"]);
    expect(() => sh("node", ["-e", "require.resolve('typescript')"])).toThrow();

    const dataDir = join(work, "data");
    program = runProgram({ DATA_DIR: dataDir, MCP_PORT: "0", STATUS_PORT: "0" }, join(work, "dist", "main.js"));
    const [, mcpUrl] = (await program.waitFor(/^MCP endpoint: (\S+)$/m)) as RegExpMatchArray;
    await program.waitFor(/HA Agent is ready/, 30_000);
    const health = await fetch((mcpUrl as string).replace(/\/mcp$/, "/healthz"));
    expect(health.status).toBe(200);
  }, 240_000);
});
