import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { INSPECTOR_CLI_FOR_NODE_20, INSPECTOR_FOR_NODE_20 } from "../../src/banner.js";

const run = promisify(execFile);
export const ROOT = join(import.meta.dirname, "..", "..");

/** Every shell line of a Markdown document's code blocks, with `\` continuations joined, as a reader would paste it. */
export function codeLines(markdown: string): string[] {
  const lines: string[] = [];
  let inBlock = false;
  let pending = "";
  for (const line of markdown.split("\n")) {
    if (line.startsWith("```")) {
      inBlock = !inBlock;
      continue;
    }
    if (!inBlock) continue;
    if (line.endsWith("\\")) {
      pending += `${line.slice(0, -1).trimEnd()} `;
      continue;
    }
    lines.push(`${pending}${line}`.trim());
    pending = "";
  }
  return lines;
}

/**
 * The README's commands fetch the Inspector's CLI with `npx -y`. Here the
 * same lines run in bash unchanged, with `npx` of that package answered by
 * the same package in the project's own devDependencies, without any download.
 */
const NPX_SHIM = `npx() {
  [ "$1" = -y ] && shift
  case "$1" in
    ${INSPECTOR_CLI_FOR_NODE_20}) shift; command npx --no-install --package=@modelcontextprotocol/inspector-cli@${INSPECTOR_FOR_NODE_20} mcp-inspector-cli "$@" ;;
    *) echo "the README runs npx $1, which this test does not provide" >&2; return 127 ;;
  esac
}`;

/** The exports (with this program's URL and token) and the `inspect` helper of "Talk to the agent", ready to run before its steps. */
export function inspectPreamble(readme: string, program: { mcpUrl: string; token: string }): string {
  const lines = codeLines(readme);
  const at = lines.findIndex((l) => /^inspect\(\) \{/.test(l));
  if (at < 1) throw new Error("the README has no inspect() helper after its exports");
  const exports = lines[at - 1]!.replace(/URL=\S+/, `URL=${program.mcpUrl}`).replace(/TOKEN=.*$/, `TOKEN=${program.token}`);
  return `${exports}\n${lines[at]!}`;
}

/** Runs README lines in bash, offline, and returns stdout. */
export async function runReadmeLines(script: string): Promise<string> {
  const { stdout } = await run("bash", ["-c", `set -e\n${NPX_SHIM}\n${script}`], {
    cwd: ROOT,
    env: { ...process.env, npm_config_offline: "true", npm_config_update_notifier: "false" },
    timeout: 60_000,
  });
  return stdout;
}

/**
 * Runs `inspect` steps one after the other, as a reader copies values: each
 * `<placeholder>` takes the value of that key an earlier step's structured
 * result printed. Returns every step's structured result.
 */
export async function runInspectSteps(preamble: string, steps: string[]): Promise<Record<string, unknown>[]> {
  const values: Record<string, string> = {};
  const results: Record<string, unknown>[] = [];
  for (const step of steps) {
    const filled = step.replace(/\s+#.*$/, "").replace(/<(\w+)>/g, (_, key: string) => values[key] ?? `<${key}>`);
    const out = JSON.parse(await runReadmeLines(`${preamble}\n${filled}`)) as { isError?: boolean; structuredContent: Record<string, unknown> };
    if (out.isError) throw new Error(`${filled}: ${JSON.stringify(out)}`);
    results.push(out.structuredContent);
    remember(out.structuredContent, values);
  }
  return results;
}

/** The ids a step printed, at its top level or one level down (an approval's `approval_id`), as a reader would copy them. */
function remember(result: Record<string, unknown>, values: Record<string, string>): void {
  for (const [key, value] of Object.entries(result)) {
    if (typeof value === "string" && /_id$/.test(key)) values[key] = value;
    else if (value && typeof value === "object" && !Array.isArray(value)) {
      for (const [inner, v] of Object.entries(value)) if (typeof v === "string" && /_id$/.test(inner)) values[inner] ??= v;
    }
  }
}
