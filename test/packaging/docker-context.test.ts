import { execFileSync } from "node:child_process";
import { cp, mkdir, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { startSimulator, demoHouse, type Simulator } from "@ha-agent/ha-simulator";
import { afterAll, describe, expect, it } from "vitest";
import { buildStageCopies, buildStageRuns, contextFiles, isIgnored, parseDockerignore } from "../support/docker-context.js";
import { runProgram, type Program } from "../support/program.js";

const root = join(import.meta.dirname, "..", "..");

describe("the add-on image's build, on exactly its Docker build context", () => {
  let work: string | undefined;
  let program: Program | undefined;
  let simulator: Simulator | undefined;
  afterAll(async () => {
    await simulator?.close();
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

  it("sends no benchmark, test or test support into the image, and neither workspace package", async () => {
    const files = await contextFiles(root, parseDockerignore(await readFile(join(root, ".dockerignore"), "utf8")));
    expect(files).toContain("src/main.ts");
    expect(files.filter((f) => /(^|\/)(bench|test|test-support|crash)\//.test(f) || f.endsWith(".test.ts"))).toEqual([]);
    // The Home Assistant simulator and the model fakes live in packages/; the image holds neither.
    expect(files.filter((f) => f.startsWith("packages/"))).toEqual([]);
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
    const sh = (cmd: string, args: string[]) => execFileSync(cmd, args, { cwd: work, stdio: "pipe", encoding: "utf8", env: { ...process.env, npm_config_update_notifier: "false", npm_config_prefer_offline: "true" } });
    // The build stage's RUN lines, word for word, but the base image's package install (Node is here already).
    const runs = buildStageRuns(dockerfile).filter((run) => !run.startsWith("apk "));
    expect(runs.join(" && ")).toMatch(/npm ci .*npm run build:product && npm prune --omit=dev/);
    for (const run of runs) sh("sh", ["-c", run]);
    expect(() => sh("node", ["-e", "require.resolve('typescript')"])).toThrow();

    // Neither workspace package is linked, built or referenced: not in node_modules, not in what the program loads.
    const linked = await readdir(join(work, "node_modules", "@ha-agent")).catch(() => []);
    expect(linked).toEqual([]);
    const built = await readdir(join(work, "dist"), { recursive: true });
    expect(built.filter((f) => /simulator|fakes/.test(f))).toEqual([]);
    // Classes only the packages define: the simulated home, and the fake Gemini's signature book.
    const holding = [];
    for (const file of built.filter((f) => f.endsWith(".js"))) if (/\b(HomeModel|SignatureBook)\b/.test(await readFile(join(work, "dist", file), "utf8"))) holding.push(file);
    expect(holding).toEqual([]);

    // Standalone, against a Home Assistant it is pointed at, the pruned program serves /healthz.
    simulator = await startSimulator({ house: demoHouse() });
    program = runProgram({ DATA_DIR: join(work, "data"), MCP_PORT: "0", STATUS_PORT: "0", HA_URL: simulator.url, HA_TOKEN: simulator.users.tokenFor() }, join(work, "dist", "main.js"));
    const [, mcpUrl] = (await program.waitFor(/^MCP endpoint: (\S+)$/m)) as RegExpMatchArray;
    await program.waitFor(/HA Agent is ready/, 30_000);
    const health = await fetch((mcpUrl as string).replace(/\/mcp$/, "/healthz"));
    expect(health.status).toBe(200);
    program.child.kill("SIGTERM");
    await program.exited;

    // With no Home Assistant named, it would start the demo, which this image cannot run: one sentence says what to do, exit 2.
    const demo = runProgram({ DATA_DIR: join(work, "data-demo"), MCP_PORT: "0", STATUS_PORT: "0" }, join(work, "dist", "main.js"));
    expect((await demo.exited).code).toBe(2);
    expect(demo.stderr()).toMatch(/the demo's simulator \(the @ha-agent\/ha-simulator package\) is not part of this copy of HA Agent.*Set HA_URL and HA_TOKEN/);
    expect(demo.stderr()).not.toMatch(/\n\s+at /);
  }, 240_000);
});
