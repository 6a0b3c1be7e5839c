import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** The project folder, found upwards, so this works from test/support and from its compiled copy in dist-bench. */
function projectRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json"))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}
const root = projectRoot(import.meta.dirname);
export const MAIN = join(root, "dist", "main.js");

const start = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { scripts: { start: string } }).scripts.start;
const launch = parseStart(start);

/**
 * The Node flags of `npm start`, which every launcher uses: the add-on's run
 * script, the tests and the benchmarks measure the program as users run it.
 */
export const NODE_FLAGS = launch.flags;
/** The environment `npm start` sets for Node (the C allocator's settings); every launcher sets it too. */
export const START_ENV = launch.env;

function parseStart(script: string): { env: Record<string, string>; flags: string[] } {
  const match = /^((?:[A-Z_]+=\S+ )*)node((?: --\S+)*) dist\/main\.js$/.exec(script);
  if (!match) throw new Error(`package.json's start script should be "[NAME=value ...] node [--flags] dist/main.js", not "${script}".`);
  const env = Object.fromEntries(match[1]!.trim().split(" ").filter(Boolean).map((pair) => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)]));
  return { env, flags: match[2]!.trim().split(" ").filter(Boolean) };
}

export interface Program {
  child: ChildProcessWithoutNullStreams;
  /** Everything written to stdout so far. */
  stdout(): string;
  stderr(): string;
  /** Resolves with the first match of `pattern` on stdout. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Resolves with the exit code (or signal) once the process has ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Runs the compiled program (`npm test` builds it first) as `npm start` does, with exactly the given environment besides. */
export function runProgram(env: Record<string, string>, main = MAIN): Program {
  if (!existsSync(main)) throw new Error(`${main} is missing: run "npm run build" first (npm test does).`);
  const child = spawn(process.execPath, [...NODE_FLAGS, main], { env: { PATH: process.env.PATH ?? "", ...START_ENV, ...env }, stdio: ["pipe", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (err += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    waitFor(pattern, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = pattern.exec(out);
          if (match) {
            cleanup();
            resolve(match);
          }
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`no ${pattern} on stdout within ${timeoutMs} ms.\nstdout:\n${out}\nstderr:\n${err}`));
        }, timeoutMs);
        const onExit = () => {
          cleanup();
          reject(new Error(`the program exited before printing ${pattern}.\nstdout:\n${out}\nstderr:\n${err}`));
        };
        const cleanup = () => {
          clearTimeout(timer);
          child.stdout.off("data", check);
          child.off("exit", onExit);
        };
        child.stdout.on("data", check);
        child.on("exit", onExit);
        check();
      });
    },
  };
}
